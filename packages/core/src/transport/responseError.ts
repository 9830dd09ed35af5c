/**
 * The one place that turns an HTTP error answer of the relay or the service into a
 * `SignetError` (docs/protocol.md §1 "Error body"; spec "Errors"). Messages carry only the
 * service's own message (secret-free by contract) and never a request body, stamp, OTP or key.
 */

import { defined } from "../errors/defined.js";
import { SignetError, type SignetErrorCode } from "../errors/errors.js";
import { RETRY_AFTER_HEADER } from "./protocol.js";

/** The flat error body of every 4xx/5xx: `{ status, code, message, details? }`. */
export type ServiceErrorJson = {
  status?: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
};

/** What the mapping needs of an HTTP answer (a `TransportResponse` fits). */
export type ErrorResponseLike = {
  status: number;
  headers: { get(name: string): string | null };
  /** The body as received, already read. */
  text: string;
};

export type ErrorFromResponseParameters = {
  response: ErrorResponseLike;
  /** Current time in epoch ms, for `Retry-After` given as an HTTP date. Default `Date.now()`. */
  now?: number | undefined;
  /** Extra secret-free context merged into `details` (e.g. `requestId`, `operation`). */
  details?: Record<string, unknown> | undefined;
};

const MAX_MESSAGE_LENGTH = 300;

/** Service codes that are worth repeating even though their status is 4xx (spec "Status 400 codes"). */
const retryableCodes: ReadonlySet<string> = new Set(["QUOTE_REQUEST_FAILED", "RATE_LIMITED"]);

/**
 * Codes that no repeat can cure: the OpenAPI's `Error429` has two, and only `RATE_LIMITED`
 * passes with time (docs/protocol.md §1); a daily volume limit lasts until the day turns. The
 * relay's `RELAY_MISCONFIGURED` (a 500) lasts until the relay's configuration is fixed.
 */
const finalRateCodes: ReadonlySet<string> = new Set([
  "DAILY_VOLUME_LIMIT_EXCEEDED",
  "RELAY_MISCONFIGURED",
]);

/**
 * Whether repeating the same call may succeed: 429 (except a spent daily volume), every 5xx
 * (except the relay's own misconfiguration), and the service codes the spec marks retryable.
 *
 * @example
 * ```ts
 * isRetryableStatus(503); // true
 * isRetryableStatus(401); // false
 * isRetryableStatus(429, "DAILY_VOLUME_LIMIT_EXCEEDED"); // false
 * ```
 */
export function isRetryableStatus(status: number, code?: string): boolean {
  if (code !== undefined && finalRateCodes.has(code)) return false;
  return status === 429 || status >= 500 || (code !== undefined && retryableCodes.has(code));
}

/**
 * Reads a `Retry-After` value (delta seconds or an HTTP date) as a delay in milliseconds.
 * Returns `undefined` when absent or unreadable; a date in the past gives 0.
 *
 * @example
 * ```ts
 * parseRetryAfter("3"); // 3000
 * parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("2015-10-21T07:27:58Z")); // 2000
 * ```
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP date always names a day of week or month in letters; plain numbers were handled above.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (!Number.isFinite(date)) return undefined;
  return Math.max(0, date - now);
}

/** A code to use when an error answer has no body at all. */
function codeForEmptyBody(status: number): SignetErrorCode {
  switch (status) {
    case 401:
      return "UNAUTHORIZED";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "CONFLICT";
    case 429:
      return "RATE_LIMITED";
    default:
      return "UNEXPECTED_STATUS";
  }
}

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads the flat error body. Returns `undefined` when it is not JSON or breaks the schema
 * (`code` and `message` strings, `status` a number when present, `details` an object when present).
 *
 * @example
 * ```ts
 * parseServiceError('{"status":401,"code":"UNAUTHORIZED","message":"bad credentials"}');
 * ```
 */
export function parseServiceError(text: string): ServiceErrorJson | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(json)) return undefined;
  const { status, code, message, details } = json;
  if (typeof code !== "string" || code.trim() === "") return undefined;
  if (typeof message !== "string") return undefined;
  if (status !== undefined && (typeof status !== "number" || !Number.isInteger(status))) {
    return undefined;
  }
  if (details !== undefined && details !== null && !isPlainObject(details)) return undefined;
  return {
    code,
    message,
    ...defined({ status }),
    ...(isPlainObject(details) ? { details } : {}),
  };
}

/**
 * What in service text looks like a secret (docs/protocol.md §11): a JWT or a long base64url run
 * (a stamp, a token), a long hex run (a key, a signature), a code of 6–8 digits standing alone (an
 * OTP). A service that echoes what it was sent must not put it into an error, a log or an event.
 */
const SECRET_LIKE =
  /[\w-]{8,}\.[\w-]{8,}\.[\w-]*|\b(?:0x)?[0-9a-fA-F]{32,}\b|(?=[\w-]*[a-z])(?=[\w-]*\d)[\w-]{40,}|(?<![\w.,:])\d{6,8}(?![\w.,])/g;

/** Service text with anything that looks like a stamp, key, token or code replaced. */
export function redactServiceText(text: string): string {
  return text.replace(SECRET_LIKE, "[redacted]");
}

/** A service's `details`, its strings redacted at any depth (ids and field names survive). */
function redactDetails(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactServiceText(value);
  if (depth > 4) return undefined;
  if (Array.isArray(value)) return value.map((item) => redactDetails(item, depth + 1));
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactDetails(item, depth + 1)]),
    );
  }
  return value;
}

function shorten(message: string): string {
  const singleLine = redactServiceText(message.replace(/\s+/g, " ").trim());
  return singleLine.length > MAX_MESSAGE_LENGTH
    ? `${singleLine.slice(0, MAX_MESSAGE_LENGTH - 1)}…`
    : singleLine;
}

/**
 * Maps an HTTP error answer (status ≥ 400, or any status the caller did not expect) to a
 * `SignetError`: the service's `code` as given (unknown codes kept), the HTTP `status`,
 * `retryable` for 429 (not `DAILY_VOLUME_LIMIT_EXCEEDED`), 5xx and `QUOTE_REQUEST_FAILED`, and `details` with the service's details
 * plus `retryAfterMs` read from `Retry-After`. A body that is not the flat error JSON gives
 * `MALFORMED_RESPONSE` (still `retryable` on 429/5xx: a proxy's HTML 503 is worth retrying);
 * an empty body gives a code derived from the status.
 *
 * @throws never; it returns the error for the caller to throw.
 * @example
 * ```ts
 * const response = await transport.request({ method: "GET", path: "/auth/sessions?accountId=…" });
 * if (response.status !== 200) throw errorFromResponse({ response });
 * ```
 */
export function errorFromResponse(parameters: ErrorFromResponseParameters): SignetError {
  const { response } = parameters;
  const { status } = response;
  const retryAfterMs = parseRetryAfter(response.headers.get(RETRY_AFTER_HEADER), parameters.now);
  const extra = {
    ...parameters.details,
    ...defined({ retryAfterMs }),
  };

  // A 404 that is not the relay's own JSON refusal: nothing is mounted at that URL.
  const hint = status === 404 ? " (check relayUrl)" : "";
  if (response.text.trim() === "") {
    const code = codeForEmptyBody(status);
    return new SignetError(code, `HTTP ${status} with an empty body${hint}`, {
      status,
      retryable: isRetryableStatus(status, code),
      details: extra,
    });
  }

  const body = parseServiceError(response.text);
  if (body === undefined) {
    return new SignetError(
      "MALFORMED_RESPONSE",
      `HTTP ${status} with a body that is not the service's error JSON${hint}`,
      { status, retryable: isRetryableStatus(status), details: extra },
    );
  }

  const message = shorten(body.message);
  // `retryAfterMs` is the `Retry-After` header's alone (docs/protocol.md §2): a body's own field
  // of that name never chooses the wait, nor makes a 503 a rate limit.
  const { retryAfterMs: _fromBody, ...serviceDetails } =
    (redactDetails(body.details) as Record<string, unknown> | undefined) ?? {};
  return new SignetError(body.code, message === "" ? `HTTP ${status} ${body.code}` : message, {
    status,
    retryable: isRetryableStatus(status, body.code),
    details: { ...serviceDetails, ...extra },
  });
}
