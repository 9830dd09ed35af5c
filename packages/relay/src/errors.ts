// The relay's own refusals, in the service's flat error shape (docs/protocol.md §1: `{ status, code, message, details? }`).

import { type RelayErrorCode as ProtocolRelayErrorCode, RELAY_ERROR_STATUS } from "./protocol.js";

/**
 * Codes of the errors the relay itself answers with, each naming itself
 * (`RelayErrorCode.RATE_LIMITED === "RATE_LIMITED"`). Errors from the service pass through
 * unchanged and keep the service's codes. The list and each code's status are written once for
 * core and the relay (`protocol.ts`), so `@signet/core`'s `SignetErrorCode` knows every one:
 *
 * | code | status | when |
 * |---|---|---|
 * | `RELAY_UNAUTHENTICATED` | 401 | `resolveUser` returned `null`: the app does not know the caller. Distinct from the service's `UNAUTHORIZED`, which means the platform's own credentials were refused. |
 * | `RELAY_FORBIDDEN` | 403 | a resource in the request does not belong to the caller, or a body field is not allowed |
 * | `RELAY_NOT_FOUND` | 404 | the path is not one the relay forwards |
 * | `METHOD_NOT_ALLOWED` | 405 | the path is forwarded, but not with this method; the response carries `Allow` |
 * | `PAYLOAD_TOO_LARGE` | 413 | the request body is larger than `maxBodyBytes` |
 * | `UNSUPPORTED_MEDIA_TYPE` | 415 | a state-changing request (any method but `GET` and `HEAD`) without `Content-Type: application/json`: a page on another origin can send a "simple" request with the user's cookies and no CORS preflight; requiring the JSON type forces a preflight the relay's origin never grants, so no cross-site request reaches `resolveUser` or the service |
 * | `RATE_LIMITED` | 429 | the caller's rate limit is spent; the response carries `Retry-After` in seconds |
 * | `UPSTREAM_UNAVAILABLE` | 502 | the service could not be reached, answered with a redirect, or an ownership lookup failed |
 * | `RELAY_STORE_UNAVAILABLE` | 503 | the shared rate-limit store (Redis) is down, so the limit cannot be enforced: writes are refused until it is back (`Retry-After: 1`); reads go on |
 * | `UPSTREAM_TIMEOUT` | 504 | the service did not answer within `timeoutMs` |
 * | `INVALID_INPUT` | 400 | a malformed path, query, header or body |
 * | `INTERNAL_ERROR` | 500 | `resolveUser` threw or returned something that is not a user |
 * | `RELAY_MISCONFIGURED` | 500 | an SCA login completion with no end user's address to send: `createRelay`'s `endUserIpAddress` is not set, or gave none for the request, and the body carries none (`details.option`, `details.reason`); not forwarded |
 *
 * @example
 * const body = (await response.json()) as RelayErrorBody;
 * if (body.code === RelayErrorCode.RATE_LIMITED) wait(response.headers.get("Retry-After"));
 */
export const RelayErrorCode: RelayErrorCodes = Object.freeze(
  Object.fromEntries(
    Object.keys(RELAY_ERROR_STATUS).map((code) => [code, code]),
  ) as RelayErrorCodes,
);

// Homomorphic over the protocol's table, so each code keeps its one-line description on hover.
type RelayErrorCodes = { readonly [C in keyof typeof RELAY_ERROR_STATUS]: C };

/** One of {@link RelayErrorCode}. */
export type RelayErrorCode = ProtocolRelayErrorCode;

/**
 * The JSON body of every error the relay answers itself: the service's flat error shape.
 * `details` never holds a credential, a stamp or a request body.
 *
 * @example
 * const body = (await response.json()) as RelayErrorBody;
 * if (body.code === RelayErrorCode.RATE_LIMITED) wait(response.headers.get("Retry-After"));
 */
export interface RelayErrorBody {
  /** The HTTP status, repeated. */
  status: number;
  /** A {@link RelayErrorCode}. */
  code: RelayErrorCode;
  /** A short human-readable sentence. */
  message: string;
  /** Structured facts about the refusal (which field, which limit). */
  details?: Record<string, unknown>;
}

/** The HTTP status the relay answers with for `code`. */
export function relayErrorStatus(code: RelayErrorCode): number {
  return RELAY_ERROR_STATUS[code];
}

/**
 * A refusal decided somewhere inside the relay, turned into a response in one place
 * ({@link relayErrorResponse}). Never leaves the relay as an exception.
 */
export class RelayRefusal extends Error {
  override readonly name = "RelayRefusal";
  readonly code: RelayErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: RelayErrorCode,
    message: string,
    details?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) {
    super(message);
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

/** Builds the JSON response for a relay error. */
export function relayErrorResponse(refusal: RelayRefusal): Response {
  return toResponse(errorAnswer(refusal));
}

/** What the relay answers: status, header names in lower case, body bytes or none. */
export interface RelayAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array<ArrayBuffer> | null;
}

/** A {@link RelayAnswer} as a web `Response`. */
export function toResponse(answer: RelayAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** The headers every answer carries, in a fresh record to add to (a literal: no copy loop). */
export function answerHeaders(): Record<string, string> {
  return { "cache-control": "no-store", "x-content-type-options": "nosniff" };
}

/** The JSON answer of a relay error: the service's flat error shape. */
export function errorAnswer(refusal: RelayRefusal): RelayAnswer {
  const status = RELAY_ERROR_STATUS[refusal.code];
  const body: RelayErrorBody = { status, code: refusal.code, message: refusal.message };
  if (refusal.details !== undefined) body.details = refusal.details;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...answerHeaders(),
  };
  for (const [name, value] of Object.entries(refusal.headers ?? {})) {
    headers[name.toLowerCase()] = value;
  }
  return {
    status,
    headers,
    body: new TextEncoder().encode(JSON.stringify(body)) as Uint8Array<ArrayBuffer>,
  };
}
