/**
 * The one error type of Signet. Every failure, local or from the service, is a `SignetError`
 * with a stable `code`; messages are short and never carry key material, OTP codes,
 * mnemonics, stamps or platform secrets.
 */

import type {
  AnswerErrorDetails,
  KnownErrorCode,
  SignetErrorCode,
  SignetErrorDetailsMap,
} from "./codes.js";
import { defined } from "./defined.js";

export type {
  AnswerErrorDetails,
  ClientErrorCode,
  ClientErrorDetailsMap,
  FieldErrorDetails,
  KnownErrorCode,
  NoDetails,
  ReasonDetails,
  RelayErrorCode,
  RelayErrorDetailsMap,
  ServiceErrorCode,
  ServiceErrorDetailsMap,
  SignetErrorCode,
  SignetErrorDetailsMap,
  WebAuthnErrorCode,
  WebAuthnErrorDetails,
  WebAuthnErrorDetailsMap,
} from "./codes.js";
export type {
  BundleErrorCode,
  CryptoErrorCode,
  RequestErrorCode,
  SessionErrorCode,
  SessionSignedErrorCode,
  SignedRequestErrorCode,
} from "./errorGroups.js";

/**
 * The `details` of a code this version does not know (a newer service's): whatever its answer
 * carried, and what the request adds.
 */
export type UnknownCodeDetails = AnswerErrorDetails & { readonly [field: string]: unknown };

/**
 * The `details` of an error with code `TCode`: its closed shape in {@link SignetErrorDetailsMap}
 * (codes.ts), so that checking `code` types `details` and a field the code does not carry is a
 * type error; {@link UnknownCodeDetails} for a code this version does not know.
 *
 * @example
 * ```ts
 * const wait = (details: SignetErrorDetails<"RATE_LIMITED">) => details.retryAfterMs ?? 1000;
 * ```
 */
export type SignetErrorDetails<TCode extends SignetErrorCode = SignetErrorCode> =
  TCode extends KnownErrorCode ? SignetErrorDetailsMap[TCode] : UnknownCodeDetails;

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
 * A field of an error's `details` whatever its code, as `unknown`: for code that handles every
 * code alike (the retry policy reads `retryAfterMs` of any answer). Code that knows the code
 * narrows on it instead and reads the typed field.
 */
export function detailOf(error: SignetError, field: string): unknown {
  return (error.details as Readonly<Record<string, unknown>>)[field];
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
