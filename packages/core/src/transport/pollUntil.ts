// Re-sends an identical unsigned request with backoff while the service answers "not yet"
// (200 PROCESSING on passkey verify, a transaction still settling). Each wait is a `retry` event.
import type { SignetClient } from "../client.js";
import { SignetError } from "../errors/errors.js";
import { repeat } from "./repeat.js";
import { isProcessingBody } from "./responseShape.js";
import { backoffDelay, resolveRetryPolicy } from "./retry.js";

/** What a call passes besides its own fields (the client's `CallOptions`). */
type Call = NonNullable<Parameters<SignetClient["request"]>[1]>;

/**
 * Calls `attempt` until it returns a value other than `undefined`, waiting `interval(n)` ms after
 * the n-th call, up to `timeoutMs` on the device's own timer. Each wait is announced as a
 * `retry` event (reason `processing`) to the client's and the call's sinks. `attempt` is given
 * the poll's deadline on `client.timer`, so a read it makes (and that read's own retries) can
 * keep within the same budget.
 * @throws {SignetError} `PROCESSING_TIMEOUT` (retryable, with `details.polls` and what `details()`
 * adds), `ABORTED`, or what `attempt` and `interval` throw.
 * @example
 * ```ts
 * const tx = await pollUntil(client, { what: "The transaction", timeoutMs: 60_000, interval: () => 1_000,
 *   request: { method: "GET", path }, attempt: async () => settledOrUndefined(await read()) });
 * ```
 */
export function pollUntil<T>(
  client: SignetClient,
  parameters: {
    attempt: (deadline: number) => Promise<T | undefined>;
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    interval: (polls: number) => number;
    /** Says what did not finish, in the timeout's message. */
    what: string;
    details?: () => Record<string, unknown>;
    /** What is polled, for the `retry` events. */
    request: { method: string; path: string; operation?: string | undefined };
    onEvent?: Call["onEvent"];
  },
): Promise<T> {
  // Measured on the local timer: learning the service's clock mid-poll must not end the wait.
  const deadline = client.timer.now() + parameters.timeoutMs;
  // "Not done yet" is a retry like any other, in the one loop: the caller's interval is the wait.
  return repeat<T>(
    async (polls) => {
      const result = await parameters.attempt(deadline);
      if (result !== undefined) return { done: result };
      return {
        again: { reason: "processing", attempt: polls, delayMs: parameters.interval(polls) },
      };
    },
    {
      policy: client.retry,
      request: parameters.request,
      random: client.random,
      sleep: client.sleep,
      signal: parameters.signal,
      clock: client.clock,
      fits: (delayMs, { attempt: polls }) => {
        if (client.timer.now() + delayMs > deadline) {
          throw new SignetError("PROCESSING_TIMEOUT", `${parameters.what} did not finish in time`, {
            retryable: true,
            details: { polls, ...parameters.details?.() },
          });
        }
      },
      onRetry: (event) => client.emit(event, parameters.onEvent),
    },
  );
}

/**
 * Sends one unsigned request to a 200 endpoint again, identically, while it answers
 * `{ status: "PROCESSING" }` (docs/protocol.md §2.5), and returns the first other answer. The
 * waits follow the retry policy's backoff (defaults, client, the action's `request.retry`, the
 * call's `retry`); each send is itself retried by `client.request` under the same policy.
 * `onProcessing` is told of each PROCESSING answer (1 on the first), before the wait.
 *
 * One budget bounds the whole call, its PROCESSING re-sends and every send's own retries alike:
 * `timeoutMs` when the caller gives one (a passkey verify: its challenge's lifetime), else the
 * policy's `timeoutMs` (default 120 s, the budget of one unsigned call). A send's retries never
 * wait past it and its last attempt is cut at it, so a call whose sends met transient failures
 * still has the rest of the same budget for the PROCESSING that follows, and no call outlives it.
 * @throws {SignetError} `PROCESSING_TIMEOUT` (with `details.operation` and `details.polls`) when
 * the service still answers PROCESSING at the end of the budget; a send's own failure (`TIMEOUT`,
 * `NETWORK`, a 5xx's code, …) when its retries cannot go on within it; what the request throws.
 * @example
 * ```ts
 * const body = await requestUntilSettled(client, { method: "POST", path, body: "{}", idempotent: true }, call, "requestOtp");
 * ```
 */
export function requestUntilSettled(
  client: SignetClient,
  request: Parameters<SignetClient["request"]>[0],
  call: Call,
  operation: string,
  timeoutMs?: number,
  onProcessing?: (attempt: number) => void,
): Promise<unknown> {
  const policy = resolveRetryPolicy(client.retry, request.retry, call.retry);
  let processing = 0;
  return pollUntil(client, {
    what: operation,
    timeoutMs: timeoutMs ?? policy.timeoutMs,
    signal: call.signal,
    onEvent: call.onEvent,
    details: () => ({ operation }),
    request: { method: request.method, path: request.path, operation },
    interval: (attempt) => backoffDelay({ ...policy.backoff, attempt, random: client.random }),
    attempt: async (deadline) => {
      const answer = await client.request<unknown>({ operation, ...request, deadline }, call);
      if (!isProcessingBody(answer)) return answer;
      processing += 1;
      onProcessing?.(processing);
      return undefined;
    },
  });
}
