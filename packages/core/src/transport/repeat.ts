// The one retry loop and its one wait (docs/architecture.md "Retries"). Plain requests
// (`withRetry`), polling (`pollUntil`, "retry while not done") and the signed-request engine's
// re-sends all wait here, on the same RetryPolicy: the delay (the caller's interval, an answer's
// `Retry-After` within the policy's `maxRetryAfterMs`, else the policy's backoff), the caller's
// budget (`fits`), the policy's `shouldRetry`, the `retry` event, then the sleep, cut short by the
// signal. What a try means (done, or why to go again) stays with the caller, who knows the request.
import type { SignetError } from "../errors/errors.js";
import { unlessAborted } from "./abort.js";
import type { Clock } from "./http.js";
import {
  type RetryEvent,
  type RetryPolicy,
  type RetryReason,
  retryDelay,
  retryEvent,
} from "./retry.js";

/** Why and how to go again after a try. */
export type Wait = {
  reason: RetryReason;
  /** 1 for the first wait (of this reason, where the caller counts them apart). */
  attempt: number;
  /** What ended the last try, for a failure; none for "not done yet". */
  cause?: SignetError | undefined;
  /** The answer's `Retry-After`, when it gave one. */
  retryAfterMs?: number | undefined;
  /** A wait the caller already knows (a polling interval, a checked `Retry-After`). */
  delayMs?: number | undefined;
};

/** What every wait of one loop shares. */
export type WaitSeat = {
  policy: RetryPolicy;
  /** What is repeated, for the `retry` events. */
  request: { method: string; path: string; operation?: string | undefined };
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal | undefined;
  /** The service's time, for `retryAt`. */
  clock: Clock;
  /** Throws when a wait of `delayMs` may not start: it would end past the caller's budget. */
  fits: (delayMs: number, wait: Wait) => void;
  /** Hears the wait first, before it is judged (the engine's `processing` stage). */
  noted?: ((wait: Wait, delayMs: number) => void) | undefined;
  onRetry?: ((event: RetryEvent) => void) | undefined;
};

/**
 * Decides one wait, announces it as a `retry` event and sleeps it.
 * @returns the wait in ms.
 * @throws {SignetError} the wait's cause when the policy refuses it (a `Retry-After` over
 * `maxRetryAfterMs`, `shouldRetry` saying no), what `fits` throws, or `ABORTED`.
 * @example
 * ```ts
 * await waitOnce({ reason: "transient", attempt: 1, cause: error }, seat);
 * ```
 */
export async function waitOnce(wait: Wait, seat: WaitSeat): Promise<number> {
  const { policy, request, signal } = seat;
  const delayMs =
    wait.delayMs ??
    retryDelay(policy, {
      attempt: wait.attempt,
      retryAfterMs: wait.retryAfterMs,
      random: seat.random,
    });
  if (delayMs === undefined) throw wait.cause;
  seat.noted?.(wait, delayMs);
  seat.fits(delayMs, wait);
  const { cause, reason, attempt } = wait;
  if (
    cause !== undefined &&
    policy.shouldRetry?.({
      error: cause,
      reason,
      attempt,
      method: request.method,
      path: request.path,
    }) === false
  )
    throw cause;
  seat.onRetry?.(retryEvent(request, reason, attempt, delayMs, seat.clock.now(), cause));
  await unlessAborted(() => seat.sleep(delayMs, signal), signal);
  return delayMs;
}

/** One try's outcome: its value, or the wait before the next try. */
export type Try<T> = { done: T } | { again: Wait };

/**
 * The loop: runs `attempt` (1, 2, …) until it is done, waiting as each `again` says.
 * @throws what `attempt` throws, or what {@link waitOnce} throws.
 * @example
 * ```ts
 * const value = await repeat(async (n) => (ready() ? { done: read() } : { again: { reason: "processing", attempt: n, delayMs: 1_000 } }), seat);
 * ```
 */
export async function repeat<T>(
  attempt: (tries: number) => Promise<Try<T>>,
  seat: WaitSeat,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    const outcome = await attempt(tries);
    if ("done" in outcome) return outcome.done;
    await waitOnce(outcome.again, seat);
  }
}
