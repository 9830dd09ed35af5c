// Re-sends an identical unsigned request with backoff while the service answers "not yet"
// (200 PROCESSING on passkey verify, a transaction still settling). Each wait is a `retry` event.
import type { SignetClient } from "../client.js";
import { SignetError } from "../errors/errors.js";
import { repeat } from "./repeat.js";
import { isProcessingBody } from "./responseShape.js";
import { backoffDelay, resolveRetryPolicy } from "./retry.js";

/** The default wait between two polls: a settlement is seen within about a second. */
export const DEFAULT_POLLING_INTERVAL_MS = 1_000;

/** What a call passes besides its own fields (the client's `CallOptions`). */
type Call = NonNullable<Parameters<SignetClient["request"]>[1]>;

/**
 * Calls `attempt` until it returns a value other than `undefined`, waiting `interval(n)` ms after
 * the n-th call, up to `timeoutMs` on the device's own timer. Each wait is announced as a
 * `retry` event (reason `processing`) to the client's and the call's sinks.
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
    attempt: () => Promise<T | undefined>;
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
      const result = await parameters.attempt();
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
 * call's `retry`); each
 * send is itself retried by `client.request` under the same policy. `onProcessing` is told of
 * each PROCESSING answer (1 on the first), before the wait.
 * @throws {SignetError} `PROCESSING_TIMEOUT` after `timeoutMs` (default 60 s), or what the request throws.
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
  timeoutMs = 60_000,
  onProcessing?: (attempt: number) => void,
): Promise<unknown> {
  const { backoff } = resolveRetryPolicy(client.retry, request.retry, call.retry);
  let processing = 0;
  return pollUntil(client, {
    what: operation,
    timeoutMs,
    signal: call.signal,
    onEvent: call.onEvent,
    request: { method: request.method, path: request.path, operation },
    interval: (attempt) => backoffDelay({ ...backoff, attempt, random: client.random }),
    attempt: async () => {
      const answer = await client.request<unknown>({ operation, ...request }, call);
      if (!isProcessingBody(answer)) return answer;
      processing += 1;
      onProcessing?.(processing);
      return undefined;
    },
  });
}
