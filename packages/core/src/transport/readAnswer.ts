// What one send of a signed request brought back, as the `Answer` that `nextStep` decides on:
// a success body parsed where it is needed, an error answer mapped once, a 429's wait read.
import { defined } from "../defined.js";
import { type AnswerErrorDetails, SignetError } from "../errors.js";
import { RETRY_AFTER_HEADER } from "./headers.js";
import { parseJsonBody, type TransportResponse } from "./http.js";
import { type Answer, isExpectedStatus } from "./nextStep.js";
import { errorFromResponse, parseRetryAfter } from "./responseError.js";

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
 * Reads an HTTP answer of a signed request.
 * @throws {SignetError} `MALFORMED_RESPONSE` when a success body is not JSON.
 */
export function readAnswer(parameters: ReadAnswerParameters): { answer: Answer; parsed: unknown } {
  const { response, expectedStatus, details } = parameters;
  const { status } = response;
  if (status === 202 && !parameters.direct) return { answer: { status }, parsed: undefined };
  if (status === 200 || isExpectedStatus(expectedStatus, status)) {
    const expects200 = isExpectedStatus(expectedStatus, 200);
    if (status === 200 && !expects200) {
      // On a 201/204 endpoint a 200 is PROCESSING unless its body is the resource: a body that is
      // not JSON, or not the resource, is read as still processing, as the service documents.
      const parsed = parseQuietly(response.text);
      const resource =
        parsed !== undefined &&
        !parameters.isProcessing(parsed) &&
        parameters.isResource?.(parsed) === true;
      return { answer: { status, resource }, parsed: resource ? parsed : undefined };
    }
    const parsed = parseJsonBody<unknown>(response);
    const processing = status === 200 && expects200 && parameters.isProcessing(parsed);
    return { answer: { status, processing }, parsed };
  }
  const error =
    status >= 400
      ? errorFromResponse({ response, now: parameters.now, details })
      : new SignetError("UNEXPECTED_STATUS", `Unexpected HTTP ${status}`, {
          status,
          details: defined({ operation: details.operation }),
        });
  // A 429 always asks to come back later; a 503 does when it says when (`Retry-After`).
  const retryAfterMs = parseRetryAfter(response.headers.get(RETRY_AFTER_HEADER), parameters.now);
  const delayMs =
    parameters.rateLimitDelay === undefined
      ? undefined
      : status === 429
        ? (retryAfterMs ?? parameters.rateLimitDelay())
        : status === 503
          ? retryAfterMs
          : undefined;
  return {
    answer: { status, error, ...defined({ delayMs }) },
    parsed: undefined,
  };
}
