// The calls of a client that the service still answers PROCESSING for (docs/protocol.md §2.5): a
// snapshot for `useSyncExternalStore`, a `pending` event at each step, and the kept copy that a
// reload or another tab resumes (./resume.ts). The engine hands each PROCESSING wait's stamped
// leg to `track`'s `onStillProcessing`; the copy is written holding an origin-wide lock named
// after the request id and deleted before the lock is let go, so a tab that resumes (and takes
// that lock first) finds it only when no live tab is still re-sending it.
import { defined } from "../errors/defined.js";
import type { SignetError } from "../errors/errors.js";
import type { SignedRequestEnd, StampedRequest } from "../transport/signedRequestParameters.js";
import type { KeptCall, PendingFinish, PendingStore } from "./pendingStore.js";

/** How one kept call ended. No secret: the body is the service's answer (an `AuthMethod`, none). */
export type ResumedCall = {
  action: string;
  requestId: string;
} & (
  | { outcome: "settled"; status: number; body: unknown }
  | { outcome: "failed"; error: SignetError }
  | { outcome: "dropped"; code: "CHALLENGE_EXPIRED" }
);

/** A call still processing, as shown to an app. No secret: safe to render and log. */
export type PendingCall = {
  /** The action's name (`revokeCredential`, `signOut`, `verifyOtp`…). */
  action: string;
  requestId: string;
  /** When the first PROCESSING answer came (epoch ms, the client's clock). */
  since: number;
  /** PROCESSING answers so far. */
  attempt: number;
  /** Carried on from a kept copy (after a reload, or from another tab). */
  resumed: boolean;
  /** Whether a reload carries it on (`false`: an export, a sign-in whose new key is not kept). */
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
  since: number;
  attempt: number;
  resumable: boolean;
  status?: number;
  code?: string;
};

/** What an action says about its call, should it be answered PROCESSING. */
export type PendingOptions = {
  /** Keep the stamped request for a reload or another tab (default `false`). */
  resumable?: boolean;
  /** What a resume does after a success (the action's own code does it otherwise). */
  finish?: PendingFinish;
  /** @internal The kept call a resume carries on (already locked and written). */
  resumed?: KeptCall;
};

/** The lock a kept call is written and re-sent under, across the tabs of an origin. */
export const pendingLockKey = (requestId: string) => `pending|${requestId}`;

type Seams = {
  /** The kept calls' store, resolved on first use. */
  store: () => Promise<PendingStore>;
  lock: <T>(key: string, task: () => Promise<T>) => Promise<T>;
  now: () => number;
  emit: (event: PendingEvent, onEvent?: (event: PendingEvent) => void) => void;
};

/** The client's calls still processing: the snapshot, and the engine's hooks for one call. */
export type PendingCalls = {
  subscribe(listener: () => void): () => void;
  getSnapshot(): readonly PendingCall[];
  /** @internal Whether this tab is re-sending `requestId` now. */
  has(requestId: string): boolean;
  /** @internal The engine's `onStillProcessing` and `onEnd` for one call. */
  track(
    action: string,
    options: PendingOptions,
    onEvent?: (event: PendingEvent) => void,
  ): {
    onStillProcessing: (stamped: StampedRequest) => void;
    onEnd: (end: SignedRequestEnd) => void;
  };
  /**
   * @internal Tells how a kept call ended (a resume settles it after its run: the session it
   * ends may be gone already), or that it was `dropped` (its challenge lapsed before a resume).
   */
  told(
    call: KeptCall,
    end: { state: "settled" | "failed" | "dropped"; status?: number; code?: string },
    onEvent?: (event: PendingEvent) => void,
  ): void;
};

/**
 * Makes a client's tracker of calls still processing.
 * @example
 * ```ts
 * const pending = createPendingCalls({ store: () => store, lock: tabs.lock, now: clock.now, emit });
 * ```
 */
export function createPendingCalls(seams: Seams): PendingCalls {
  let snapshot: readonly PendingCall[] = [];
  const listeners = new Set<() => void>();
  const publish = (next: readonly PendingCall[]) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };
  const upsert = (call: PendingCall) =>
    publish([...snapshot.filter((c) => c.requestId !== call.requestId), call]);
  const drop = (requestId: string) => publish(snapshot.filter((c) => c.requestId !== requestId));
  const event = (
    call: PendingCall,
    state: PendingEvent["state"],
    end?: Pick<SignedRequestEnd, "status" | "code">,
  ) => ({
    type: "pending" as const,
    state,
    action: call.action,
    requestId: call.requestId,
    since: call.since,
    attempt: call.attempt,
    resumable: call.resumable,
    ...(end?.status === undefined ? {} : { status: end.status }),
    ...(end?.code === undefined ? {} : { code: end.code }),
  });

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    has: (requestId) => snapshot.some((c) => c.requestId === requestId),
    told(call, { state, status, code }, onEvent) {
      const shown = { ...call, resumed: true, resumable: true };
      seams.emit(event(shown, state, defined({ status, code })), onEvent);
    },
    track(action, options, onEvent) {
      const resumable = options.resumable === true || options.resumed !== undefined;
      let current: PendingCall | undefined;
      let kept: KeptCall | undefined = options.resumed;
      // The kept copy's writes, in order; the last one (the delete) runs before the lock goes.
      let writes: Promise<unknown> = Promise.resolve();
      let ended = false;
      let endCall: () => void = () => undefined;
      const callEnded = new Promise<void>((resolve) => {
        endCall = resolve;
      });
      const write = (run: (store: PendingStore) => Promise<unknown>) => {
        writes = writes.then(async () => run(await seams.store())).catch(() => undefined);
        return writes;
      };
      if (options.resumed) {
        const { since, attempt, requestId } = options.resumed;
        current = { action, requestId, since, attempt, resumed: true, resumable: true };
        upsert(current);
        seams.emit(event(current, "resumed"), onEvent);
      }
      return {
        onStillProcessing(stamped) {
          const { requestId, attempt } = stamped;
          const since = current?.since ?? seams.now();
          const resumed = options.resumed !== undefined;
          current = { action, requestId, since, attempt, resumed, resumable };
          upsert(current);
          seams.emit(event(current, "processing"), onEvent);
          if (!resumable) return;
          const first = kept === undefined;
          kept = {
            v: 1,
            action,
            method: stamped.method,
            path: stamped.path,
            ...(stamped.body === undefined ? {} : { body: stamped.body }),
            expectedStatus:
              typeof stamped.expectedStatus === "number"
                ? stamped.expectedStatus
                : [...stamped.expectedStatus],
            requestId,
            signature: stamped.signature,
            expiresAtMs: stamped.expiresAtMs,
            since,
            attempt,
            ...(options.finish === undefined ? {} : { finish: options.finish }),
          };
          const copy = kept;
          if (!first || options.resumed) {
            write((store) => store.set(copy));
            return;
          }
          // Written holding the lock, kept until the call ends (a resume elsewhere waits).
          seams
            .lock(pendingLockKey(requestId), async () => {
              if (!ended) await write((store) => store.set(copy));
              await callEnded;
              await writes;
            })
            .catch(() => undefined);
        },
        onEnd(end) {
          if (current === undefined) return;
          const { requestId } = current;
          // A call given up here (unmounted, aborted) is still in flight at the service: its
          // kept copy stays for the next resume. Any other end deletes it.
          if (kept !== undefined && end.code !== "ABORTED") write((s) => s.delete(requestId));
          ended = true;
          endCall();
          drop(requestId);
          // A resume tells the end itself, once it knows it (./resume.ts).
          if (options.resumed) return;
          seams.emit(event(current, end.stage === "done" ? "settled" : "failed", end), onEvent);
        },
      };
    },
  };
}
