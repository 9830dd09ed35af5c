/**
 * Header names of the signed-request protocol (docs/protocol.md §1–§2). Kept in one place: the brand
 * word in the signature header has changed before.
 */

/** The header carrying the stamp over `payloadToSign`. */
export const WALLET_SIGNATURE_HEADER = "Grid-Wallet-Signature";

/** The header echoing the `requestId` of the pending challenge on a signed leg. */
export const REQUEST_ID_HEADER = "Request-Id";

/** The header that makes quote execute idempotent across retries. */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** The header a 429 (and some 503s) carry: seconds, or an HTTP date. */
export const RETRY_AFTER_HEADER = "Retry-After";
