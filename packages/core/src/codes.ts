// Every error code Signet reports, grouped by where it comes from (the service, the relay, the
// device) and by what can end in it; `errors.ts` re-exports them beside `SignetError`.

import type { RelayErrorCode } from "./transport/protocol.js";

export type { RelayErrorCode };

/**
 * Codes the service returns on the wallet paths: the codes of the OpenAPI's error schemas that
 * these operations answer (docs/protocol.md §1), and `INSUFFICIENT_FUNDS`, which the sandbox
 * answers on execute although `Error400` does not list it (§7).
 */
export type ServiceErrorCode =
  | "INVALID_INPUT"
  | "UNAUTHORIZED"
  | "INVALID_SIGNATURE"
  | "WALLET_SIGNATURE_MISSING"
  | "WALLET_SIGNATURE_MALFORMED"
  | "WALLET_SIGNATURE_BODY_MISMATCH"
  | "WALLET_SIGNATURE_INVALID"
  | "REQUEST_ID_MISSING"
  | "FORBIDDEN"
  | "USER_NOT_READY"
  | "VELOCITY_LIMIT_EXCEEDED"
  | "RATE_LIMITED"
  | "DAILY_VOLUME_LIMIT_EXCEEDED"
  | "REFERENCE_NOT_FOUND"
  | "QUOTE_NOT_FOUND"
  | "TRANSACTION_NOT_FOUND"
  | "USER_NOT_FOUND"
  | "CUSTOMER_DELETED"
  | "CONFLICT"
  | "SCA_SESSION_REQUIRED"
  | "PASSKEY_ALREADY_ENROLLED"
  | "EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS"
  | "SMS_OTP_CREDENTIAL_ALREADY_EXISTS"
  | "PASSKEY_CREDENTIAL_ALREADY_EXISTS"
  | "EMAIL_OTP_EMAIL_ALREADY_EXISTS"
  | "EMAIL_OTP_CREDENTIAL_SET_CHANGED"
  | "EMAIL_OTP_CREDENTIAL_SYNC_FAILED"
  | "INSUFFICIENT_FUNDS"
  | "QUOTE_REQUEST_FAILED"
  | "TRANSACTION_SIZE_LIMIT_EXCEEDED"
  | "EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED"
  | "ACCOUNT_LOCKED"
  | "END_USER_TERMS_NOT_ACCEPTED"
  | "INVALID_STATE_TRANSITION"
  | "NOT_IMPLEMENTED"
  | "GRID_SWITCH_ERROR"
  | "INTERNAL_ERROR";

/** Codes raised by Signet itself, on the device or in the relay. */
export type ClientErrorCode =
  | "INVALID_ARGUMENT"
  /** A 404 with no error body (nothing answers at that URL: check `relayUrl`). */
  | "NOT_FOUND"
  /** The quote's `expiresAt` has passed: the device never signs it (docs/protocol.md §11). */
  | "QUOTE_EXPIRED"
  /** A quote read after an authorization with no answer had `FAILED` (`details.status`). */
  | "QUOTE_FAILED"
  /** An SCA login ended in a status other than `SUCCESS` (`details.status`). */
  | "SCA_LOGIN_FAILED"
  /** A passkey for SCA was made on an origin the service's `allowedOrigins` do not list. */
  | "SCA_ORIGIN_NOT_ALLOWED"
  | "ENCODING_INVALID"
  | "KEY_INVALID"
  | "POINT_INVALID"
  | "SIGNATURE_INVALID"
  | "DECRYPTION_FAILED"
  | "CHECKSUM_INVALID"
  | "BUNDLE_MALFORMED"
  | "BUNDLE_SIGNATURE_INVALID"
  | "BUNDLE_SIGNER_UNTRUSTED"
  | "BUNDLE_ORGANIZATION_MISMATCH"
  | "CRYPTO_UNAVAILABLE"
  | "KEY_STORAGE_UNAVAILABLE"
  | "KEY_NOT_FOUND"
  | "SESSION_EXPIRED"
  | "NO_SESSION"
  | "CHALLENGE_EXPIRED"
  | "CHALLENGE_INVALID"
  | "PAYLOAD_MISMATCH"
  | "PROCESSING_TIMEOUT"
  /**
   * A signed request's answer was lost after the service may have acted on it, and asking the
   * service what happened did not settle it (`details.operation`, `details.step`): re-read the
   * state before trying again.
   */
  | "OUTCOME_UNKNOWN"
  | "ABORTED"
  | "NETWORK"
  | "TIMEOUT"
  | "MALFORMED_RESPONSE"
  | "UNEXPECTED_STATUS"
  | WebAuthnErrorCode
  /** `@signet/react`: a hook ran outside `<SignetProvider>`. */
  | "PROVIDER_MISSING"
  /**
   * `@signet/react`: something that is not a `SignetError` was thrown inside a hook's call (an
   * app callback, a bug); the thrown value is the `cause`.
   */
  | "UNEXPECTED_ERROR"
  /** The relay's own answers (`@signet/relay`, `RelayErrorCode`). */
  | RelayErrorCode;

/**
 * Every code this version knows, in one set: the service's, the relay's and Signet's own (core
 * and `@signet/react`).
 */
export type KnownErrorCode = ServiceErrorCode | ClientErrorCode;

/**
 * A stable error code. Unknown codes from a newer service version are kept as they came
 * (`string & {}` keeps autocompletion for the known ones).
 */
export type SignetErrorCode = KnownErrorCode | (string & {});

/**
 * What any request to the relay can end in: no answer (`NETWORK`, `TIMEOUT`, `ABORTED`), an
 * answer that is not what it should be, or an error answer of the relay or the service.
 */
export type RequestErrorCode =
  | ServiceErrorCode
  | RelayErrorCode
  | "INVALID_ARGUMENT"
  | "NETWORK"
  | "TIMEOUT"
  | "ABORTED"
  | "MALFORMED_RESPONSE"
  | "UNEXPECTED_STATUS";

/** What a signed request can end in, besides a request's codes (docs/architecture.md). */
export type SignedRequestErrorCode =
  | RequestErrorCode
  | "CHALLENGE_EXPIRED"
  | "CHALLENGE_INVALID"
  /** A payload to sign that does not bind this device's own request: nothing was signed. */
  | "PAYLOAD_MISMATCH"
  | "PROCESSING_TIMEOUT"
  /** An answer lost after the service may have acted, which asking it did not settle. */
  | "OUTCOME_UNKNOWN";

/** What finding, restoring and stamping with a held session can end in. */
export type SessionErrorCode = "NO_SESSION" | "SESSION_EXPIRED" | "KEY_STORAGE_UNAVAILABLE";

/** What the device's crypto can end in: bad input, bad keys, a platform without crypto. */
export type CryptoErrorCode =
  | "INVALID_ARGUMENT"
  | "ENCODING_INVALID"
  | "KEY_INVALID"
  | "POINT_INVALID"
  | "DECRYPTION_FAILED"
  | "CHECKSUM_INVALID"
  | "CRYPTO_UNAVAILABLE";

/** What checking and opening a bundle from the service's enclave can end in. */
export type BundleErrorCode =
  | CryptoErrorCode
  | "BUNDLE_MALFORMED"
  | "BUNDLE_SIGNATURE_INVALID"
  | "BUNDLE_SIGNER_UNTRUSTED"
  | "BUNDLE_ORGANIZATION_MISMATCH";

/** What a passkey ceremony can end in (`toWebAuthnError`). */
export type WebAuthnErrorCode =
  | "WEBAUTHN_UNSUPPORTED"
  | "WEBAUTHN_CANCELLED"
  /** The passkey prompt ran to its timeout unanswered (not a cancel; retryable). */
  | "WEBAUTHN_TIMEOUT"
  | "WEBAUTHN_INVALID_STATE"
  | "WEBAUTHN_SECURITY"
  /** The relying party id is not the page's domain (or a parent), or the app is not associated with it. */
  | "WEBAUTHN_RP_ID_INVALID"
  /** The page's host is no domain WebAuthn accepts (an IP address). */
  | "WEBAUTHN_DOMAIN_INVALID"
  | "WEBAUTHN_FAILED"
  | "WEBAUTHN_WRONG_CREDENTIAL";

/** What an action stamped by a held session can end in. */
export type SessionSignedErrorCode = SignedRequestErrorCode | SessionErrorCode | CryptoErrorCode;
