// The relay's own refusals, in the service's flat error shape (docs/protocol.md §1: `{ status, code, message, details? }`).

/**
 * Codes of the errors the relay itself answers with. Errors from the service pass through
 * unchanged and keep the service's codes.
 */
export const RelayErrorCode = {
  /**
   * `resolveUser` returned `null`: the app does not know the caller (401). Distinct from the
   * service's `UNAUTHORIZED`, which means the platform's own credentials were refused.
   */
  RELAY_UNAUTHENTICATED: "RELAY_UNAUTHENTICATED",
  /** A resource in the request does not belong to the caller, or a body field is not allowed (403). */
  RELAY_FORBIDDEN: "RELAY_FORBIDDEN",
  /** The path is not one the relay forwards (404). */
  RELAY_NOT_FOUND: "RELAY_NOT_FOUND",
  /** The path is forwarded, but not with this method; the response carries `Allow` (405). */
  METHOD_NOT_ALLOWED: "METHOD_NOT_ALLOWED",
  /** The request body is larger than `maxBodyBytes` (413). */
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  /**
   * A state-changing request (any method but `GET` and `HEAD`) without
   * `Content-Type: application/json` (415). A page on another origin can send a "simple" request
   * (no body, or a form content type) with the user's cookies and no CORS preflight; requiring
   * the JSON type forces a preflight the relay's origin never grants, so no cross-site request
   * reaches `resolveUser` or the service.
   */
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  /** The caller's rate limit is spent; the response carries `Retry-After` in seconds (429). */
  RATE_LIMITED: "RATE_LIMITED",
  /** The service could not be reached, answered with a redirect, or an ownership lookup failed (502). */
  UPSTREAM_UNAVAILABLE: "UPSTREAM_UNAVAILABLE",
  /**
   * The shared rate-limit store (Redis) is down, so the limit cannot be enforced: writes are
   * refused until it is back (503, `Retry-After: 1`); reads go on.
   */
  RELAY_STORE_UNAVAILABLE: "RELAY_STORE_UNAVAILABLE",
  /** The service did not answer within `timeoutMs` (504). */
  UPSTREAM_TIMEOUT: "UPSTREAM_TIMEOUT",
  /** A malformed path, query, header or body (400). */
  INVALID_INPUT: "INVALID_INPUT",
  /** `resolveUser` threw or returned something that is not a user (500). */
  INTERNAL_ERROR: "INTERNAL_ERROR",
} as const;

/** One of {@link RelayErrorCode}. */
export type RelayErrorCode = (typeof RelayErrorCode)[keyof typeof RelayErrorCode];

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

const STATUS: Record<RelayErrorCode, number> = {
  RELAY_UNAUTHENTICATED: 401,
  RELAY_FORBIDDEN: 403,
  RELAY_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  UPSTREAM_UNAVAILABLE: 502,
  RELAY_STORE_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
  INVALID_INPUT: 400,
  INTERNAL_ERROR: 500,
};

/** The HTTP status the relay answers with for `code`. */
export function relayErrorStatus(code: RelayErrorCode): number {
  return STATUS[code];
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
  const status = STATUS[refusal.code];
  const body: RelayErrorBody = { status, code: refusal.code, message: refusal.message };
  if (refusal.details !== undefined) body.details = refusal.details;
  const headers = new Headers({
    "Content-Type": "application/json",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
  for (const [name, value] of Object.entries(refusal.headers ?? {})) headers.set(name, value);
  return new Response(JSON.stringify(body), { status, headers });
}
