"use client";
// The device's sessions, from core's session store through useSyncExternalStore: every component
// shares one snapshot, and core keeps the tabs of an origin in step.
import {
  type KeyPersistence,
  SESSION_EXPIRY_MARGIN_MS,
  type Session,
  type SessionSnapshot,
} from "@signet/core";
import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { useSignetContext } from "./context.js";

/** Parameters of {@link useSession}. */
export type UseSessionParameters = {
  /** The wallet (`InternalAccount:…`); any account's newest session when omitted. */
  accountId?: string | undefined;
};

type SessionResultBase = {
  /** Every unexpired session held on this device for the account (newest first). */
  sessions: readonly Session[];
  /** Where session keys live: `indexeddb`, or `memory` where the browser cannot keep keys. */
  persistence: KeyPersistence | undefined;
};

/** Until the key store has been read (always during server rendering). */
export type SessionLoadingResult = SessionResultBase & {
  status: "loading";
  /** What another component has read already, if anything. */
  session: Session | undefined;
  accountId: string | undefined;
  expiresAt: string | undefined;
  expiresIn: number | undefined;
  expiring: boolean;
};
/** A session is held on this device: `session` and `expiresAt` are there. */
export type SessionSignedInResult = SessionResultBase & {
  status: "signedIn";
  /** The newest unexpired session held on this device. */
  session: Session;
  accountId: string;
  /** RFC 3339, the service's clock. */
  expiresAt: string;
  /**
   * Milliseconds until `expiresAt` by the client's clock: updated every second while `expiring`,
   * otherwise as of the last render.
   */
  expiresIn: number;
  /**
   * Within the client's warning margin of the end (`sessionWarning`, default one minute): time
   * to offer "stay signed in" (a refresh) or to save work. Core emits a `session` event with
   * `action: "expiring"` at the same moment.
   */
  expiring: boolean;
};
/** No unexpired session is held on this device (for the account). */
export type SessionSignedOutResult = SessionResultBase & {
  status: "signedOut";
  session: undefined;
  accountId: string | undefined;
  expiresAt: undefined;
  expiresIn: undefined;
  expiring: false;
};

/** What {@link useSession} returns: a union that narrows on `status` (`"signedIn"` has `session`). */
export type UseSessionReturnType =
  | SessionLoadingResult
  | SessionSignedInResult
  | SessionSignedOutResult;

const EMPTY: SessionSnapshot = Object.freeze({});

/** Core's one expiry rule: within SESSION_EXPIRY_MARGIN_MS of its end a session signs nothing. */
const usableUntil = (session: { expiresAt: string }): number =>
  Date.parse(session.expiresAt) - SESSION_EXPIRY_MARGIN_MS;

/** While a session is expiring, `expiresIn` counts down at this pace. */
const TICK_MS = 1_000;

/**
 * When the hook should look at the clock again for `session`: when its warning starts, then
 * every second while it is expiring, and when it stops being usable.
 */
const nextWake = (session: { expiresAt: string }, warningMs: number, now: number): number => {
  const end = usableUntil(session);
  const warnAt = Date.parse(session.expiresAt) - warningMs;
  return now < warnAt ? Math.min(warnAt, end) : Math.min(end, now + TICK_MS);
};

/**
 * The session state of this device, shared by every component and every tab of the origin (a
 * sign-out, refresh or rejected session in one tab shows in the others). Re-renders when a
 * session starts expiring (`expiring`, `expiresIn` counting down) and when it expires.
 *
 * @example
 * ```tsx
 * const { status, session, expiring, expiresIn } = useSession({ accountId });
 * if (status === "signedOut") return <SignIn />;
 * if (expiring) return <p>Signing you out in {Math.ceil(expiresIn / 1000)} s</p>;
 * ```
 */
export function useSession(parameters: UseSessionParameters = {}): UseSessionReturnType {
  const { client } = useSignetContext("useSession");
  const { accountId } = parameters;
  const snapshot = useSyncExternalStore(
    client.sessions.subscribe,
    client.sessions.getSnapshot,
    () => EMPTY,
  );
  const [loaded, setLoaded] = useState(false);
  const [persistence, setPersistence] = useState<KeyPersistence>();
  const [tick, setTick] = useState(0);
  // The clock is read again whenever the sessions change too: a tab coming back from a sleep
  // re-renders for a changed snapshot long after the last tick.
  // biome-ignore lint/correctness/useExhaustiveDependencies: snapshot and tick are the reasons to read the clock again
  const now = useMemo(() => client.clock.now(), [client, snapshot, tick]);
  useEffect(() => {
    let live = true;
    void client.sessions.load().finally(() => live && setLoaded(true));
    void client.persistence().then(
      (p) => live && setPersistence(p),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client]);
  const all =
    accountId === undefined ? Object.values(snapshot).flat() : (snapshot[accountId] ?? []);
  const sessions = all
    .filter((s) => usableUntil(s) > now)
    .sort((a, b) => Date.parse(b.expiresAt) - Date.parse(a.expiresAt));
  const session = sessions[0];
  const warningMs = client.sessions.expiryWarningMs;
  const expiresIn = session ? Date.parse(session.expiresAt) - now : undefined;
  const expiring = expiresIn !== undefined && warningMs > 0 && expiresIn <= warningMs;
  // Wake up when the warning starts, each second while it lasts, and when the newest session
  // stops being usable, so that `expiring` and the status change on time.
  useEffect(() => {
    if (!session) return;
    const delay = Math.max(0, nextWake(session, warningMs, now) - now) + 10;
    const timer = setTimeout(() => setTick((n) => n + 1), delay);
    return () => clearTimeout(timer);
  }, [session, warningMs, now]);
  return {
    status: !loaded ? "loading" : session ? "signedIn" : "signedOut",
    session,
    sessions,
    accountId: session?.accountId ?? accountId,
    expiresAt: session?.expiresAt,
    expiresIn,
    expiring,
    persistence,
  } as UseSessionReturnType;
}
