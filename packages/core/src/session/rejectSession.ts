// What a 401 on a signed call that a held session stamped does to that session (docs/architecture.md
// "Sessions"): decided and carried out here, a chunk loaded at the first such 401; the bookkeeping
// of which session stamped which request stays in `sessionRejection.ts`.
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

/**
 * What the session store lends the rejecter, over its own session type `S`: the rejecter needs a
 * session's id only, so it imports nothing of the store (which loads it).
 */
export type RejecterParameters<S extends { readonly id: string }> = {
  /** The held session of that id, if any. */
  held(sessionId: string): S | undefined;
  /** Whether the service no longer lists the session as active; an error keeps it. */
  confirmGone(session: S): Promise<boolean>;
  /** An origin-wide lock (Web Locks where they exist); `waited`: another tab may have acted. */
  lock<T>(key: string, task: (waited: boolean) => Promise<T>): Promise<T>;
  /** Re-reads the shared key store. */
  sync(): Promise<void>;
  /** Removes the session, deletes its key, tells the other tabs and emits `rejected`. */
  clear(session: S): Promise<void>;
};

export type Rejecter = {
  /**
   * Handles a 401 (`code`) on a request that `sessionId` stamped; `exact` when the request is
   * known by its request id (quote execute's is known by its operation only).
   */
  reject(sessionId: string, code: string | undefined, exact: boolean): Promise<void>;
  /** The clearings still running. */
  settled(): Promise<void>;
};

/**
 * The rejecter of one session store: one clearing per session at a time in this tab, one across
 * the tabs of the origin (the lock, then a re-read of the store).
 *
 * @example
 * ```ts
 * await createRejecter(parameters).reject(session.id, "WALLET_SIGNATURE_INVALID", true);
 * ```
 */
export function createRejecter<S extends { readonly id: string }>(
  parameters: RejecterParameters<S>,
): Rejecter {
  const running = new Map<string, Promise<void>>();
  return {
    reject(sessionId, code, exact) {
      if (code !== undefined && REQUEST_FAULT.has(code)) return Promise.resolve();
      const inFlight = running.get(sessionId);
      if (inFlight) return inFlight;
      const task = parameters
        .lock(`rejected|${sessionId}`, async (waited) => {
          // Another tab may have cleared it (or refreshed it away) while this one waited.
          if (waited) await parameters.sync();
          const session = parameters.held(sessionId);
          if (!session) return;
          // A refusal of this very key is the service's word; any other 401 is checked first, so
          // a 401 for a spent request id, or a relay that signed its user out, clears nothing.
          const trusted = exact && KEY_REFUSED.has(code ?? "");
          if (!trusted && !(await parameters.confirmGone(session))) return;
          await parameters.clear(session);
        })
        .catch(() => {
          // The store could not be read or written: the next signed call reports it.
        })
        .finally(() => running.delete(sessionId));
      running.set(sessionId, task);
      return task;
    },
    async settled() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}
