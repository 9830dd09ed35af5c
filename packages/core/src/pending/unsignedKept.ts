// A passkey sign-in's verify, kept while the service answers PROCESSING (docs/protocol.md §2.5):
// an unsigned POST that carries the WebAuthn assertion and the challenge's `Request-Id`, the
// assertion being its proof, re-sent identically until it ends or the challenge lapses. Each
// PROCESSING answer is told to the client's tracker as a kept leg (no stamp), so the request is
// kept for a reload exactly as a signed verify is, and a resume re-sends it the same way.
import type { SignetClient } from "../client.js";
import { defined } from "../errors/defined.js";
import { detailOf, isSignetError, SignetError } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { requestUntilSettled } from "../transport/pollUntil.js";
import { REQUEST_ID_HEADER } from "../transport/protocol.js";
import type { PendingOptions, UnsignedKeptRequest } from "./pendingCalls.js";

/**
 * The 401 reasons of a verify whose `Request-Id` a send of it already used, or that lapsed while
 * it was processing: after a PROCESSING answer they say the verify may have made its session.
 */
const TAKEN_REASONS = new Set([
  "REQUEST_ID_ALREADY_USED",
  "REQUEST_ID_UNKNOWN",
  "REQUEST_ID_EXPIRED",
]);

/**
 * Sends `request` (POST, 200 expected) until an answer other than PROCESSING, within its
 * challenge's life, telling each PROCESSING answer to the client's tracker under `pending` (kept
 * when `pending` says so) and the end after. A 401 that says the request id was spent or lapsed
 * after a send that may have been taken (a PROCESSING answer before it, or a resumed call) is
 * `OUTCOME_UNKNOWN`: the session may exist, and only a sign-out settles its noted key.
 * @returns the answer's JSON.
 * @throws {SignetError} what the request throws, `PROCESSING_TIMEOUT` once the challenge lapses,
 *   `OUTCOME_UNKNOWN` (above).
 * @example
 * ```ts
 * const body = await sendUnsignedKept(client, request, call, "signInWithPasskey", pending);
 * ```
 */
export async function sendUnsignedKept(
  client: SignetClient,
  request: UnsignedKeptRequest,
  call: CallOptions,
  operation: string,
  pending: PendingOptions,
): Promise<unknown> {
  const { path, body, requestId, expiresAtMs } = request;
  const tracked = await client.pending.track(operation, pending, call.onEvent);
  let answeredProcessing = pending.resumed !== undefined;
  const leg = (attempt: number) => ({
    method: "POST",
    path,
    body,
    expectedStatus: 200,
    requestId,
    expiresAtMs,
    attempt: (pending.resumed?.attempt ?? 0) + attempt,
  });
  const end = { mode: "challenge" as const, operation, requestId };
  try {
    const answer = await requestUntilSettled(
      client,
      { method: "POST", path, body, headers: { [REQUEST_ID_HEADER]: requestId } },
      call,
      operation,
      Math.max(0, expiresAtMs - client.clock.now()),
      (attempt) => {
        answeredProcessing = true;
        tracked.onStillProcessing(leg(attempt));
      },
    );
    tracked.onEnd({ ...end, stage: "done", status: 200 });
    return answer;
  } catch (thrown) {
    const error = answeredProcessing ? spentAfterProcessing(thrown, operation, requestId) : thrown;
    const code = isSignetError(error) ? String(error.code) : undefined;
    const status = isSignetError(error) ? error.status : undefined;
    tracked.onEnd({ ...end, stage: "failed", ...defined({ status, code }) });
    throw error;
  }
}

/** A spent or lapsed request id's 401 after PROCESSING, as `OUTCOME_UNKNOWN`; anything else as is. */
function spentAfterProcessing(thrown: unknown, operation: string, requestId: string): unknown {
  if (!isSignetError(thrown, "UNAUTHORIZED") || thrown.status !== 401) return thrown;
  if (!TAKEN_REASONS.has(String(detailOf(thrown, "reason")))) return thrown;
  return new SignetError(
    "OUTCOME_UNKNOWN",
    "The passkey sign-in's request id was spent after the service said it was processing: sign out to end the session it may have made",
    {
      details: { operation, step: "leg 1", requestId, code: "UNAUTHORIZED", status: 401 },
      cause: thrown,
    },
  );
}
