// What a signed request does with each answer (docs/architecture.md "The signed-request engine"):
// `readAnswer` reads one HTTP answer into an `Answer`, and `nextStep`, a pure function of that
// answer and the run's state, picks the step, so that every rule is a row in a table test
// (nextStep.test.ts). Each protocol rule is written once: what a 200 means here (`readAnswer`), a
// rate limit in `retry.ts`'s `isRateLimited`, a request id's lapse in `isRequestIdExpiry`.
// `runSignedRequest` performs the step: signing, waiting, re-sending, returning, throwing.
import { defined } from "../errors/defined.js";
import { type AnswerErrorDetails, detailOf, SignetError } from "../errors/errors.js";
import { parseJsonBody, type TransportResponse } from "./http.js";
import { RETRY_AFTER_HEADER } from "./protocol.js";
import { errorFromResponse, parseRetryAfter } from "./responseError.js";
import { isRateLimited } from "./retry.js";

/** Whether `status` is one of the expected success statuses. */
export function isExpectedStatus(expected: number | readonly number[], status: number): boolean {
  return typeof expected === "number" ? status === expected : expected.includes(status);
}

/**
 * A 401 on a signed leg means the request id lapsed when the service says so in words, or when
 * the local clock is past `expiresAt`; the wallet-signature codes always keep their own meaning.
 */
export function isRequestIdExpiry(error: SignetError, expiresAtMs: number, now: number): boolean {
  if (error.status !== 401) return false;
  const code = String(error.code);
  if (code.startsWith("WALLET_SIGNATURE_") || code === "REQUEST_ID_MISSING") return false;
  if (code === "CHALLENGE_EXPIRED" || code === "REQUEST_EXPIRED" || code === "REQUEST_ID_EXPIRED") {
    return true;
  }
  if (now >= expiresAtMs) return true;
  const reason = detailOf(error, "reason");
  const text = `${typeof reason === "string" ? reason : ""} ${error.message}`;
  return /expired/i.test(text) && /request/i.test(text);
}

/**
 * The emulator's reasons for a 401 that an earlier send of the same request can cause: its
 * request id spent, the session it acts on ended by it (a refresh ends the refreshed session),
 * or the OTP challenge consumed by it (a verify that took effect leaves none live).
 */
const SPENT_REASONS = new Set([
  "REQUEST_ID_ALREADY_USED",
  "REQUEST_ID_UNKNOWN",
  "SESSION_NOT_ACTIVE",
  "OTP_NOT_ISSUED",
]);

/**
 * Whether the error that ended a signed request leaves open that an earlier send of it took
 * effect: no answer (retries spent, `PROCESSING_TIMEOUT`, a lapse after a send), a 5xx, the
 * service's refusal of a spent request id, a 401 `UNAUTHORIZED` whose `details.reason` is
 * `REQUEST_ID_ALREADY_USED` or `REQUEST_ID_UNKNOWN`, or gives no reason at all (the service has
 * no dedicated code for it, docs/protocol.md §2), or names what an earlier send used up (the
 * session a refresh ended, the OTP challenge a verify consumed), and the relay's 403
 * `RELAY_FORBIDDEN`: its ownership lookup lists active resources only, so a session or credential
 * that the earlier send ended is no longer found. Any other answer is a definite refusal of this
 * very request (a wrong OTP code, a bad signature, a 400), and nothing needs resolving.
 *
 * @example
 * ```ts
 * mayHaveTakenEffect(new SignetError("INVALID_INPUT", "x", { status: 400 })); // false
 * ```
 */
export function mayHaveTakenEffect(error: SignetError): boolean {
  const { status } = error;
  if (status === undefined || status >= 500) return true;
  if (status === 403) return String(error.code) === "RELAY_FORBIDDEN";
  if (status !== 401 || String(error.code) !== "UNAUTHORIZED") return false;
  const reason = detailOf(error, "reason");
  return reason === undefined || SPENT_REASONS.has(String(reason));
}

/** What came back from one send: an HTTP answer, or none (`failure`). */
export type Answer =
  | {
      /** No answer arrived: the transport's `NETWORK`, `TIMEOUT` or `ABORTED`. */
      failure: SignetError;
    }
  | {
      status: number;
      /**
       * On a 200: whether it means "still processing" (docs/protocol.md §2; `readAnswer` says,
       * the one place that rule is written).
       */
      processing?: boolean | undefined;
      /** On an error answer: the error it maps to. */
      error?: SignetError | undefined;
      /**
       * Only on a rate limit (`isRateLimited`) while rate-limit retries are left: the wait it asks
       * for (`Retry-After`, else the backoff).
       */
      delayMs?: number | undefined;
    };

/** Where the run stands when the answer arrives. */
export type StepState = {
  /** Quote execute's one signed request (no 202, no `Request-Id`). */
  direct: boolean;
  expectedStatus: number | readonly number[];
  /** The held challenge's `expiresAt` in ms, on signed legs of challenge mode. */
  challengeExpiresAtMs?: number | undefined;
  /** The service's time (`clock`), for the challenge's expiry. */
  now: number;
  /** Whether the run's time budget (on the local timer) is spent. */
  pastDeadline: boolean;
  transientRetries: number;
  maxTransientRetries: number;
  rateLimitRetries: number;
  maxRateLimitRetries: number;
  maxRetryAfterMs: number;
};

/** The step to take. */
export type Step =
  /** A 202 in challenge mode: validate the challenge, stamp it, send the next leg. */
  | { type: "sign" }
  /** Send the identical request again after a wait; `cause` is thrown if waiting is pointless. */
  | { type: "resend"; reason: "processing" }
  | { type: "resend"; reason: "rate-limited"; delayMs: number; cause: SignetError }
  | { type: "resend"; reason: "transient"; cause: SignetError }
  /** A terminal success. */
  | { type: "succeed" }
  /** The challenge lapsed: `CHALLENGE_EXPIRED` (or start over, where the flow allows it). */
  | { type: "lapse"; cause: SignetError }
  /** The run's deadline passed while waiting for an answer: `PROCESSING_TIMEOUT`. */
  | { type: "timeout"; cause: SignetError }
  /** A terminal failure with this error. */
  | { type: "fail"; error: SignetError };

/**
 * Decides what a signed request does with an answer. Pure: same answer and state, same step.
 *
 * @example
 * ```ts
 * nextStep({ status: 200, processing: true }, state); // { type: "resend", reason: "processing" }
 * ```
 */
export function nextStep(answer: Answer, state: StepState): Step {
  if ("failure" in answer) {
    const error = answer.failure;
    if (error.code === "ABORTED") return { type: "fail", error };
    if (error.code === "TIMEOUT" && state.pastDeadline) {
      return { type: "timeout", cause: error };
    }
    if (!error.retryable || state.transientRetries >= state.maxTransientRetries) {
      return { type: "fail", error };
    }
    return { type: "resend", reason: "transient", cause: error };
  }
  const { status, error } = answer;
  if (status === 202 && !state.direct) return { type: "sign" };
  if (status === 200 || isExpectedStatus(state.expectedStatus, status)) {
    return answer.processing === true
      ? { type: "resend", reason: "processing" }
      : { type: "succeed" };
  }
  if (error === undefined) throw new TypeError("nextStep: no error");
  // A rate limit (the request was not taken) that asked for a wait the policy honours.
  if (
    answer.delayMs !== undefined &&
    state.rateLimitRetries < state.maxRateLimitRetries &&
    answer.delayMs <= state.maxRetryAfterMs
  ) {
    return { type: "resend", reason: "rate-limited", delayMs: answer.delayMs, cause: error };
  }
  if (status >= 500 && state.transientRetries < state.maxTransientRetries) {
    return { type: "resend", reason: "transient", cause: error };
  }
  if (
    state.challengeExpiresAtMs !== undefined &&
    isRequestIdExpiry(error, state.challengeExpiresAtMs, state.now)
  ) {
    return { type: "lapse", cause: error };
  }
  return { type: "fail", error };
}

export type ReadAnswerParameters = {
  response: TransportResponse;
  direct: boolean;
  expectedStatus: number | readonly number[];
  isProcessing: (body: unknown) => boolean;
  /**
   * On a 201/204 endpoint, whether a 200's body is the resource (the caller's `parseBody`
   * accepts it). Absent: no 200 body there is (a 204 endpoint has no resource).
   */
  isResource?: ((body: unknown) => boolean) | undefined;
  /** The service's time, for `Retry-After` given as a date. */
  now: number;
  /** Secret-free context for an error answer's `details`. */
  details: AnswerErrorDetails;
  /** The backoff for a 429 without `Retry-After`; absent when no rate-limit retry is left. */
  rateLimitDelay: (() => number) | undefined;
};

/** The JSON of a body, or `undefined` when it is empty or not JSON. */
function parseQuietly(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Reads an HTTP answer of a signed request into the `Answer` that `nextStep` decides on: a
 * success body parsed where it is needed, an error answer mapped once, a rate limit's wait read.
 * What a 200 means is said here, once: on a 200 endpoint it is the result unless its body is
 * `{ status: "PROCESSING" }`; on a 201/204 endpoint it means still processing unless its body is
 * the resource itself, which settles the call (a re-send would meet a spent request id).
 * @throws {SignetError} `MALFORMED_RESPONSE` when a success body is not JSON.
 * @example
 * ```ts
 * const { answer, parsed } = readAnswer({ response, direct: false, expectedStatus: 204, ...rest });
 * ```
 */
export function readAnswer(parameters: ReadAnswerParameters): { answer: Answer; parsed: unknown } {
  const { response, expectedStatus, details } = parameters;
  const { status } = response;
  if (status === 202 && !parameters.direct) return { answer: { status }, parsed: undefined };
  if (status === 200 && !isExpectedStatus(expectedStatus, 200)) {
    // A body that is not JSON, or not the resource, is read as still processing, as the service
    // documents.
    const parsed = parseQuietly(response.text);
    const resource =
      parsed !== undefined &&
      !parameters.isProcessing(parsed) &&
      parameters.isResource?.(parsed) === true;
    return { answer: { status, processing: !resource }, parsed: resource ? parsed : undefined };
  }
  if (isExpectedStatus(expectedStatus, status)) {
    const parsed = parseJsonBody<unknown>(response);
    return {
      answer: { status, processing: status === 200 && parameters.isProcessing(parsed) },
      parsed,
    };
  }
  const error =
    status >= 400
      ? errorFromResponse({ response, now: parameters.now, details })
      : new SignetError("UNEXPECTED_STATUS", `Unexpected HTTP ${status}`, {
          status,
          details: defined({ operation: details.operation }),
        });
  const retryAfterMs = parseRetryAfter(response.headers.get(RETRY_AFTER_HEADER), parameters.now);
  const delayMs =
    parameters.rateLimitDelay !== undefined && isRateLimited(status, retryAfterMs !== undefined)
      ? (retryAfterMs ?? parameters.rateLimitDelay())
      : undefined;
  return { answer: { status, error, ...defined({ delayMs }) }, parsed: undefined };
}
