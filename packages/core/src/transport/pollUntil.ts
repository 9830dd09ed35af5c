// Re-sends an identical unsigned request with backoff while the service answers "not yet"
// (200 PROCESSING on passkey verify, a transaction still settling).
import type { SignetClient } from "../client.js";
import { SignetError } from "../errors.js";
import type { CallOptions } from "../events.js";
import { backoffDelay } from "./backoff.js";
import { isProcessingBody } from "./nextStep.js";

/**
 * Calls `attempt` until it returns a value other than `undefined`, waiting with exponential
 * backoff and jitter between calls, up to `timeoutMs`.
 * @throws {SignetError} `PROCESSING_TIMEOUT`, `ABORTED`, or what `attempt` throws.
 */
export async function pollUntil<T>(
  client: SignetClient,
  parameters: {
    attempt: () => Promise<T | undefined>;
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    backoff?: { baseMs?: number; maxMs?: number } | undefined;
    operation: string;
  },
): Promise<T> {
  // Measured on the local timer: learning the service's clock mid-poll must not end the wait.
  const deadline = client.timer.now() + parameters.timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const result = await parameters.attempt();
    if (result !== undefined) return result;
    const delay = backoffDelay({ attempt, random: client.random, ...parameters.backoff });
    if (client.timer.now() + delay > deadline) {
      throw new SignetError(
        "PROCESSING_TIMEOUT",
        `${parameters.operation} did not finish in time`,
        {
          retryable: true,
          details: { attempts: attempt },
        },
      );
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
    operation,
    timeoutMs,
    signal: call.signal,
    attempt: async () => {
      const answer = await client.request<unknown>(request, call);
      return isProcessingBody(answer) ? undefined : answer;
    },
  });
}
