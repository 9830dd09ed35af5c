// What tracks a call the service still answers PROCESSING for (docs/protocol.md §2.5): a
// `pending` event at each step, the client's view kept current, and the kept copy that a reload
// or another tab resumes (./resume.ts). The engine hands each PROCESSING wait's stamped leg to
// `track`'s `onStillProcessing`; the copy is written holding an origin-wide lock named after the
// request id and deleted before the lock is let go, so a tab that resumes (and takes that lock
// first) finds it only when no live tab is still re-sending it. A chunk, loaded with the engine:
// the page itself holds only the view (./pendingCalls.ts).
import { defined } from "../errors/defined.js";
import type {
  DirectProcessing,
  SignedRequestEnd,
  StampedRequest,
} from "../transport/signedRequestParameters.js";
import {
  type PendingCall,
  type PendingEvent,
  type PendingOptions,
  type PendingView,
  pendingLockKey,
} from "./pendingCalls.js";
import { type KeptCall, type PendingStore, readKeptCall } from "./pendingStore.js";

/**
 * A leg sent without a stamp under a challenge's `Request-Id`, answered PROCESSING: a passkey
 * sign-in's verify, whose WebAuthn assertion (in the body) is its proof (./unsignedKept.ts).
 */
export type UnsignedLeg = Omit<StampedRequest, "signature"> & { signature?: undefined };

type Seams = {
  /** The kept calls' store, resolved on first use. */
  store: () => Promise<PendingStore>;
  lock: <T>(key: string, task: () => Promise<T>) => Promise<T>;
  now: () => number;
  emit: (event: PendingEvent, onEvent?: (event: PendingEvent) => void) => void;
};

/** What tracks a client's calls still processing: the engine's hooks for one call, and the end of a kept one. */
export type PendingTracker = {
  /** The engine's `onStillProcessing` and `onEnd` for one call. */
  track(
    action: string,
    options: PendingOptions,
    onEvent?: (event: PendingEvent) => void,
  ): {
    onStillProcessing: (stamped: StampedRequest | UnsignedLeg | DirectProcessing) => void;
    onEnd: (end: SignedRequestEnd) => void;
  };
  /**
   * Tells how a kept call ended (a resume settles it after its run: the session it
   * ends may be gone already), or that it was `dropped` (its challenge lapsed before a resume).
   */
  told(
    call: KeptCall,
    end: { state: "settled" | "failed" | "dropped"; status?: number; code?: string },
    onEvent?: (event: PendingEvent) => void,
  ): void;
};

/**
 * Makes a client's tracker of calls still processing, over its view.
 * @example
 * ```ts
 * const tracker = createPendingTracker(view, { store, lock: tabs.lock, now: clock.now, emit });
 * ```
 */
export function createPendingTracker(view: PendingView, seams: Seams): PendingTracker {
  const { upsert, drop } = view;
  const event = (
    call: PendingCall,
    state: PendingEvent["state"],
    end?: Pick<SignedRequestEnd, "status" | "code">,
  ) => ({
    type: "pending" as const,
    state,
    action: call.action,
    requestId: call.requestId,
    ...(call.accountId === undefined ? {} : { accountId: call.accountId }),
    since: call.since,
    attempt: call.attempt,
    resumable: call.resumable,
    ...(end?.status === undefined ? {} : { status: end.status }),
    ...(end?.code === undefined ? {} : { code: end.code }),
  });

  return {
    told(call, { state, status, code }, onEvent) {
      const shown = { ...call, resumed: true, resumable: true };
      seams.emit(event(shown, state, defined({ status, code })), onEvent);
    },
    track(action, options, onEvent) {
      const accountId = options.resumed?.accountId ?? options.accountId;
      const resumable =
        (options.resumable === true || options.resumed !== undefined) && accountId !== undefined;
      let current: PendingCall | undefined;
      let kept: KeptCall | undefined = options.resumed;
      const finish = options.finish ?? options.resumed?.finish;
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
        current = {
          action,
          requestId,
          ...(accountId === undefined ? {} : { accountId }),
          since,
          attempt,
          resumed: true,
          resumable: true,
        };
        upsert(current);
        seams.emit(event(current, "resumed"), onEvent);
      }
      return {
        onStillProcessing(stamped) {
          const { requestId, attempt } = stamped;
          const since = current?.since ?? seams.now();
          const resumed = options.resumed !== undefined;
          // A direct call (quote execute, a contact-change submit) has no request id or challenge
          // a re-send could be kept under: shown pending, never kept. Nor is a call that does not
          // read back as a kept call (a route that is not resumable, no account).
          const record =
            !resumable || "mode" in stamped || accountId === undefined
              ? undefined
              : readKeptCall({
                  v: 1,
                  action,
                  accountId,
                  method: stamped.method,
                  path: stamped.path,
                  ...(stamped.body === undefined ? {} : { body: stamped.body }),
                  expectedStatus:
                    typeof stamped.expectedStatus === "number"
                      ? stamped.expectedStatus
                      : [...stamped.expectedStatus],
                  requestId,
                  ...(stamped.signature === undefined ? {} : { signature: stamped.signature }),
                  expiresAtMs: stamped.expiresAtMs,
                  since,
                  attempt,
                  // A resumed call carries its kept copy's finish on.
                  ...(finish === undefined ? {} : { finish }),
                } satisfies KeptCall);
          const keeps = record !== undefined;
          current = {
            action,
            requestId,
            ...(accountId === undefined ? {} : { accountId }),
            since,
            attempt,
            resumed,
            resumable: keeps,
          };
          upsert(current);
          seams.emit(event(current, "processing"), onEvent);
          if (record === undefined) return;
          const first = kept === undefined;
          kept = record;
          // What the copy names (a sign-in's one-time key) is kept first: every write of the
          // copy follows this one in the chain.
          if (first && options.keep) {
            const keep = options.keep;
            // Not once the call has ended (its action forgets no key it never noted).
            write(() => (ended ? Promise.resolve() : keep()));
          }
          if (!first || options.resumed) {
            write((store) => store.set(record));
            return;
          }
          // Written holding the lock, kept until the call ends (a resume elsewhere waits).
          seams
            .lock(pendingLockKey(requestId), async () => {
              if (!ended) await write((store) => store.set(record));
              await callEnded;
              await writes;
            })
            .catch(() => undefined);
        },
        onEnd(end) {
          if (current === undefined) return;
          const { requestId } = current;
          // A call given up here (unmounted, aborted) is still in flight at the service: its
          // kept copy stays for the next resume, as does a resumed one its resume keeps (a
          // sign-in's re-send that got no answer). Any other end deletes it.
          const stays = end.code === "ABORTED" || options.keepAfter?.(end) === true;
          if (kept !== undefined && !stays) write((s) => s.delete(requestId));
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
