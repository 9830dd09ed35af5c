// The groups of error codes, one vocabulary: the public group types (`RequestErrorCode`, …) are
// made from these arrays, and the actions' rows (catalog/actionRow.ts) list them in `errors.client`.
// Rows are never read at run time, so no bundle carries the arrays.
import type { KnownErrorCode, RelayErrorCode, ServiceErrorCode } from "./codes.js";

/**
 * The client's codes of any request to the relay: an argument check, no answer (`NETWORK`,
 * `TIMEOUT`, `ABORTED`), an answer of the wrong shape or status, a 404 with no body (`relayUrl`
 * points at nothing), a chunk of Signet that did not load (`NETWORK`).
 */
export const REQUEST_ERRORS = [
  "INVALID_ARGUMENT",
  "NETWORK",
  "TIMEOUT",
  "ABORTED",
  "MALFORMED_RESPONSE",
  "UNEXPECTED_STATUS",
  "NOT_FOUND",
] as const satisfies readonly KnownErrorCode[];

/** What the signed-request engine adds to a request's codes (`transport/signedRequest*.ts`). */
export const SIGNED_REQUEST_ERRORS = [
  "CHALLENGE_EXPIRED",
  "CHALLENGE_INVALID",
  /** A payload to sign that does not bind this device's own request: nothing was signed. */
  "PAYLOAD_MISMATCH",
  "PROCESSING_TIMEOUT",
  /** An answer lost after the service may have acted, which asking it did not settle. */
  "OUTCOME_UNKNOWN",
] as const satisfies readonly KnownErrorCode[];

/** Finding, restoring and stamping with a held session (`session/sessionSigner.ts`). */
export const SESSION_ERRORS = [
  "NO_SESSION",
  "SESSION_EXPIRED",
  "KEY_STORAGE_UNAVAILABLE",
] as const satisfies readonly KnownErrorCode[];

/** The device's crypto: bad input, bad keys, a platform without crypto. */
export const CRYPTO_ERRORS = [
  "INVALID_ARGUMENT",
  "ENCODING_INVALID",
  "KEY_INVALID",
  "POINT_INVALID",
  "DECRYPTION_FAILED",
  "CHECKSUM_INVALID",
  "CRYPTO_UNAVAILABLE",
] as const satisfies readonly KnownErrorCode[];

/** Checking and opening a bundle from the service's enclave, besides the crypto's codes. */
export const BUNDLE_ERRORS = [
  "BUNDLE_MALFORMED",
  "BUNDLE_SIGNATURE_INVALID",
  "BUNDLE_SIGNER_UNTRUSTED",
  "BUNDLE_ORGANIZATION_MISMATCH",
] as const satisfies readonly KnownErrorCode[];

/**
 * What proving an SCA factor can end in, besides a request's codes (`actions/scaProof.ts`): a
 * lapsed or refused challenge, a payload that does not bind the device's request, a factor the
 * service refused, a passkey origin the service does not allow.
 */
export const SCA_PROOF_ERRORS = [
  "CHALLENGE_EXPIRED",
  "PAYLOAD_MISMATCH",
  "SCA_LOGIN_FAILED",
  "SCA_ORIGIN_NOT_ALLOWED",
] as const satisfies readonly KnownErrorCode[];

/**
 * What any request to the relay can end in: no answer (`NETWORK`, `TIMEOUT`, `ABORTED`), an
 * answer that is not what it should be, or an error answer of the relay or the service.
 */
export type RequestErrorCode = ServiceErrorCode | RelayErrorCode | (typeof REQUEST_ERRORS)[number];

/** What a signed request can end in, besides a request's codes (docs/architecture.md). */
export type SignedRequestErrorCode = RequestErrorCode | (typeof SIGNED_REQUEST_ERRORS)[number];

/** What finding, restoring and stamping with a held session can end in. */
export type SessionErrorCode = (typeof SESSION_ERRORS)[number];

/** What the device's crypto can end in: bad input, bad keys, a platform without crypto. */
export type CryptoErrorCode = (typeof CRYPTO_ERRORS)[number];

/** What checking and opening a bundle from the service's enclave can end in. */
export type BundleErrorCode = CryptoErrorCode | (typeof BUNDLE_ERRORS)[number];

/** What an action stamped by a held session can end in. */
export type SessionSignedErrorCode = SignedRequestErrorCode | SessionErrorCode | CryptoErrorCode;

/**
 * The client codes of an action stamped by a held session, as a row lists them: groups nest (a
 * row's codes are flattened by the generator), because a spread would keep the rows in bundles
 * (a bundler cannot drop an array spread, which runs an iterator).
 */
export const SESSION_SIGNED_ERRORS = [
  REQUEST_ERRORS,
  SIGNED_REQUEST_ERRORS,
  SESSION_ERRORS,
  CRYPTO_ERRORS,
] as const;

/** A row's client codes: codes, and groups of them nested at any depth. */
export type ErrorCodeGroup = KnownErrorCode | readonly ErrorCodeGroup[];
