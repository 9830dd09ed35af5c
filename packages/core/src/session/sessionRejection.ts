// A 401 on a signed call that a held session stamped (docs/architecture.md "Sessions"): the
// service no longer takes that session, so it is cleared on this device, once, for every tab,
// instead of stamping request after request with it. Which session stamped which request is noted
// here at the moment of signing (`signWithSession`); the engine calls `ended` when the request
// ends (the client hands it the store's method, a direct call rather than a reading of the event
// stream); what a 401 then does is `rejectSession.ts`, a chunk loaded at the first one.
import type { SignContext, SignedRequestEnd } from "../transport/signedRequest.js";
import type { Rejecter, RejecterParameters } from "./rejectSession.js";

/** Signatures remembered at most: a request whose end never came is forgotten eventually. */
const MAX_NOTED = 256;

/** Over the store's session type `S` (the guard needs a session's id only). */
export type SessionRejection<S extends { readonly id: string }> = {
  /** Notes that `session` stamped the request of `context` (its request id, or its operation). */
  noteSignature(session: S, context: SignContext): void;
  /** Told how a signed request ended; a 401 that ends one a held session stamped clears it. */
  ended(end: SignedRequestEnd): void;
  /** The clearings still running (tests and the reliability runs wait for them). */
  settled(): Promise<void>;
};

/**
 * The rejection guard of one session store.
 *
 * @example
 * ```ts
 * const rejection = createSessionRejection({ held, confirmGone, lock, sync, clear });
 * ```
 */
export function createSessionRejection<S extends { readonly id: string }>(
  parameters: RejecterParameters<S>,
): SessionRejection<S> {
  // Challenge mode: by request id. Quote execute stamps without one: by operation, in order.
  const noted = new Map<string, string[]>();
  let rejecter: Promise<Rejecter> | undefined;
  const pending = new Set<Promise<void>>();

  const note = (key: string, sessionId: string) => {
    if (noted.size >= MAX_NOTED && !noted.has(key)) noted.delete(noted.keys().next().value ?? "");
    const list = noted.get(key) ?? [];
    if (list.length >= MAX_NOTED) list.shift();
    list.push(sessionId);
    noted.set(key, list);
  };

  return {
    noteSignature(session, context) {
      note(context.requestId ?? `op|${context.operation ?? ""}`, session.id);
    },
    ended(event) {
      const exact = event.mode === "challenge";
      if (exact && event.requestId === undefined) return;
      const key = exact ? (event.requestId as string) : `op|${event.operation ?? ""}`;
      const list = noted.get(key);
      const sessionId = list?.shift();
      if (!list || sessionId === undefined) return;
      if (list.length === 0) noted.delete(key);
      // Two executes in flight with different sessions: which one this answer is about is unknown.
      if (list.some((other) => other !== sessionId)) return;
      if (event.stage !== "failed" || event.status !== 401) return;
      rejecter ??= import("./rejectSession.js").then((m) => m.createRejecter(parameters));
      const task = rejecter
        .then((r) => r.reject(sessionId, event.code, exact))
        .catch(() => {
          // The chunk could not load: the session stays, and the next signed call says why.
        });
      pending.add(task);
      void task.finally(() => pending.delete(task));
    },
    async settled() {
      while (pending.size > 0) await Promise.all(pending);
      await (await rejecter)?.settled();
    },
  };
}
