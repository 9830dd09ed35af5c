// The errors a signed request makes itself, and the signer's answer checked (docs/architecture.md
// "The signed-request engine").
import { SignetError, type SignetErrorDetails } from "../errors.js";
import { unlessAborted } from "./abort.js";
import type { SignedRequestChallenge } from "./challenge.js";
import type { SignContext, SignPayload } from "./signedRequestParameters.js";

/** Thrown inside a run to start over from leg 1 (flows that allow it, such as export). */
export class ChallengeLapse {
  constructor(readonly error: SignetError) {}
}

/** `CHALLENGE_EXPIRED`: the challenge lapsed before a terminal answer. */
export const challengeExpiredError = (
  challenge: SignedRequestChallenge,
  details: Record<string, unknown>,
  cause?: unknown,
): SignetError<"CHALLENGE_EXPIRED"> =>
  new SignetError("CHALLENGE_EXPIRED", "The signed-request challenge expired before completion", {
    details: { ...details, requestId: challenge.requestId, expiresAt: challenge.expiresAt },
    cause,
  });

/**
 * `OUTCOME_UNKNOWN`: a signed send may have taken effect, its answer was lost, and asking the
 * service did not settle what happened (details: `operation`, `step`, `requestId`, `code`).
 */
export const outcomeUnknownError = (
  details: SignetErrorDetails<"OUTCOME_UNKNOWN">,
  cause: SignetError,
): SignetError<"OUTCOME_UNKNOWN"> =>
  new SignetError(
    "OUTCOME_UNKNOWN",
    "The answer was lost and the outcome could not be read back: check the state before trying again",
    { details, cause },
  );

/** `PROCESSING_TIMEOUT` (retryable): the run's time budget is spent. */
export const processingTimeoutError = (
  details: Record<string, unknown>,
  cause?: unknown,
): SignetError<"PROCESSING_TIMEOUT"> =>
  new SignetError("PROCESSING_TIMEOUT", "The signed request did not finish before its deadline", {
    retryable: true,
    details,
    cause,
  });

// Header values cannot hold control characters; a stamp with one would be a signer bug.
const HEADER_VALUE_PATTERN = /^[\x21-\x7e]+$/;

/**
 * Calls the signer, rejecting with `ABORTED` as soon as `signal` fires.
 * @throws {SignetError} `INVALID_ARGUMENT` when it returns anything but a header-safe string.
 */
export async function callSigner(
  sign: SignPayload,
  payloadToSign: string,
  context: SignContext,
  signal: AbortSignal | undefined,
): Promise<string> {
  const value = await unlessAborted(() => sign(payloadToSign, context), signal);
  if (typeof value !== "string" || !HEADER_VALUE_PATTERN.test(value)) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"sign" expected to return a non-empty header-safe string, got ${typeof value}`,
    );
  }
  return value;
}
