// Every error code Signet reports and what its `details` carry, grouped by where the code comes
// from (the service, the relay, the device's passkeys, Signet itself); `errors.ts` re-exports them
// beside `SignetError`. Each code is named once, as a key of one of the maps below, with the type
// of its `details` as the value: the unions of codes are the maps' keys.
//
// Adding a code is a change here only: add `CODE: { fields }` to the map of where it comes from,
// with TSDoc saying when it happens and what each field means. List only fields something
// actually writes (the service's, from its OpenAPI; the client's, from the code that throws it),
// every field optional unless every throw sets it, and no index signature: a field that is not
// listed cannot be read, so a user reading `details` reads what is there. A code of the service
// takes `AnswerErrorDetails &` the fields its OpenAPI schema names; a code of Signet's own takes
// `NoDetails` when it carries nothing. The compiler then asks for the rest: the code's row in
// `DETAIL_FIELDS` (packages/test/src/errorDetails.ts, the same fields as values) and its case in
// test/errorDetails.test.ts, which makes the error by the path that makes it in use and checks
// its `details` against the row. List it in the `errors` of the rows of the actions it can end (or in
// a group of `errorGroups.ts`) so that each action's error union names it.

import type { RelayErrorCode } from "../transport/protocol.js";

export type { RelayErrorCode };

/**
 * What a request adds to the error of an answer (`transport/responseError.ts` and the
 * signed-request engine), beside what the answer itself says.
 */
export type AnswerErrorDetails = {
  /** The wait the answer's `Retry-After` asked for, in ms. */
  retryAfterMs?: number;
  /** The signed operation (`executeQuote`, `revokeSession`, …). */
  operation?: string;
  /** The request id of the challenge the answer was about. */
  requestId?: string;
  /**
   * The answer followed a re-send after no answer or a 5xx on a signed leg: the first send may
   * have taken effect, so re-read the state before trying again.
   */
  ambiguousResend?: boolean;
};

/**
 * The particular case of a broad service code, where the OpenAPI has no code of its own for it
 * (docs/protocol.md §1 and §13: an expired quote is 409 `CONFLICT` with `reason: "QUOTE_EXPIRED"`).
 * The OpenAPI names no such field; the emulator sends it as docs/protocol.md decides.
 */
export type ReasonDetails = {
  /** `QUOTE_EXPIRED`, `IDEMPOTENCY_KEY_REUSED`, `REQUEST_ID_ALREADY_USED`, … */
  reason?: string;
};

/** One invalid field of a request (the OpenAPI's `FieldError`). */
export type FieldErrorDetails = {
  /** Dot-notation path of the field. */
  field: string;
  /** A human-readable explanation. */
  message?: string;
  /** What the value must satisfy: `format`, `pattern`, `enum`, `minLength`, `maxLength`. */
  constraint?: {
    format?: string;
    pattern?: string;
    enum?: readonly string[];
    minLength?: number;
    maxLength?: number;
  };
};

/** The `details` of a code that carries no fields. */
export type NoDetails = Record<never, never>;

/**
 * The codes the service answers on the wallet paths, with the `details` each carries: what the
 * OpenAPI's error schemas name (`Error400.details.errors`, `Error423`'s lockout fields; the other
 * schemas name none) and what the request adds ({@link AnswerErrorDetails}). These are the codes of
 * the schemas the wallet operations answer (docs/protocol.md §1), and `INSUFFICIENT_FUNDS`, which
 * the sandbox answers on execute although `Error400` does not list it (§7).
 */
export type ServiceErrorDetailsMap = {
  /** 400: the request is invalid; `errors` lists each invalid field (OpenAPI `Error400`). */
  INVALID_INPUT: AnswerErrorDetails &
    ReasonDetails & {
      /** One entry per invalid field, on field-validation errors. */
      errors?: readonly FieldErrorDetails[];
      /** The one field the emulator names when no `errors` list is given. */
      field?: string;
    };
  /** 401: no valid credentials or session; `reason` when the emulator says which. */
  UNAUTHORIZED: AnswerErrorDetails & ReasonDetails;
  INVALID_SIGNATURE: AnswerErrorDetails;
  WALLET_SIGNATURE_MISSING: AnswerErrorDetails;
  WALLET_SIGNATURE_MALFORMED: AnswerErrorDetails;
  WALLET_SIGNATURE_BODY_MISMATCH: AnswerErrorDetails;
  WALLET_SIGNATURE_INVALID: AnswerErrorDetails;
  REQUEST_ID_MISSING: AnswerErrorDetails;
  FORBIDDEN: AnswerErrorDetails;
  USER_NOT_READY: AnswerErrorDetails;
  VELOCITY_LIMIT_EXCEEDED: AnswerErrorDetails;
  /** 429: try again after `retryAfterMs` (from `Retry-After`). */
  RATE_LIMITED: AnswerErrorDetails;
  /** 429 that no wait cures today. */
  DAILY_VOLUME_LIMIT_EXCEEDED: AnswerErrorDetails;
  REFERENCE_NOT_FOUND: AnswerErrorDetails;
  QUOTE_NOT_FOUND: AnswerErrorDetails;
  TRANSACTION_NOT_FOUND: AnswerErrorDetails;
  USER_NOT_FOUND: AnswerErrorDetails;
  CUSTOMER_DELETED: AnswerErrorDetails;
  /** 409: the state does not allow it; `reason` names the case (`QUOTE_EXPIRED`, …). */
  CONFLICT: AnswerErrorDetails & ReasonDetails;
  /** 409: the customer has no live SCA session (log in: `scaLogin`). */
  SCA_SESSION_REQUIRED: AnswerErrorDetails;
  PASSKEY_ALREADY_ENROLLED: AnswerErrorDetails;
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: AnswerErrorDetails;
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: AnswerErrorDetails;
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: AnswerErrorDetails;
  EMAIL_OTP_EMAIL_ALREADY_EXISTS: AnswerErrorDetails;
  EMAIL_OTP_CREDENTIAL_SET_CHANGED: AnswerErrorDetails;
  EMAIL_OTP_CREDENTIAL_SYNC_FAILED: AnswerErrorDetails;
  /** 409 (contact changes, the service's #853): another customer's SMS_OTP credential has this phone number. */
  SMS_OTP_PHONE_ALREADY_EXISTS: AnswerErrorDetails;
  /** 409: the tied SMS_OTP credentials changed since the change was created; start a new one. */
  SMS_OTP_CREDENTIAL_SET_CHANGED: AnswerErrorDetails;
  /** 424: a tied SMS_OTP credential could not be updated; the contact is unchanged. */
  SMS_OTP_CREDENTIAL_SYNC_FAILED: AnswerErrorDetails;
  /** 409: the customer already has an active contact change of this type. */
  CONTACT_CHANGE_PENDING: AnswerErrorDetails & {
    /** The active change (`ContactChange:…`): read it, submit it or cancel it. */
    contactChangeId?: string;
  };
  /** 409: the contact change is no longer `AWAITING_SIGNATURE` (expired, cancelled, failed). */
  CONTACT_CHANGE_NOT_AWAITING_SIGNATURE: AnswerErrorDetails;
  /**
   * 409: an OTP credential operation of the same type was submitted and has not settled; wait and
   * retry (`changeContact` waits it out under the retry policy before passing it on).
   */
  AUTH_CREDENTIAL_OPERATION_IN_FLIGHT: AnswerErrorDetails;
  INSUFFICIENT_FUNDS: AnswerErrorDetails;
  QUOTE_REQUEST_FAILED: AnswerErrorDetails;
  TRANSACTION_SIZE_LIMIT_EXCEEDED: AnswerErrorDetails;
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED: AnswerErrorDetails;
  /** 423: the customer's SCA login is locked (OpenAPI `Error423`). */
  ACCOUNT_LOCKED: AnswerErrorDetails & {
    /** When the customer may try again, RFC 3339; `null` or absent while suspended. */
    lockedUntil?: string | null;
    /** The failed logins counted so far. */
    failedAttempts?: number;
    /** Locked with no automatic end. */
    suspended?: boolean;
  };
  END_USER_TERMS_NOT_ACCEPTED: AnswerErrorDetails;
  INVALID_STATE_TRANSITION: AnswerErrorDetails;
  NOT_IMPLEMENTED: AnswerErrorDetails;
  GRID_SWITCH_ERROR: AnswerErrorDetails;
  INTERNAL_ERROR: AnswerErrorDetails;
};

/**
 * The relay's own refusals (`@signet/relay`), with the `details` its answers carry. The codes are
 * `RELAY_ERROR_STATUS`'s keys (shared with the relay); a code listed here without fields carries
 * only what the request adds. `RATE_LIMITED`, `INVALID_INPUT`, `METHOD_NOT_ALLOWED` and
 * `INTERNAL_ERROR` are the service's codes too: their `details` may hold either's fields.
 */
export type RelayErrorDetailsMap = {
  [TCode in RelayErrorCode]: AnswerErrorDetails &
    (TCode extends keyof RelayErrorFields ? RelayErrorFields[TCode] : unknown);
};

/** The fields of the relay's refusals that carry any (`packages/relay/src`). */
type RelayErrorFields = {
  /** A malformed path, query, header or body: which part, and why. */
  INVALID_INPUT: {
    /** The body field that is malformed or missing. */
    field?: string;
    /** The query parameter that is malformed, missing, repeated or not accepted. */
    parameter?: string;
    /** The header that is malformed. */
    header?: string;
    /** The fields or parameters of which exactly one is needed. */
    oneOf?: readonly string[];
    /** Why the path, header or body is malformed. */
    reason?: string;
  };
  /** Not the caller's resource, or a body field this route does not forward. */
  RELAY_FORBIDDEN: {
    /** Where the id or the value was found (`body.quoteId`, `path`, …). */
    field?: string;
    /** What the id named (`quote`, `account`, …). */
    kind?: string;
    /** The only fields this route forwards. */
    allowedFields?: readonly string[];
  };
  /** The methods this path takes (also the answer's `Allow`). */
  METHOD_NOT_ALLOWED: { allow?: readonly string[] };
  /** The relay's `maxBodyBytes`. */
  PAYLOAD_TOO_LARGE: { maxBodyBytes?: number };
  /** The caller's limit is spent: the wait in seconds (also `Retry-After`). */
  RATE_LIMITED: { retryAfterSeconds?: number };
  /**
   * The shared rate-limit store is down: writes may go again after this many seconds. On a push
   * wait, `reason` says why the relay holds none now: its webhook store is down, or it holds its
   * most waits open (`webhooks.maxWaits`); either way, poll meanwhile.
   */
  RELAY_STORE_UNAVAILABLE: {
    retryAfterSeconds?: number;
    reason?: "store unavailable" | "too many waits";
  };
  /** An ownership lookup answered this HTTP status. */
  UPSTREAM_UNAVAILABLE: { lookupStatus?: number };
  /** The relay's `timeoutMs` for the service. */
  UPSTREAM_TIMEOUT: { timeoutMs?: number };
  /** The relay option a route needs and lacks (`"endUserIpAddress"`), and why. */
  RELAY_MISCONFIGURED: {
    option?: "endUserIpAddress";
    reason?: "not configured" | "no address";
  };
};

/** What a passkey failure carries (`webauthn/errors.ts`, the React Native adapters). */
export type WebAuthnErrorDetails = {
  /** `registration` (create) or `authentication` (get). */
  ceremony?: string;
  /** The DOM error's name (`NotAllowedError`, …). */
  name?: string;
  /** `@simplewebauthn/browser`'s diagnosis (`ERROR_INVALID_RP_ID`, …). */
  webauthnCode?: string;
  /** The native module's error code (React Native). */
  native?: string;
  /** The relying party id the ceremony's options named. */
  rpId?: string;
  /** The page's host (absent in an app). */
  hostname?: string;
  /** The options' timeout, when they gave one. */
  timeoutMs?: number;
  /** How long the ceremony ran before it failed. */
  elapsedMs?: number;
  /** Whether it was a conditional (autofill) request. */
  conditional?: boolean;
};

/** The codes a passkey ceremony can end in (`toWebAuthnError`), with their `details`. */
export type WebAuthnErrorDetailsMap = {
  WEBAUTHN_UNSUPPORTED: WebAuthnErrorDetails;
  WEBAUTHN_CANCELLED: WebAuthnErrorDetails;
  /** The passkey prompt ran to its timeout unanswered (not a cancel; retryable). */
  WEBAUTHN_TIMEOUT: WebAuthnErrorDetails;
  WEBAUTHN_INVALID_STATE: WebAuthnErrorDetails;
  WEBAUTHN_SECURITY: WebAuthnErrorDetails;
  /** The relying party id is not the page's domain (or a parent), or the app is not associated with it. */
  WEBAUTHN_RP_ID_INVALID: WebAuthnErrorDetails;
  /** The page's host is no domain WebAuthn accepts (an IP address). */
  WEBAUTHN_DOMAIN_INVALID: WebAuthnErrorDetails;
  WEBAUTHN_FAILED: WebAuthnErrorDetails;
  /** The passkey used is not the one the challenge named (base64url credential ids). */
  WEBAUTHN_WRONG_CREDENTIAL: WebAuthnErrorDetails & { expected?: string; used?: string };
};

/** The codes Signet raises itself, on the device (core and `@signet/react`), with their `details`. */
export type ClientErrorDetailsMap = {
  /** A bad argument or option, named in the message. */
  INVALID_ARGUMENT: NoDetails;
  /** A 404 with no error body (nothing answers at that URL: check `relayUrl`). */
  NOT_FOUND: AnswerErrorDetails;
  /** The quote's `expiresAt` has passed: the device never signs it (docs/protocol.md §11). */
  QUOTE_EXPIRED: { quoteId: string };
  /** A quote read after an authorization with no answer had `FAILED`. */
  QUOTE_FAILED: { quoteId: string; status: string };
  /** An SCA login ended in a status other than `SUCCESS`. */
  SCA_LOGIN_FAILED: { status: string };
  /** A passkey for SCA was made on an origin the service's `allowedOrigins` do not list. */
  SCA_ORIGIN_NOT_ALLOWED: { origin: string; allowedOrigins: readonly string[] };
  /** Bad base64url, hex or UTF-8; from a passkey ceremony, with its context. */
  ENCODING_INVALID: WebAuthnErrorDetails;
  KEY_INVALID: NoDetails;
  POINT_INVALID: NoDetails;
  SIGNATURE_INVALID: NoDetails;
  DECRYPTION_FAILED: NoDetails;
  CHECKSUM_INVALID: NoDetails;
  BUNDLE_MALFORMED: NoDetails;
  BUNDLE_SIGNATURE_INVALID: NoDetails;
  BUNDLE_SIGNER_UNTRUSTED: NoDetails;
  BUNDLE_ORGANIZATION_MISMATCH: NoDetails;
  /** No secure random source or no WebCrypto: which one. */
  CRYPTO_UNAVAILABLE: { missing?: string };
  KEY_STORAGE_UNAVAILABLE: NoDetails;
  KEY_NOT_FOUND: NoDetails;
  /**
   * The held session expired by both clocks, or the service no longer lists it; `code` is the
   * service's code that ended the call when an answer showed it (`UNAUTHORIZED`, …).
   */
  SESSION_EXPIRED: { accountId: string; sessionId: string; code?: string };
  /** No usable session on this device for the account. */
  NO_SESSION: { accountId?: string; sessionId?: string };
  /**
   * `createClient`'s `stepUp` names the action and its user has not signed in by passkey or code
   * within `maxAgeMs`: nothing was signed or sent. Run `stepUp`, then the action again.
   */
  STEP_UP_REQUIRED: {
    /** The action refused (`exportWallet`, …). */
    action: string;
    /** The newest verification held for the call (RFC 3339); absent when there is none. */
    verifiedAt?: string;
    /** How long a verification lasts, as the client was created with. */
    maxAgeMs: number;
    /** The account the call named, when it named one. */
    accountId?: string;
  };
  /**
   * A passkey sign-in made a session the device's key cannot stamp for: the key it is bound to is
   * another's (a backend swapped it). Nothing was held or signed (docs/protocol.md §11): which
   * account, and the session the service made.
   */
  SESSION_KEY_MISMATCH: { accountId: string; sessionId: string };
  /** The challenge lapsed before a terminal answer. */
  CHALLENGE_EXPIRED: {
    requestId?: string;
    /** The challenge's `expiresAt`, RFC 3339. */
    expiresAt?: string;
    operation?: string;
  };
  /** A 202 whose challenge is not one to sign. */
  CHALLENGE_INVALID: {
    /** `payloadToSign`, `requestId` or `expiresAt`. */
    field?: string;
    requestId?: string;
    /** The legs a run allows, when the service asked for more. */
    maxLegs?: number;
    operation?: string;
  };
  /** Refused before signing (docs/protocol.md §11): which check, which signature, which field. */
  PAYLOAD_MISMATCH: {
    operation: string;
    /** 1 for the first payload of the call, 2 for the next leg's. */
    signature: number;
    /** The payload's field that did not bind the device's request. */
    field: string;
    /** The activity type the payload named, when that was the mismatch. */
    activityType?: string;
  };
  /**
   * A signed send may have taken effect, its answer was lost, and asking the service what happened
   * did not settle it: re-read the state before trying again. Which operation, at which step
   * (`leg N`: the signed leg whose answer was lost; `recovery`: the look-up that settles it failed
   * past the retry policy), the code and status of the answer that ended it (a spent request id's
   * 401, the relay's 403) and, for `recovery`, the look-up's code.
   */
  OUTCOME_UNKNOWN: {
    operation?: string;
    step: string;
    requestId?: string;
    code: string;
    status?: number;
    recoveryCode?: string;
  };
  /** The time budget ran out while the service was still processing. */
  PROCESSING_TIMEOUT: {
    operation?: string;
    /** The reads made, when it was a poll. */
    polls?: number;
    /** The last status read (`waitForTransaction`). */
    status?: string;
  };
  ABORTED: NoDetails;
  /** No answer: `sent: false` when the connection was refused, so nothing reached the relay. */
  NETWORK: { sent?: boolean };
  /**
   * A lazily loaded part of Signet could not load because of the JavaScript runtime, not the
   * network: `"dynamic-import"` (it cannot run `import()`, as Jest's CommonJS runtime) or
   * `"module-syntax"` (a part reached a CommonJS runtime without being transformed). The message
   * names the fix. Never retryable.
   */
  RUNTIME_UNSUPPORTED: { reason: "dynamic-import" | "module-syntax" };
  TIMEOUT: NoDetails;
  /** An answer of the wrong shape: the fields it lacks, or the resource it is about. */
  MALFORMED_RESPONSE: AnswerErrorDetails & {
    missing?: readonly string[];
    quoteId?: string;
    field?: string;
  };
  /** An answer with a status the call does not expect. */
  UNEXPECTED_STATUS: AnswerErrorDetails;
  /**
   * `@signet/frame`: the signer frame, or the page's side of its channel, refused a message or a
   * request, and nothing was signed. `reason`: `origin` (a message from an origin or window it
   * does not talk to), `unexpected` (a message of no known kind or version, or an answer nothing
   * asked for), `replay` (a request id seen before), `busy` (a confirmation is already waiting),
   * `unsupported` (an operation this frame does not sign yet), `check` (the payload failed the
   * operation's check; `cause` says why), `key` (a key the frame does not hold), `passkey` (a
   * passkey add of an attestation the frame's own ceremony did not make), `kind` (a removal of no
   * kind of sign-in method the frame knows), `declined` (the user closed the confirmation),
   * `obscured` (a click while the frame was covered or had just appeared), `unframed` (the frame
   * page was opened alone or by another origin).
   */
  FRAME_REFUSED: {
    reason: string;
    /** The operation asked for, when the request named one. */
    operation?: string;
  };
  /** `@signet/frame`: the signer frame did not load or answer in time (`timeoutMs`). */
  FRAME_UNAVAILABLE: { timeoutMs?: number };
  /** `@signet/react`: a hook ran outside `<SignetProvider>`. */
  PROVIDER_MISSING: NoDetails;
  /**
   * `@signet/react`: something that is not a `SignetError` was thrown inside a hook's call (an
   * app callback, a bug); the thrown value is the `cause`.
   */
  UNEXPECTED_ERROR: NoDetails;
};

/** The `details` of every code this version knows, by code. */
export type SignetErrorDetailsMap = ServiceErrorDetailsMap &
  RelayErrorDetailsMap &
  WebAuthnErrorDetailsMap &
  ClientErrorDetailsMap;

/** Codes the service returns on the wallet paths (docs/protocol.md §1). */
export type ServiceErrorCode = keyof ServiceErrorDetailsMap;

/** What a passkey ceremony can end in (`toWebAuthnError`). */
export type WebAuthnErrorCode = keyof WebAuthnErrorDetailsMap;

/** Codes raised by Signet itself, on the device or in the relay. */
export type ClientErrorCode = keyof ClientErrorDetailsMap | WebAuthnErrorCode | RelayErrorCode;

/**
 * Every code this version knows, in one set: the service's, the relay's and Signet's own (core
 * and `@signet/react`).
 */
export type KnownErrorCode = keyof SignetErrorDetailsMap;

/**
 * A stable error code. Unknown codes from a newer service version are kept as they came
 * (`string & {}` keeps autocompletion for the known ones).
 */
export type SignetErrorCode = KnownErrorCode | (string & {});
