// One call, repeated under the retry policy (docs/architecture.md "Retries"): every plain request
// and the signed-request engine's look-up that settles a lost answer, in the one loop
// (`repeat.ts`). "Safe to repeat" is decided by the caller, who knows the request.
import { detailOf, isSignetError } from "../errors/errors.js";
import type { Clock } from "./http.js";
import { repeat } from "./repeat.js";
import { type RetryEvent, type RetryPolicy, retryReasonOf } from "./retry.js";

export type WithRetryParameters = {
  policy: RetryPolicy;
  /**
   * Whether a failure after the request may have reached the service can be repeated: reads,
   * and calls whose repeat changes nothing more (a new challenge). Otherwise nothing is
   * repeated but a request that provably never left (a refused connection), not even after a
   * 429: the caller decides what comes next (`retryReasonOf`).
   */
  safe: boolean;
  method: string;
  path: string;
  operation?: string | undefined;
  signal?: AbortSignal | undefined;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  /** Local elapsed time, for the policy's `timeoutMs`. */
  timer: Clock;
  /** An earlier end on `timer` (a signed run's budget), when the call has one. */
  deadline?: number | undefined;
  /** The service's time, for `retryAt`. */
  clock: Clock;
  onRetry?: ((event: RetryEvent) => void) | undefined;
};

/**
 * Runs `task`; when it fails with an error the policy may repeat, waits (`Retry-After` or the
 * backoff), announces the wait as a `retry` event, and runs it again, up to `retryCount` times
 * and never past the policy's `timeoutMs` or the signal.
 *
 * @throws {SignetError} the last failure of `task`, or `ABORTED`.
 * @example
 * ```ts
 * const body = await withRetry(() => requestJson({ transport, method: "GET", path }), {
 *   policy, safe: true, method: "GET", path, sleep, random: Math.random, timer: clock, clock,
 * });
 * ```
 */
export function withRetry<T>(task: () => Promise<T>, parameters: WithRetryParameters): Promise<T> {
  const { policy, timer } = parameters;
  const deadline = Math.min(timer.now() + policy.timeoutMs, parameters.deadline ?? Infinity);
  return repeat<T>(
    async (attempt) => {
      try {
        return { done: await task() };
      } catch (error) {
        if (!isSignetError(error) || attempt > policy.retryCount) throw error;
        const reason = retryReasonOf(error, { safe: parameters.safe });
        if (reason === undefined) throw error;
        const retryAfterMs = detailOf(error, "retryAfterMs");
        return {
          again: {
            reason,
            attempt,
            cause: error,
            retryAfterMs: typeof retryAfterMs === "number" ? retryAfterMs : undefined,
          },
        };
      }
    },
    {
      policy,
      request: parameters,
      random: parameters.random,
      sleep: parameters.sleep,
      signal: parameters.signal,
      clock: parameters.clock,
      fits: (delayMs, wait) => {
        if (timer.now() + delayMs >= deadline) throw wait.cause;
      },
      onRetry: parameters.onRetry,
    },
  );
}
