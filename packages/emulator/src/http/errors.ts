// The service's flat error body `{ status, code, message, details? }` (docs/protocol.md §1, spec "Errors").
import type { FieldError } from "../validation.js";

/** Free-form error details; `errors` lists invalid fields on 400 `INVALID_INPUT`. */
export type ErrorDetails = Record<string, unknown>;

/**
 * A refusal the emulator answers with the service's flat error body. Handlers throw it before
 * mutating any state, so a refused request changes nothing.
 */
export class ServiceError extends Error {
  override readonly name = "ServiceError";
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetails | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    code: string,
    message: string,
    details?: ErrorDetails,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

/** 400 `INVALID_INPUT` naming every bad field. */
export function invalidInput(
  errors: FieldError[],
  message = "The request is invalid.",
): ServiceError {
  return new ServiceError(400, "INVALID_INPUT", message, { errors });
}

/** 400 `INVALID_INPUT` for a single field. */
export function invalidField(field: string, message: string): ServiceError {
  return invalidInput([{ field, message }], `${field} ${message}`);
}

/**
 * 404 for a resource id. The service's codes are specific (docs/protocol.md §10): `USER_NOT_FOUND`
 * for customers, `QUOTE_NOT_FOUND`, `TRANSACTION_NOT_FOUND`; for resources its list names no code
 * for (credentials, sessions, internal accounts, delegated keys, cards) the emulator answers
 * `REFERENCE_NOT_FOUND`, the one general code of that list.
 */
export function notFound(what: string, id?: string, code = "REFERENCE_NOT_FOUND"): ServiceError {
  return new ServiceError(404, code, `${what} not found.`, id ? { id } : undefined);
}

/**
 * 401 for an unusable `Request-Id`: the service has no dedicated code, so the emulator answers
 * `UNAUTHORIZED` with `details.reason` (`REQUEST_ID_UNKNOWN`, `REQUEST_ID_EXPIRED`,
 * `REQUEST_ID_ALREADY_USED`, `REQUEST_ID_MISMATCH`).
 */
export function requestIdRefused(reason: string, message: string): ServiceError {
  return new ServiceError(401, "UNAUTHORIZED", message, { reason });
}

/** 429 `RATE_LIMITED` with `Retry-After` in whole seconds (at least 1). */
export function rateLimited(retryAfterMs: number, message: string, reason: string): ServiceError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ServiceError(
    429,
    "RATE_LIMITED",
    message,
    { reason, retryAfterSeconds: seconds },
    { "Retry-After": String(seconds) },
  );
}
