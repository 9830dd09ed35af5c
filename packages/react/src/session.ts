"use client";
// The device's sessions, from core's session store through useSyncExternalStore: every component
// shares one snapshot, and core keeps the tabs of an origin in step.
import {
  type KeyPersistence,
  SESSION_EXPIRY_MARGIN_MS,
  type Session,
  type SessionSnapshot,
} from "@signet/core";
import { useEffect, useState, useSyncExternalStore } from "react";
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
};
/** A session is held on this device: `session` and `expiresAt` are there. */
export type SessionSignedInResult = SessionResultBase & {
  status: "signedIn";
  /** The newest unexpired session held on this device. */
  session: Session;
  accountId: string;
  /** RFC 3339, the service's clock. */
  expiresAt: string;
};
/** No unexpired session is held on this device (for the account). */
export type SessionSignedOutResult = SessionResultBase & {
  status: "signedOut";
  session: undefined;
  accountId: string | undefined;
  expiresAt: undefined;
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

/**
 * The session state of this device, shared by every component and every tab of the origin (a
 * sign-out or refresh in one tab shows in the others). Re-renders when a session expires.
 *
 * @example
 * ```tsx
 * const { status, session } = useSession({ accountId });
 * if (status === "signedOut") return <SignIn />;
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
  const [now, setNow] = useState(() => client.clock.now());
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
  // Wake up when the newest session stops being usable, so the status turns to signedOut on time.
  useEffect(() => {
    if (!session) return;
    const timer = setTimeout(
      () => setNow(client.clock.now()),
      Math.max(0, usableUntil(session) - client.clock.now()) + 10,
    );
    return () => clearTimeout(timer);
  }, [client, session]);
  return {
    status: !loaded ? "loading" : session ? "signedIn" : "signedOut",
    session,
    sessions,
    accountId: session?.accountId ?? accountId,
    expiresAt: session?.expiresAt,
    persistence,
  } as UseSessionReturnType;
}
