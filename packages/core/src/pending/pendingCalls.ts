// The calls of a client that the service still answers PROCESSING for (docs/protocol.md §2.5): a
// snapshot for `useSyncExternalStore`, a `pending` event at each step, and the kept copy that a
// reload or another tab resumes (./resume.ts). The engine hands each PROCESSING wait's stamped
// leg to `track`'s `onStillProcessing`; the copy is written holding an origin-wide lock named
// after the request id and deleted before the lock is let go, so a tab that resumes (and takes
// that lock first) finds it only when no live tab is still re-sending it.
import type { SignetError } from "../errors/errors.js";
import type { KeptCall, PendingFinish } from "./pendingStore.js";

/** How one kept call ended. No secret: the body is the service's answer (an `AuthMethod`, none). */
export type ResumedCall = {
  action: string;
  requestId: string;
} & (
  | { outcome: "settled"; status: number; body: unknown }
  | {
      outcome: "failed";
      error: SignetError;
      /**
       * `true` when the call stays kept for the next resume: a sign-in's re-send that got no
       * answer (no connection, a timeout, a 5xx, a 408 or 429) while its challenge lives.
       */
      kept?: true;
    }
  | { outcome: "dropped"; code: "CHALLENGE_EXPIRED" }
);

/** A call still processing, as shown to an app. No secret: safe to render and log. */
export type PendingCall = {
  /** The action's name (`revokeCredential`, `signOut`, `verifyOtp`…). */
  action: string;
  /**
   * The `Request-Id` it is re-sent under; for a call signed without one (quote execute: its
   * `Idempotency-Key`; a contact-change submit: an id made on the device for the call).
   */
  requestId: string;
  /** When the first PROCESSING answer came (epoch ms, the client's clock). */
  since: number;
  /** PROCESSING answers so far. */
  attempt: number;
  /** The account the call acts on, when its action names one (every kept call does). */
  accountId?: string;
  /** Carried on from a kept copy (after a reload, or from another tab). */
  resumed: boolean;
  /**
   * Whether a reload carries it on (`false`: an export, a sign-in whose new key is not kept (a
   * legacy-flow passkey's, or one whose credential or challenge names no account), a quote
   * execute or a contact-change submit, whose own records say how they ended).
   */
  resumable: boolean;
};

/**
 * A call the service still answers PROCESSING for, or how it ended (docs/protocol.md §2.5).
 * Redacted by construction: no body, stamp or key.
 * - `processing`: a PROCESSING answer came (`attempt` counts them); the call is re-sent.
 * - `resumed`: a kept call is carried on (after a reload, or from another tab).
 * - `settled`: it ended in success (`status`); `failed`: in an error (`code`).
 * - `dropped`: a kept call was not re-sent: its challenge lapsed (`code: "CHALLENGE_EXPIRED"`).
 */
export type PendingEvent = {
  type: "pending";
  state: "processing" | "resumed" | "settled" | "failed" | "dropped";
  action: string;
  requestId: string;
  /** The account the call acts on, when its action names one: an app shows it to that account's user only. */
  accountId?: string;
  since: number;
  attempt: number;
  resumable: boolean;
  status?: number;
  code?: string;
};

/** What an action says about its call, should it be answered PROCESSING. */
export type PendingOptions = {
  /**
   * Keep the stamped request for a reload or another tab (default `false`). Kept only with
   * `accountId`, and only on a resumable route (`pendingStore.ts`).
   */
  resumable?: boolean;
  /** The account the call acts on: the kept copy is tied to it. */
  accountId?: string;
  /** What a resume does after a success (the action's own code does it otherwise). */
  finish?: PendingFinish;
  /**
   * @internal Runs once before the kept copy is first written, and the copy waits for it: a
   * sign-in notes its one-time key in the key store there, so that no kept sign-in ever names a
   * key the store does not hold. Must not throw.
   */
  keep?: () => Promise<void>;
  /** @internal The kept call a resume carries on (already locked and written). */
  resumed?: KeptCall;
  /**
   * @internal For a resumed call: whether its kept copy stays in the store after this end (a
   * kept sign-in's re-send that got no answer, while its challenge lives), for the next resume.
   */
  keepAfter?: (end: { status?: number | undefined; code?: string | undefined }) => boolean;
};

/** What an unsigned kept verify sends: its path, its body, and its challenge's id and expiry. */
export type UnsignedKeptRequest = {
  path: string;
  body: string;
  requestId: string;
  /** The challenge's expiry (epoch ms, service clock): no re-send after it. */
  expiresAtMs: number;
};

/** The lock a kept call is written and re-sent under, across the tabs of an origin. */
export const pendingLockKey = (requestId: string) => `pending|${requestId}`;

/**
 * The calls still processing that a client shows: a snapshot for `useSyncExternalStore`. Small
 * and loaded with the page; what tracks a call and keeps it (`track.ts`) loads with the engine.
 */
export type PendingView = {
  subscribe(listener: () => void): () => void;
  getSnapshot(): readonly PendingCall[];
  /** @internal Whether this tab is re-sending `requestId` now. */
  has(requestId: string): boolean;
  /** @internal Puts a call in the snapshot (replacing the one of its request id). */
  upsert(call: PendingCall): void;
  /** @internal Takes a call out of the snapshot. */
  drop(requestId: string): void;
};

/**
 * Makes a client's view of its calls still processing.
 * @example
 * ```ts
 * const view = createPendingView();
 * const calls = view.getSnapshot();
 * ```
 */
export function createPendingView(): PendingView {
  let snapshot: readonly PendingCall[] = [];
  const listeners = new Set<() => void>();
  const publish = (next: readonly PendingCall[]) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    has: (requestId) => snapshot.some((c) => c.requestId === requestId),
    upsert: (call) => publish([...snapshot.filter((c) => c.requestId !== call.requestId), call]),
    drop: (requestId) => publish(snapshot.filter((c) => c.requestId !== requestId)),
  };
}
