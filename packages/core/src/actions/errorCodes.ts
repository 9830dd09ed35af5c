// What each action can throw, keyed by action name: the service operations it calls (their codes
// come from the OpenAPI, through the generated transport/operationErrorCodes.ts) and the client
// codes of the code paths it runs (the request, the signed-request engine, a held session, the
// device's crypto, a passkey ceremony, its own checks). Each action's `XErrorType` is
// `SignetError<ActionErrorCode<"x">>`. Only types leave this file: the runtime rows are for tests
// (actions/errorCodes.test.ts checks them against the OpenAPI, the emulator and the exports), so no
// bundle carries them.
import type {
  KnownErrorCode,
  RelayErrorCode,
  ServiceErrorCode,
  WebAuthnErrorCode,
} from "../errors.js";
import type { OperationErrorCode, ServiceOperation } from "../transport/operationErrorCodes.js";

/**
 * What any call that reaches the relay can end in besides the service's and the relay's codes
 * (every row with an operation gets `RelayErrorCode`): an argument check, no answer, an answer of
 * the wrong shape or status, a 404 with no body (`relayUrl` points at nothing), a chunk of Signet
 * that did not load (`NETWORK`).
 */
const REQUEST = [
  "INVALID_ARGUMENT",
  "NETWORK",
  "TIMEOUT",
  "ABORTED",
  "MALFORMED_RESPONSE",
  "UNEXPECTED_STATUS",
  "NOT_FOUND",
] as const satisfies readonly KnownErrorCode[];

/** What the signed-request engine adds (`transport/signedRequest.ts`, `checkedSigner.ts`). */
const SIGNED = [
  "CHALLENGE_EXPIRED",
  "CHALLENGE_INVALID",
  "PAYLOAD_MISMATCH",
  "PROCESSING_TIMEOUT",
] as const satisfies readonly KnownErrorCode[];

/** What the device's crypto can end in (keys, stamps, HPKE). */
const CRYPTO = [
  "INVALID_ARGUMENT",
  "ENCODING_INVALID",
  "KEY_INVALID",
  "POINT_INVALID",
  "DECRYPTION_FAILED",
  "CHECKSUM_INVALID",
  "CRYPTO_UNAVAILABLE",
] as const satisfies readonly KnownErrorCode[];

/** Finding, restoring and stamping with a held session (`session/sessionSigner.ts`). */
const SESSION = [
  "NO_SESSION",
  "SESSION_EXPIRED",
  "KEY_STORAGE_UNAVAILABLE",
  ...CRYPTO,
] as const satisfies readonly KnownErrorCode[];

/** Checking and opening a bundle from the service's enclave. */
const BUNDLE = [
  ...CRYPTO,
  "BUNDLE_MALFORMED",
  "BUNDLE_SIGNATURE_INVALID",
  "BUNDLE_SIGNER_UNTRUSTED",
  "BUNDLE_ORGANIZATION_MISMATCH",
] as const satisfies readonly KnownErrorCode[];

/** A request stamped by a held session through the engine. */
const SESSION_SIGNED = [...REQUEST, ...SIGNED, ...SESSION] as const;

/** The SCA login's operations, which `authorizeQuote` and `executeQuote` run when the service asks. */
const SCA_LOGIN = ["POST /sca/login/start", "POST /sca/login/complete"] as const;

/** One row: the service operations an action calls, and the client codes its code paths raise. */
export type ActionErrorRow = {
  readonly operations: readonly ServiceOperation[];
  /**
   * Service codes an operation answers although its OpenAPI schema does not list them, each with
   * its reason in docs/protocol.md ("Where the OpenAPI and these notes disagree").
   */
  readonly undocumented?: readonly ServiceErrorCode[];
  readonly client: readonly KnownErrorCode[];
  /** Runs a passkey ceremony: every `WebAuthnErrorCode` (`webauthn/errors.ts`). */
  readonly passkey?: true;
};

/**
 * What each action can throw, keyed by the action's exported name (the key a table of actions
 * joins on). Keep a row in step with its action's code: a new call, a new code path, a new check.
 */
export const ACTION_ERROR_CODES = {
  addCredential: { operations: ["POST /auth/credentials"], client: SESSION_SIGNED },
  addPasskey: { operations: ["POST /auth/credentials"], client: SESSION_SIGNED, passkey: true },
  authorizeQuote: {
    // The quote is read again after an authorize that went unanswered or got a 5xx: an expired
    // or failed quote is thrown as what it is.
    operations: [
      "POST /quotes/{quoteId}/authorize",
      "POST /quotes/{quoteId}/authorize/resend",
      "GET /quotes/{quoteId}",
      ...SCA_LOGIN,
    ],
    // The login's and the authorization's challenges lapse and are checked like a signed one's.
    client: [
      ...REQUEST,
      "CHALLENGE_EXPIRED",
      "PAYLOAD_MISMATCH",
      "SCA_LOGIN_FAILED",
      "SCA_ORIGIN_NOT_ALLOWED",
      "QUOTE_EXPIRED",
      "QUOTE_FAILED",
    ],
    passkey: true,
  },
  confirmContactVerification: {
    operations: [
      "POST /customers/{customerId}/verify-email/confirm",
      "POST /customers/{customerId}/verify-phone/confirm",
    ],
    client: REQUEST,
  },
  createDelegatedKey: { operations: ["POST /auth/delegated-keys"], client: SESSION_SIGNED },
  deleteScaFactor: { operations: ["DELETE /sca/factors/{credentialId}"], client: REQUEST },
  enrollScaPasskey: {
    operations: ["POST /sca/factors", "POST /sca/factors/confirm"],
    client: [...REQUEST, "SCA_ORIGIN_NOT_ALLOWED"],
    passkey: true,
  },
  executeQuote: {
    // The SCA login it runs when the service refuses the execute for want of one.
    operations: ["POST /quotes/{quoteId}/execute", ...SCA_LOGIN],
    undocumented: ["INSUFFICIENT_FUNDS"],
    client: [...SESSION_SIGNED, "QUOTE_EXPIRED", "SCA_LOGIN_FAILED", "SCA_ORIGIN_NOT_ALLOWED"],
    passkey: true,
  },
  exportWallet: {
    operations: ["POST /internal-accounts/{id}/export"],
    client: [...SESSION_SIGNED, ...BUNDLE],
  },
  getDelegatedKey: { operations: ["GET /auth/delegated-keys/{id}"], client: REQUEST },
  getQuote: { operations: ["GET /quotes/{quoteId}"], client: REQUEST },
  // Reads the device's key store only.
  getSession: {
    operations: [],
    client: ["INVALID_ARGUMENT", "KEY_STORAGE_UNAVAILABLE", "KEY_INVALID"],
  },
  listCredentials: { operations: ["GET /auth/credentials"], client: REQUEST },
  listDelegatedKeys: { operations: ["GET /auth/delegated-keys"], client: REQUEST },
  listInternalAccounts: { operations: ["GET /customers/internal-accounts"], client: REQUEST },
  listScaFactors: { operations: ["GET /sca/factors"], client: REQUEST },
  listSessions: { operations: ["GET /auth/sessions"], client: REQUEST },
  listTransactions: { operations: ["GET /transactions"], client: REQUEST },
  preparePasskeySignIn: {
    operations: ["POST /auth/credentials/{id}/challenge"],
    client: [...REQUEST, ...CRYPTO, "CHALLENGE_INVALID", "PROCESSING_TIMEOUT"],
  },
  recordSecurityEvent: { operations: ["POST /sca/record-event"], client: REQUEST },
  refreshSession: {
    // The DELETE revokes the new session when a sign-out raced the refresh.
    operations: ["POST /auth/sessions/{id}/refresh", "DELETE /auth/sessions/{id}"],
    client: SESSION_SIGNED,
  },
  requestOtp: {
    operations: ["POST /auth/credentials/{id}/challenge"],
    client: [...REQUEST, "PROCESSING_TIMEOUT"],
  },
  resendQuoteAuthorization: {
    operations: ["POST /quotes/{quoteId}/authorize/resend"],
    client: REQUEST,
  },
  revokeCredential: { operations: ["DELETE /auth/credentials/{id}"], client: SESSION_SIGNED },
  revokeDelegatedKey: { operations: ["DELETE /auth/delegated-keys/{id}"], client: REQUEST },
  revokeSession: { operations: ["DELETE /auth/sessions/{id}"], client: SESSION_SIGNED },
  scaLogin: {
    operations: SCA_LOGIN,
    client: [
      ...REQUEST,
      "CHALLENGE_EXPIRED",
      "PAYLOAD_MISMATCH",
      "SCA_LOGIN_FAILED",
      "SCA_ORIGIN_NOT_ALLOWED",
    ],
    passkey: true,
  },
  signInWithOAuth: {
    operations: ["POST /auth/credentials/{id}/verify"],
    client: [...REQUEST, ...CRYPTO, "KEY_STORAGE_UNAVAILABLE"],
  },
  signInWithPasskey: {
    // The refresh proves at once that the session is the device's key's.
    operations: [
      "POST /auth/credentials/{id}/challenge",
      "POST /auth/credentials/{id}/verify",
      "POST /auth/sessions/{id}/refresh",
    ],
    client: [...REQUEST, ...SIGNED, ...BUNDLE, "KEY_STORAGE_UNAVAILABLE", "SESSION_KEY_MISMATCH"],
    passkey: true,
  },
  signOut: { operations: ["DELETE /auth/sessions/{id}"], client: SESSION_SIGNED },
  startContactVerification: {
    operations: [
      "POST /customers/{customerId}/verify-email",
      "POST /customers/{customerId}/verify-phone",
    ],
    client: REQUEST,
  },
  updateCustomerContact: {
    operations: ["PATCH /customers/{customerId}"],
    client: SESSION_SIGNED,
  },
  updateWalletPrivacy: { operations: ["PATCH /internal-accounts/{id}"], client: SESSION_SIGNED },
  verifyOtp: {
    // Signed by the one-time key made for the call, not by a held session.
    operations: ["POST /auth/credentials/{id}/verify"],
    client: [...REQUEST, ...SIGNED, ...BUNDLE, "KEY_STORAGE_UNAVAILABLE"],
  },
  waitForTransaction: {
    operations: ["GET /transactions/{transactionId}"],
    client: [...REQUEST, "PROCESSING_TIMEOUT"],
  },
} as const satisfies Record<string, ActionErrorRow>;

/** An action named in `ACTION_ERROR_CODES` (its row of codes). */
export type ErrorCodedAction = keyof typeof ACTION_ERROR_CODES;

type Row<TAction extends ErrorCodedAction> = (typeof ACTION_ERROR_CODES)[TAction];

/**
 * The codes an action can throw: the service's codes for the operations it calls (the OpenAPI's
 * per-status enums, kept to the codes a wallet path answers, `ServiceErrorCode`), the codes those
 * operations answer beyond their schema, the relay's codes when it calls any, the client codes of
 * its code paths, and the passkey codes when it runs a ceremony.
 */
export type ActionErrorCode<TAction extends ErrorCodedAction> =
  | Extract<OperationErrorCode<Row<TAction>["operations"][number]>, ServiceErrorCode>
  | (Row<TAction> extends { undocumented: readonly (infer U)[] } ? U : never)
  | (Row<TAction>["operations"] extends readonly [] ? never : RelayErrorCode)
  | Row<TAction>["client"][number]
  | (Row<TAction> extends { passkey: true } ? WebAuthnErrorCode : never);
