/**
 * The one error type of Signet. Every failure, local or from the service, is a `SignetError`
 * with a stable `code`; messages are short and never carry key material, OTP codes,
 * mnemonics, stamps or platform secrets.
 */

import type { ServiceErrorCode, SignetErrorCode } from "./codes.js";
import { defined } from "./defined.js";

export type {
  BundleErrorCode,
  ClientErrorCode,
  CryptoErrorCode,
  KnownErrorCode,
  RelayErrorCode,
  RequestErrorCode,
  ServiceErrorCode,
  SessionErrorCode,
  SessionSignedErrorCode,
  SignedRequestErrorCode,
  SignetErrorCode,
  WebAuthnErrorCode,
} from "./codes.js";

/**
 * Context a request adds to the error of an answer (`transport/responseError.ts` and the
 * signed-request engine): besides the service's own `details`, passed through with their strings
 * redacted.
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
  readonly [field: string]: unknown;
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
  readonly [field: string]: unknown;
};

/**
 * The shape of `details` for each code that carries fields, so that checking `code` types
 * `details`: `if (error.code === "RATE_LIMITED") wait(error.details.retryAfterMs)`. Every shape
 * stays an open plain object (the service may add fields); a code without an entry has
 * `Record<string, unknown>`. No field ever holds a key, an OTP code, a mnemonic, a stamp or a
 * platform secret.
 */
export type SignetErrorDetailsMap = {
  /** 429, from the service or the relay. */
  RATE_LIMITED: AnswerErrorDetails & { reason?: string; retryAfterSeconds?: number };
  /** 423: the SCA account is locked. */
  ACCOUNT_LOCKED: AnswerErrorDetails & {
    lockedUntil?: string;
    failedAttempts?: number;
    suspended?: boolean;
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
    readonly [field: string]: unknown;
  };
  /** The challenge lapsed before a terminal answer. */
  CHALLENGE_EXPIRED: {
    requestId?: string;
    /** The challenge's `expiresAt`, RFC 3339. */
    expiresAt?: string;
    operation?: string;
    readonly [field: string]: unknown;
  };
  /** A 202 whose challenge is not one to sign. */
  CHALLENGE_INVALID: {
    /** `payloadToSign`, `requestId` or `expiresAt`. */
    field?: string;
    requestId?: string;
    maxLegs?: number;
    operation?: string;
    readonly [field: string]: unknown;
  };
  /** The held session expired by both clocks. */
  SESSION_EXPIRED: { accountId: string; sessionId: string; readonly [field: string]: unknown };
  /** No usable session on this device for the account. */
  NO_SESSION: { accountId?: string; sessionId?: string; readonly [field: string]: unknown };
  /**
   * A signed send may have taken effect, its answer was lost, and the look-up that settles it
   * could not: which operation, at which step (`leg 2`: the signed leg whose answer was lost;
   * `recovery`: the look-up failed past the retry policy), the code that ended it (`code`,
   * `status`: a spent request id's 401, the relay's 403) and, for `recovery`, the look-up's code.
   */
  OUTCOME_UNKNOWN: {
    operation?: string;
    step: string;
    requestId?: string;
    code: string;
    status?: number;
    recoveryCode?: string;
    readonly [field: string]: unknown;
  };
  /** The time budget ran out while the service was still processing. */
  PROCESSING_TIMEOUT: { operation?: string; polls?: number; readonly [field: string]: unknown };
  QUOTE_EXPIRED: { quoteId: string; readonly [field: string]: unknown };
  QUOTE_FAILED: { quoteId: string; status: string; readonly [field: string]: unknown };
  SCA_LOGIN_FAILED: { status: string; readonly [field: string]: unknown };
  SCA_ORIGIN_NOT_ALLOWED: {
    origin: string;
    allowedOrigins: readonly string[];
    readonly [field: string]: unknown;
  };
  /** The passkey used is not the one the challenge named (base64url credential ids). */
  WEBAUTHN_WRONG_CREDENTIAL: WebAuthnErrorDetails & { expected?: string; used?: string };
  WEBAUTHN_CANCELLED: WebAuthnErrorDetails;
  WEBAUTHN_TIMEOUT: WebAuthnErrorDetails;
  WEBAUTHN_INVALID_STATE: WebAuthnErrorDetails;
  WEBAUTHN_SECURITY: WebAuthnErrorDetails;
  WEBAUTHN_RP_ID_INVALID: WebAuthnErrorDetails;
  WEBAUTHN_DOMAIN_INVALID: WebAuthnErrorDetails;
  WEBAUTHN_FAILED: WebAuthnErrorDetails;
  WEBAUTHN_UNSUPPORTED: WebAuthnErrorDetails;
  /** No secure random source or no WebCrypto: which one is `missing`. */
  CRYPTO_UNAVAILABLE: { missing?: string; readonly [field: string]: unknown };
  /** An answer of the wrong shape: the fields it lacks, or the resource it is about. */
  MALFORMED_RESPONSE: AnswerErrorDetails & { missing?: string[]; quoteId?: string; field?: string };
};

/**
 * The `details` of an error with code `TCode`: its shape in {@link SignetErrorDetailsMap}, or a
 * plain object for codes without one (the service's codes carry {@link AnswerErrorDetails}).
 *
 * @example
 * ```ts
 * const wait = (details: SignetErrorDetails<"RATE_LIMITED">) => details.retryAfterMs ?? 1000;
 * ```
 */
export type SignetErrorDetails<TCode extends SignetErrorCode = SignetErrorCode> =
  TCode extends keyof SignetErrorDetailsMap
    ? SignetErrorDetailsMap[TCode]
    : TCode extends ServiceErrorCode
      ? AnswerErrorDetails
      : Record<string, unknown>;

export type SignetErrorOptions<TCode extends SignetErrorCode = SignetErrorCode> = {
  /** HTTP status when the error came from the relay or the service. */
  status?: number | undefined;
  /** Whether repeating the same call may succeed. */
  retryable?: boolean | undefined;
  /**
   * Structured, secret-free context (field errors, request ids, limits), shaped per code
   * ({@link SignetErrorDetails}). Left out, `details` is `{}`.
   */
  details?: SignetErrorDetails<TCode> | undefined;
  /** The underlying error, passed through unchanged. */
  cause?: unknown;
};

// A code whose shape has required fields must be given them.
type SignetErrorArguments<TCode extends SignetErrorCode> =
  Record<string, never> extends SignetErrorDetails<TCode>
    ? [options?: SignetErrorOptions<TCode>]
    : [options: SignetErrorOptions<TCode> & { details: SignetErrorDetails<TCode> }];

/**
 * One `SignetError` per code of `TCode`, as a union, so that checking `code` narrows `details`
 * too (a `SignetError<"A" | "B">` has one `details` for both). Each action's `XErrorType` is one.
 *
 * @example
 * ```ts
 * const message = (error: SignetErrorOf<"RATE_LIMITED" | "NO_SESSION">) =>
 *   error.code === "RATE_LIMITED" ? `wait ${error.details.retryAfterMs} ms` : "sign in";
 * ```
 */
export type SignetErrorOf<TCode extends SignetErrorCode> = TCode extends unknown
  ? SignetError<TCode>
  : never;

/**
 * Base class of every error Signet throws. Generic over its code, so that each action's
 * `XErrorType` (`SignetError<"NO_SESSION" | …>`) lists what it can throw and `error.code`
 * narrows. The unions follow the service interface of this version; a newer service may answer
 * codes outside them, which arrive unchanged in `code`.
 *
 * @example
 * ```ts
 * try {
 *   await stampPayload(payload, key);
 * } catch (error) {
 *   if (error instanceof SignetError && error.code === "ENCODING_INVALID") showRetry();
 * }
 * ```
 */
export class SignetError<TCode extends SignetErrorCode = SignetErrorCode> extends Error {
  // A literal name: minifiers rename classes, so `constructor.name` is unreliable.
  override name = "SignetError" as const;
  readonly code: TCode;
  readonly status: number | undefined;
  readonly retryable: boolean;
  /** Secret-free context, shaped per code ({@link SignetErrorDetails}); `{}` when none was given. */
  readonly details: SignetErrorDetails<TCode>;

  /**
   * @throws never.
   */
  constructor(code: TCode, message: string, ...[options]: SignetErrorArguments<TCode>) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options?.status;
    this.retryable = options?.retryable ?? false;
    this.details = (options?.details ?? {}) as SignetErrorDetails<TCode>;
  }

  /** A JSON-safe view, for logs and devtools (the cause is left out). */
  toJSON(): {
    name: "SignetError";
    code: string;
    message: string;
    status?: number;
    retryable: boolean;
    details?: Record<string, unknown>;
  } {
    return defined({
      name: this.name,
      code: this.code as string,
      message: this.message,
      status: this.status,
      retryable: this.retryable,
      // An error made without details shows none, as before `details` defaulted to `{}`.
      details: Object.keys(this.details).length > 0 ? this.details : undefined,
    });
  }
}

/** True when `error` is a `SignetError`, optionally with the given code. */
export function isSignetError<TCode extends SignetErrorCode = SignetErrorCode>(
  error: unknown,
  code?: TCode,
): error is SignetError<TCode> {
  return error instanceof SignetError && (code === undefined || error.code === code);
}

/**
 * Argument check with noble's message template: `"publicKey" expected 33 bytes, got 65`.
 * @throws {SignetError} `INVALID_ARGUMENT` (or the given code) when `condition` is false.
 */
export function assertArgument(
  condition: unknown,
  name: string,
  expected: string,
  got: string,
  code: SignetErrorCode = "INVALID_ARGUMENT",
): asserts condition {
  if (!condition) throw new SignetError(code, `"${name}" expected ${expected}, got ${got}`);
}
