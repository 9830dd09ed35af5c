// A wait made of reads (a transaction, a contact change, followed until it settles): `pollUntil`,
// with every read after the first cut at the wait's end. Kept apart from `pollUntil.ts` so that
// only the lazy actions that wait carry it.
import type { SignetClient } from "../client.js";
import { SignetError } from "../errors/errors.js";
import { pollUntil } from "./pollUntil.js";

type PollParameters<T> = Omit<Parameters<typeof pollUntil<T>>[1], "attempt">;

/**
 * Polls as `pollUntil` does, `read(signal)` being each poll: it sends its request with `signal`
 * in place of the caller's. The first read runs whole, under its request's own limits (its time
 * limit per attempt, the retry policy), so that a wait of `timeoutMs: 0` is one read whose answer
 * is seen. Every later read, with its retries and their waits, is cut at the wait's end; a read
 * so cut ends the wait as the schedule's own end does: `PROCESSING_TIMEOUT` (retryable), its
 * `details.polls` counting the cut read and the rest being `details()`, which tells only answers
 * that were read. The caller's `signal` still ends any read with `ABORTED`.
 * @throws {SignetError} `PROCESSING_TIMEOUT`, `ABORTED`, or what `read` and `interval` throw.
 * @example
 * ```ts
 * const tx = await pollReads(client, { what: "The transaction", timeoutMs: 60_000, interval: () => 1_000,
 *   request: { method: "GET", path }, read: async (signal) => settledOrUndefined(await get(signal)) });
 * ```
 */
export function pollReads<T>(
  client: SignetClient,
  parameters: PollParameters<T> & {
    read: (signal: AbortSignal | undefined) => Promise<T | undefined>;
  },
): Promise<T> {
  const { read, signal } = parameters;
  let polls = 0;
  return pollUntil(client, {
    ...parameters,
    attempt: async (deadline) => {
      polls += 1;
      if (polls === 1) return read(signal);
      const cut = new AbortController();
      let late = false;
      const follow = () => cut.abort(signal?.reason);
      if (signal?.aborted) follow();
      else signal?.addEventListener("abort", follow, { once: true });
      // On the same timer as the deadline: a read that starts at or past it is cut at once.
      const timer = setTimeout(
        () => {
          late = true;
          cut.abort();
        },
        Math.max(0, deadline - client.timer.now()),
      );
      try {
        return await read(cut.signal);
      } catch (error) {
        // Whatever the cut read ended in (ABORTED from the transport or from a retry's wait), the
        // wait's end ended it; the caller's own abort stays ABORTED.
        if (!late || signal?.aborted) throw error;
        throw new SignetError("PROCESSING_TIMEOUT", `${parameters.what} did not finish in time`, {
          retryable: true,
          details: { polls, ...parameters.details?.() },
        });
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", follow);
      }
    },
  });
}
