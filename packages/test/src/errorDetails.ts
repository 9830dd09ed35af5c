// The fields each error code's `details` may carry, as values a test can check at run time. The
// table's type is derived from core's `SignetErrorDetailsMap`, so it cannot drift: a code without
// a row, a field of a code's type without an entry, or an entry for a field the type does not
// have fails `pnpm typecheck`.
import { expect } from "vitest";
import type { KnownErrorCode, SignetError, SignetErrorDetailsMap } from "../../core/src/index.js";

/** A field's type at run time; `?` when the field may be absent. */
export type FieldKind =
  | "string"
  | "string?"
  | "number"
  | "number?"
  | "boolean?"
  | "string|null?"
  | "string[]"
  | "string[]?"
  | "fieldErrors?";

type Fields<TCode extends KnownErrorCode> = {
  readonly [K in keyof SignetErrorDetailsMap[TCode]]-?: FieldKind;
};

const answer = {
  retryAfterMs: "number?",
  operation: "string?",
  requestId: "string?",
  ambiguousResend: "boolean?",
} as const;
const reason = { ...answer, reason: "string?" } as const;
const passkey = {
  ceremony: "string?",
  name: "string?",
  webauthnCode: "string?",
  native: "string?",
  rpId: "string?",
  hostname: "string?",
  timeoutMs: "number?",
  elapsedMs: "number?",
  conditional: "boolean?",
} as const;

/** Every known code, with the fields its `details` may carry. */
export const DETAIL_FIELDS: { readonly [TCode in KnownErrorCode]: Fields<TCode> } = {
  INVALID_INPUT: {
    ...reason,
    errors: "fieldErrors?",
    field: "string?",
    parameter: "string?",
    header: "string?",
    oneOf: "string[]?",
  },
  UNAUTHORIZED: reason,
  INVALID_SIGNATURE: answer,
  WALLET_SIGNATURE_MISSING: answer,
  WALLET_SIGNATURE_MALFORMED: answer,
  WALLET_SIGNATURE_BODY_MISMATCH: answer,
  WALLET_SIGNATURE_INVALID: answer,
  REQUEST_ID_MISSING: answer,
  FORBIDDEN: answer,
  USER_NOT_READY: answer,
  VELOCITY_LIMIT_EXCEEDED: answer,
  RATE_LIMITED: { ...answer, retryAfterSeconds: "number?" },
  DAILY_VOLUME_LIMIT_EXCEEDED: answer,
  REFERENCE_NOT_FOUND: answer,
  QUOTE_NOT_FOUND: answer,
  TRANSACTION_NOT_FOUND: answer,
  USER_NOT_FOUND: answer,
  CUSTOMER_DELETED: answer,
  CONFLICT: reason,
  SCA_SESSION_REQUIRED: answer,
  PASSKEY_ALREADY_ENROLLED: answer,
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: answer,
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: answer,
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: answer,
  EMAIL_OTP_EMAIL_ALREADY_EXISTS: answer,
  EMAIL_OTP_CREDENTIAL_SET_CHANGED: answer,
  EMAIL_OTP_CREDENTIAL_SYNC_FAILED: answer,
  SMS_OTP_PHONE_ALREADY_EXISTS: answer,
  SMS_OTP_CREDENTIAL_SET_CHANGED: answer,
  SMS_OTP_CREDENTIAL_SYNC_FAILED: answer,
  CONTACT_CHANGE_PENDING: { ...answer, contactChangeId: "string?" },
  CONTACT_CHANGE_NOT_AWAITING_SIGNATURE: answer,
  AUTH_CREDENTIAL_OPERATION_IN_FLIGHT: answer,
  INSUFFICIENT_FUNDS: answer,
  QUOTE_REQUEST_FAILED: answer,
  TRANSACTION_SIZE_LIMIT_EXCEEDED: answer,
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED: answer,
  ACCOUNT_LOCKED: {
    ...answer,
    lockedUntil: "string|null?",
    failedAttempts: "number?",
    suspended: "boolean?",
  },
  END_USER_TERMS_NOT_ACCEPTED: answer,
  INVALID_STATE_TRANSITION: answer,
  NOT_IMPLEMENTED: answer,
  GRID_SWITCH_ERROR: answer,
  INTERNAL_ERROR: answer,
  RELAY_UNAUTHENTICATED: answer,
  RELAY_FORBIDDEN: { ...answer, field: "string?", kind: "string?", allowedFields: "string[]?" },
  RELAY_NOT_FOUND: answer,
  METHOD_NOT_ALLOWED: { ...answer, allow: "string[]?" },
  PAYLOAD_TOO_LARGE: { ...answer, maxBodyBytes: "number?" },
  UNSUPPORTED_MEDIA_TYPE: answer,
  UPSTREAM_UNAVAILABLE: { ...answer, lookupStatus: "number?" },
  RELAY_STORE_UNAVAILABLE: { ...answer, retryAfterSeconds: "number?", reason: "string?" },
  UPSTREAM_TIMEOUT: { ...answer, timeoutMs: "number?" },
  RELAY_MISCONFIGURED: { ...answer, option: "string?", reason: "string?" },
  WEBAUTHN_UNSUPPORTED: passkey,
  WEBAUTHN_CANCELLED: passkey,
  WEBAUTHN_TIMEOUT: passkey,
  WEBAUTHN_INVALID_STATE: passkey,
  WEBAUTHN_SECURITY: passkey,
  WEBAUTHN_RP_ID_INVALID: passkey,
  WEBAUTHN_DOMAIN_INVALID: passkey,
  WEBAUTHN_FAILED: passkey,
  WEBAUTHN_WRONG_CREDENTIAL: { ...passkey, expected: "string?", used: "string?" },
  INVALID_ARGUMENT: {},
  NOT_FOUND: answer,
  QUOTE_EXPIRED: { quoteId: "string" },
  QUOTE_FAILED: { quoteId: "string", status: "string" },
  SCA_LOGIN_FAILED: { status: "string" },
  SCA_ORIGIN_NOT_ALLOWED: { origin: "string", allowedOrigins: "string[]" },
  ENCODING_INVALID: passkey,
  KEY_INVALID: {},
  POINT_INVALID: {},
  SIGNATURE_INVALID: {},
  DECRYPTION_FAILED: {},
  CHECKSUM_INVALID: {},
  BUNDLE_MALFORMED: {},
  BUNDLE_SIGNATURE_INVALID: {},
  BUNDLE_SIGNER_UNTRUSTED: {},
  BUNDLE_ORGANIZATION_MISMATCH: {},
  CRYPTO_UNAVAILABLE: { missing: "string?" },
  KEY_STORAGE_UNAVAILABLE: {},
  KEY_NOT_FOUND: {},
  SESSION_EXPIRED: { accountId: "string", sessionId: "string", code: "string?" },
  NO_SESSION: { accountId: "string?", sessionId: "string?" },
  FRAME_REFUSED: { reason: "string", operation: "string?" },
  FRAME_UNAVAILABLE: { timeoutMs: "number?" },
  STEP_UP_REQUIRED: {
    action: "string",
    verifiedAt: "string?",
    maxAgeMs: "number",
    accountId: "string?",
  },
  SESSION_KEY_MISMATCH: { accountId: "string", sessionId: "string" },
  CHALLENGE_EXPIRED: { requestId: "string?", expiresAt: "string?", operation: "string?" },
  CHALLENGE_INVALID: {
    field: "string?",
    requestId: "string?",
    maxLegs: "number?",
    operation: "string?",
  },
  PAYLOAD_MISMATCH: {
    operation: "string",
    signature: "number",
    field: "string",
    activityType: "string?",
  },
  PROCESSING_TIMEOUT: { operation: "string?", polls: "number?", status: "string?" },
  OUTCOME_UNKNOWN: {
    operation: "string?",
    step: "string",
    requestId: "string?",
    code: "string",
    status: "number?",
    recoveryCode: "string?",
  },
  ABORTED: {},
  NETWORK: { sent: "boolean?" },
  RUNTIME_UNSUPPORTED: { reason: "string" },
  TIMEOUT: {},
  MALFORMED_RESPONSE: { ...answer, missing: "string[]?", quoteId: "string?", field: "string?" },
  UNEXPECTED_STATUS: answer,
  PROVIDER_MISSING: {},
  UNEXPECTED_ERROR: {},
};

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value))
    return value.every((item) => typeof item === "string")
      ? "string[]"
      : value.every((item) => typeof item?.field === "string")
        ? "fieldErrors"
        : "array";
  return typeof value;
}

/**
 * Checks an error's `details` against its code's row: every field it carries is listed for the
 * code, with a value of the listed kind, and every field the row requires is there. `open`: the
 * service may send fields its OpenAPI does not name, which Signet passes on untyped; only the
 * listed ones are judged then.
 */
export function expectDocumentedDetails(error: SignetError, open = false): void {
  const row = (DETAIL_FIELDS as Record<string, Record<string, FieldKind>>)[String(error.code)];
  expect(row, `${String(error.code)} is a code of this version`).toBeDefined();
  const details = error.details as Record<string, unknown>;
  for (const [field, value] of Object.entries(details)) {
    const kind = row?.[field];
    if (kind === undefined) {
      if (!open)
        expect.fail(`${String(error.code)} carries "${field}", which its type does not list`);
      continue;
    }
    const allowed = kind.replace("?", "").split("|");
    expect(allowed, `${String(error.code)}.details.${field}`).toContain(kindOf(value));
  }
  for (const [field, kind] of Object.entries(row ?? {}))
    if (!kind.endsWith("?"))
      expect(details, `${String(error.code)} needs ${field}`).toHaveProperty(field);
}
