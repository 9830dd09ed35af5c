// Whether a failed call is proven to have done nothing at the service (docs/protocol.md §2.5,
// "A kept sign-in that fails"). A sign-in whose one-time key was noted as a key whose session
// this device may have made (session/possibleSessions.ts) forgets that note only on such proof:
// anything else (no answer, a timeout, a 5xx, a 408 or 429, a lapse, an outcome left unknown)
// leaves the note for the kept call's next resume or the next sign-out to settle.
import { isSignetError } from "./errors.js";

/** What an end says: the answer's status, if one came, and the error's code. */
export type FailureEnd = { status?: number | undefined; code?: string | undefined };

/**
 * Whether `end` is a refusal of the service: a 4xx answer other than a 408 (the request timed
 * out), a 429 (not taken) or a lapsed challenge (`CHALLENGE_EXPIRED`: a send before it may have
 * landed). Such an answer judged the request and made nothing, so a key sent for a session by it
 * has no session. `OUTCOME_UNKNOWN` (a spent request id after a re-send that may have landed)
 * carries no status and is never a refusal.
 */
export function isRefusal({ status, code }: FailureEnd): boolean {
  return (
    status !== undefined &&
    status >= 400 &&
    status < 500 &&
    status !== 408 &&
    status !== 429 &&
    code !== "CHALLENGE_EXPIRED"
  );
}

/**
 * Whether `error` is a {@link SignetError} that says the service refused the call and made
 * nothing ({@link isRefusal}). Any other value (a network failure, a 5xx, a lapse, a non-Signet
 * error) is not: the call may have taken effect.
 * @example
 * ```ts
 * if (refusedByService(error)) await forgetPossibleSession(client, accountId, key.publicKey);
 * ```
 */
export function refusedByService(error: unknown): boolean {
  return isSignetError(error) && isRefusal({ status: error.status, code: String(error.code) });
}
