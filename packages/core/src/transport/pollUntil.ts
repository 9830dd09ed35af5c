// Re-sends an identical unsigned request with backoff while the service answers "not yet"
// (200 PROCESSING on passkey verify, a transaction still settling).
import type { SignetClient } from "../client.js";
import { SignetError } from "../errors.js";
import type { CallOptions } from "../events.js";
import { backoffDelay } from "./backoff.js";
import { isProcessingBody } from "./nextStep.js";

/**
 * Calls `attempt` until it returns a value other than `undefined`, waiting `interval(n)` ms after
 * the n-th call, up to `timeoutMs` on the device's own timer.
 * @throws {SignetError} `PROCESSING_TIMEOUT` (retryable, with `details.polls` and what `details()`
 * adds), `ABORTED`, or what `attempt` and `interval` throw.
 */
export async function pollUntil<T>(
  client: SignetClient,
  parameters: {
    attempt: () => Promise<T | undefined>;
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    interval: (polls: number) => number;
    /** Says what did not finish, in the timeout's message. */
    what: string;
    details?: () => Record<string, unknown>;
  },
): Promise<T> {
  // Measured on the local timer: learning the service's clock mid-poll must not end the wait.
  const deadline = client.timer.now() + parameters.timeoutMs;
  for (let polls = 1; ; polls++) {
    const result = await parameters.attempt();
    if (result !== undefined) return result;
    const delay = parameters.interval(polls);
    if (client.timer.now() + delay > deadline) {
      throw new SignetError("PROCESSING_TIMEOUT", `${parameters.what} did not finish in time`, {
        retryable: true,
        details: { polls, ...parameters.details?.() },
      });
    }
    await client.sleep(delay, parameters.signal);
  }
}

/**
 * Sends one unsigned request to a 200 endpoint again, identically, while it answers
 * `{ status: "PROCESSING" }` (docs/protocol.md §2.5), and returns the first other answer.
 * @throws {SignetError} `PROCESSING_TIMEOUT` after `timeoutMs` (default 60 s), or what the request throws.
 */
export function requestUntilSettled(
  client: SignetClient,
  request: Parameters<SignetClient["request"]>[0],
  call: CallOptions,
  operation: string,
  timeoutMs = 60_000,
): Promise<unknown> {
  return pollUntil(client, {
    what: operation,
    timeoutMs,
    signal: call.signal,
    interval: (attempt) => backoffDelay({ attempt, random: client.random }),
    attempt: async () => {
      const answer = await client.request<unknown>(request, call);
      return isProcessingBody(answer) ? undefined : answer;
    },
  });
}
