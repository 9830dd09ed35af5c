// A 401 on a signed call that a held session stamped (docs/architecture.md "Sessions"): the
// service no longer takes that session, so it is cleared on this device, once, for every tab,
// instead of stamping request after request with it. Which session stamped which request is noted
// at the moment of signing (`signWithSession`); the engine's terminal events say how it ended.
import type { SignetEvent } from "../events.js";
import type { SignContext } from "../transport/signedRequest.js";
import type { Session } from "./sessionStore.js";

/** 401 codes by which the service refuses the stamp's key itself: no active session has it. */
const KEY_REFUSED = new Set(["WALLET_SIGNATURE_INVALID", "INVALID_SIGNATURE"]);

/**
 * 401 codes about the request, not the session (a lapsed challenge, a header this client failed
 * to send, a body that changed): the session stays.
 */
const REQUEST_FAULT = new Set([
  "CHALLENGE_EXPIRED",
  "REQUEST_ID_MISSING",
  "WALLET_SIGNATURE_MISSING",
  "WALLET_SIGNATURE_MALFORMED",
  "WALLET_SIGNATURE_BODY_MISMATCH",
]);

/** Signatures remembered at most: a request whose end never came is forgotten eventually. */
const MAX_NOTED = 256;

type Signer = { accountId: string; sessionId: string };

export type SessionRejection = {
  /** Notes that `session` stamped the request of `context` (its request id, or its operation). */
  noteSignature(session: Session, context: SignContext): void;
  /** Reads one client event; a 401 that ends a request a held session stamped clears it. */
  observe(event: SignetEvent): void;
  /** The clearings still running (tests and the reliability runs wait for them). */
  settled(): Promise<void>;
};

/**
 * The rejection guard of one session store.
 *
 * @example
 * ```ts
 * const rejection = createSessionRejection({ isHeld, confirmGone, lock, sync, clear });
 * ```
 */
export function createSessionRejection(parameters: {
  /** The held session of that id, if any. */
  held(sessionId: string): Session | undefined;
  /** Whether the service no longer lists the session as active; an error keeps it. */
  confirmGone(session: Session): Promise<boolean>;
  /** An origin-wide lock (Web Locks where they exist); `waited`: another tab may have acted. */
  lock<T>(key: string, task: (waited: boolean) => Promise<T>): Promise<T>;
  /** Re-reads the shared key store. */
  sync(): Promise<void>;
  /** Removes the session, deletes its key, tells the other tabs and emits `rejected`. */
  clear(session: Session): Promise<void>;
}): SessionRejection {
  const byRequestId = new Map<string, Signer>();
  // Quote execute stamps without a request id: its signatures are told apart by operation only.
  const byOperation = new Map<string, Signer[]>();
  const running = new Map<string, Promise<void>>();

  const signerOf = (event: Extract<SignetEvent, { type: "signedRequest" }>) => {
    if (event.mode === "challenge") {
      if (event.requestId === undefined) return undefined;
      const signer = byRequestId.get(event.requestId);
      byRequestId.delete(event.requestId);
      return signer && { ...signer, exact: true };
    }
    const list = byOperation.get(event.operation ?? "");
    const signer = list?.shift();
    if (!list || !signer) return undefined;
    if (list.length === 0) byOperation.delete(event.operation ?? "");
    // Two executes in flight with different sessions: which one this answer is about is unknown.
    const ambiguous = list.some((other) => other.sessionId !== signer.sessionId);
    return ambiguous ? undefined : { ...signer, exact: false };
  };

  const reject = (sessionId: string, trustCode: boolean) => {
    const inFlight = running.get(sessionId);
    if (inFlight) return inFlight;
    const task = parameters
      .lock(`rejected|${sessionId}`, async (waited) => {
        // Another tab may have cleared it (or refreshed it away) while this one waited.
        if (waited) await parameters.sync();
        const session = parameters.held(sessionId);
        if (!session) return;
        // A refusal of this very key is the service's word; any other 401 is checked first, so a
        // 401 for a spent request id or a relay that signed its user out clears nothing.
        if (!trustCode && !(await parameters.confirmGone(session))) return;
        await parameters.clear(session);
      })
      .catch(() => {
        // The store could not be read or written: the next signed call reports it.
      })
      .finally(() => running.delete(sessionId));
    running.set(sessionId, task);
    return task;
  };

  return {
    noteSignature(session, context) {
      const signer = { accountId: session.accountId, sessionId: session.id };
      if (context.requestId !== undefined) {
        if (byRequestId.size >= MAX_NOTED) {
          const oldest = byRequestId.keys().next();
          if (!oldest.done) byRequestId.delete(oldest.value);
        }
        byRequestId.set(context.requestId, signer);
        return;
      }
      const operation = context.operation ?? "";
      const list = byOperation.get(operation) ?? [];
      if (list.length >= MAX_NOTED) list.shift();
      list.push(signer);
      byOperation.set(operation, list);
    },
    observe(event) {
      if (event.type !== "signedRequest" || (event.stage !== "done" && event.stage !== "failed")) {
        return;
      }
      const signer = signerOf(event);
      if (!signer || event.stage !== "failed" || event.status !== 401) return;
      if (event.code !== undefined && REQUEST_FAULT.has(event.code)) return;
      void reject(signer.sessionId, signer.exact && KEY_REFUSED.has(event.code ?? ""));
    },
    async settled() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}
