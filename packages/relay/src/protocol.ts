// GENERATED from packages/core/src/transport/protocol.ts by scripts/sync-protocol.mjs: edit that
// file and run `node scripts/sync-protocol.mjs`; a test fails while this copy differs.
// Protocol facts that the device (@signet/core) and the backend relay (@signet/relay) both rely on,
// written once (docs/protocol.md §1 and §2). The source is packages/core/src/transport/protocol.ts;
// packages/relay/src/protocol.ts is a verbatim copy under a banner, written by
// `node scripts/sync-protocol.mjs` and compared byte for byte by a relay test, so each published
// package builds from the same text and the relay keeps no runtime dependency. It imports nothing.
// The emulator plays the service and keeps its own copies on purpose.

/** The header carrying the stamp over `payloadToSign`. Its brand word has changed before. */
export const WALLET_SIGNATURE_HEADER = "Grid-Wallet-Signature";

/** The header echoing the `requestId` of the pending challenge on a signed leg. */
export const REQUEST_ID_HEADER = "Request-Id";

/** The header that makes quote execute idempotent across retries. */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** The header a 429 (and some 503s) carry: seconds, or an HTTP date. */
export const RETRY_AFTER_HEADER = "Retry-After";

/** A challenge's request id: `Request:` and a UUID, hex digits in either case. */
export const REQUEST_ID_PATTERN =
  /^Request:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Every code the relay answers with itself, before or instead of the service, and its HTTP
 * status. Errors from the service pass through the relay unchanged and keep the service's codes.
 * `RATE_LIMITED`, `INVALID_INPUT` and `INTERNAL_ERROR` are the service's own codes, reused by the
 * relay in the same sense.
 */
export const RELAY_ERROR_STATUS = {
  /** `resolveUser` returned `null`: the app does not know the caller. */
  RELAY_UNAUTHENTICATED: 401,
  /** A resource in the request is not the caller's, or a body field is not allowed. */
  RELAY_FORBIDDEN: 403,
  /** The path is not one the relay forwards. */
  RELAY_NOT_FOUND: 404,
  /** The path is forwarded, but not with this method; the answer carries `Allow`. */
  METHOD_NOT_ALLOWED: 405,
  /** The request body is larger than the relay's `maxBodyBytes`. */
  PAYLOAD_TOO_LARGE: 413,
  /** A state-changing request without `Content-Type: application/json`. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** The caller's rate limit is spent; the answer carries `Retry-After` in seconds. */
  RATE_LIMITED: 429,
  /** The service could not be reached, answered with a redirect, or an ownership lookup failed. */
  UPSTREAM_UNAVAILABLE: 502,
  /** The shared rate-limit store is down: writes are refused until it is back (`Retry-After: 1`). */
  RELAY_STORE_UNAVAILABLE: 503,
  /** The service did not answer within the relay's `timeoutMs`. */
  UPSTREAM_TIMEOUT: 504,
  /** A malformed path, query, header or body. */
  INVALID_INPUT: 400,
  /** `resolveUser` threw or returned something that is not a user. */
  INTERNAL_ERROR: 500,
  /**
   * The relay lacks configuration a route needs, so the request was not forwarded: an SCA login
   * completion without the end user's address (`createRelay`'s `endUserIpAddress`), which the
   * service requires. `details.option` names the option. Not retryable: fix the relay.
   */
  RELAY_MISCONFIGURED: 500,
} as const;

/** A code the relay answers with itself: a key of `RELAY_ERROR_STATUS`. */
export type RelayErrorCode = keyof typeof RELAY_ERROR_STATUS;
