// Type tests (checked by `pnpm typecheck`; the runtime part only confirms the file loads): every
// action has `XParameters` (with the per-call `onEvent`), `XReturnType` and a checked `XErrorType`.
import { describe, expectTypeOf, it } from "vitest";
import type {
  AddCredentialErrorType,
  AddCredentialParameters,
  AddCredentialReturnType,
  AddPasskeyErrorType,
  AddPasskeyParameters,
  AddPasskeyReturnType,
  AuthorizeQuoteErrorType,
  AuthorizeQuoteParameters,
  AuthorizeQuoteReturnType,
  BundleErrorCode,
  ConfirmContactVerificationErrorType,
  ConfirmContactVerificationParameters,
  ConfirmContactVerificationReturnType,
  CreateDelegatedKeyErrorType,
  CreateDelegatedKeyParameters,
  CreateDelegatedKeyReturnType,
  DeleteScaFactorErrorType,
  DeleteScaFactorParameters,
  DeleteScaFactorReturnType,
  EnrollScaPasskeyErrorType,
  EnrollScaPasskeyParameters,
  EnrollScaPasskeyReturnType,
  EventSink,
  ExecuteQuoteErrorType,
  ExecuteQuoteParameters,
  ExecuteQuoteReturnType,
  ExportWalletErrorType,
  ExportWalletParameters,
  ExportWalletReturnType,
  GetDelegatedKeyErrorType,
  GetDelegatedKeyParameters,
  GetDelegatedKeyReturnType,
  GetQuoteErrorType,
  GetQuoteParameters,
  GetQuoteReturnType,
  GetSessionErrorType,
  GetSessionParameters,
  GetSessionReturnType,
  KnownErrorCode,
  ListCredentialsErrorType,
  ListCredentialsParameters,
  ListCredentialsReturnType,
  ListDelegatedKeysErrorType,
  ListDelegatedKeysParameters,
  ListDelegatedKeysReturnType,
  ListInternalAccountsErrorType,
  ListInternalAccountsParameters,
  ListInternalAccountsReturnType,
  ListScaFactorsErrorType,
  ListScaFactorsParameters,
  ListScaFactorsReturnType,
  ListSessionsErrorType,
  ListSessionsParameters,
  ListSessionsReturnType,
  ListTransactionsErrorType,
  ListTransactionsParameters,
  ListTransactionsReturnType,
  PreparePasskeySignInErrorType,
  PreparePasskeySignInParameters,
  PreparePasskeySignInReturnType,
  RecordSecurityEventErrorType,
  RecordSecurityEventParameters,
  RecordSecurityEventReturnType,
  RefreshSessionErrorType,
  RefreshSessionParameters,
  RefreshSessionReturnType,
  RelayErrorCode,
  RequestOtpErrorType,
  RequestOtpParameters,
  RequestOtpReturnType,
  ResendQuoteAuthorizationErrorType,
  ResendQuoteAuthorizationParameters,
  ResendQuoteAuthorizationReturnType,
  RevokeCredentialErrorType,
  RevokeCredentialParameters,
  RevokeCredentialReturnType,
  RevokeDelegatedKeyErrorType,
  RevokeDelegatedKeyParameters,
  RevokeDelegatedKeyReturnType,
  RevokeSessionErrorType,
  RevokeSessionParameters,
  RevokeSessionReturnType,
  ScaLoginErrorType,
  ScaLoginParameters,
  ScaLoginReturnType,
  SignetError,
  SignetErrorDetails,
  SignInWithOAuthErrorType,
  SignInWithOAuthParameters,
  SignInWithOAuthReturnType,
  SignInWithPasskeyErrorType,
  SignInWithPasskeyParameters,
  SignInWithPasskeyReturnType,
  SignOutErrorType,
  SignOutParameters,
  SignOutReturnType,
  StartContactVerificationErrorType,
  StartContactVerificationParameters,
  StartContactVerificationReturnType,
  UpdateCustomerContactErrorType,
  UpdateCustomerContactParameters,
  UpdateCustomerContactReturnType,
  UpdateWalletPrivacyErrorType,
  UpdateWalletPrivacyParameters,
  UpdateWalletPrivacyReturnType,
  VerifyOtpErrorType,
  VerifyOtpParameters,
  VerifyOtpReturnType,
  WaitForTransactionErrorType,
  WaitForTransactionParameters,
  WaitForTransactionReturnType,
  WebAuthnErrorCode,
} from "../index.js";
import * as core from "../index.js";
import type { ActionErrorCode } from "./errorCodes.js";

/** Each action with its three exported types. */
type Declared = {
  addCredential: [AddCredentialParameters, AddCredentialReturnType, AddCredentialErrorType];
  addPasskey: [AddPasskeyParameters, AddPasskeyReturnType, AddPasskeyErrorType];
  authorizeQuote: [AuthorizeQuoteParameters, AuthorizeQuoteReturnType, AuthorizeQuoteErrorType];
  createDelegatedKey: [
    CreateDelegatedKeyParameters,
    CreateDelegatedKeyReturnType,
    CreateDelegatedKeyErrorType,
  ];
  executeQuote: [ExecuteQuoteParameters, ExecuteQuoteReturnType, ExecuteQuoteErrorType];
  exportWallet: [ExportWalletParameters, ExportWalletReturnType, ExportWalletErrorType];
  getDelegatedKey: [GetDelegatedKeyParameters, GetDelegatedKeyReturnType, GetDelegatedKeyErrorType];
  getQuote: [GetQuoteParameters, GetQuoteReturnType, GetQuoteErrorType];
  getSession: [GetSessionParameters, GetSessionReturnType, GetSessionErrorType];
  listCredentials: [ListCredentialsParameters, ListCredentialsReturnType, ListCredentialsErrorType];
  listDelegatedKeys: [
    ListDelegatedKeysParameters,
    ListDelegatedKeysReturnType,
    ListDelegatedKeysErrorType,
  ];
  listInternalAccounts: [
    ListInternalAccountsParameters | undefined,
    ListInternalAccountsReturnType,
    ListInternalAccountsErrorType,
  ];
  listSessions: [ListSessionsParameters, ListSessionsReturnType, ListSessionsErrorType];
  preparePasskeySignIn: [
    PreparePasskeySignInParameters,
    PreparePasskeySignInReturnType,
    PreparePasskeySignInErrorType,
  ];
  refreshSession: [RefreshSessionParameters, RefreshSessionReturnType, RefreshSessionErrorType];
  requestOtp: [RequestOtpParameters, RequestOtpReturnType, RequestOtpErrorType];
  resendQuoteAuthorization: [
    ResendQuoteAuthorizationParameters,
    ResendQuoteAuthorizationReturnType,
    ResendQuoteAuthorizationErrorType,
  ];
  revokeCredential: [
    RevokeCredentialParameters,
    RevokeCredentialReturnType,
    RevokeCredentialErrorType,
  ];
  revokeDelegatedKey: [
    RevokeDelegatedKeyParameters,
    RevokeDelegatedKeyReturnType,
    RevokeDelegatedKeyErrorType,
  ];
  revokeSession: [RevokeSessionParameters, RevokeSessionReturnType, RevokeSessionErrorType];
  signInWithOAuth: [SignInWithOAuthParameters, SignInWithOAuthReturnType, SignInWithOAuthErrorType];
  signInWithPasskey: [
    SignInWithPasskeyParameters,
    SignInWithPasskeyReturnType,
    SignInWithPasskeyErrorType,
  ];
  signOut: [SignOutParameters, SignOutReturnType, SignOutErrorType];
  updateCustomerContact: [
    UpdateCustomerContactParameters,
    UpdateCustomerContactReturnType,
    UpdateCustomerContactErrorType,
  ];
  confirmContactVerification: [
    ConfirmContactVerificationParameters,
    ConfirmContactVerificationReturnType,
    ConfirmContactVerificationErrorType,
  ];
  deleteScaFactor: [DeleteScaFactorParameters, DeleteScaFactorReturnType, DeleteScaFactorErrorType];
  enrollScaPasskey: [
    EnrollScaPasskeyParameters | undefined,
    EnrollScaPasskeyReturnType,
    EnrollScaPasskeyErrorType,
  ];
  listScaFactors: [
    ListScaFactorsParameters | undefined,
    ListScaFactorsReturnType,
    ListScaFactorsErrorType,
  ];
  listTransactions: [
    ListTransactionsParameters | undefined,
    ListTransactionsReturnType,
    ListTransactionsErrorType,
  ];
  recordSecurityEvent: [
    RecordSecurityEventParameters,
    RecordSecurityEventReturnType,
    RecordSecurityEventErrorType,
  ];
  scaLogin: [ScaLoginParameters, ScaLoginReturnType, ScaLoginErrorType];
  startContactVerification: [
    StartContactVerificationParameters,
    StartContactVerificationReturnType,
    StartContactVerificationErrorType,
  ];
  updateWalletPrivacy: [
    UpdateWalletPrivacyParameters,
    UpdateWalletPrivacyReturnType,
    UpdateWalletPrivacyErrorType,
  ];
  verifyOtp: [VerifyOtpParameters, VerifyOtpReturnType, VerifyOtpErrorType];
  waitForTransaction: [
    WaitForTransactionParameters,
    WaitForTransactionReturnType,
    WaitForTransactionErrorType,
  ];
};

type Action = (client: never, parameters: never) => Promise<unknown>;

/** The actions of the public API: functions whose first parameter is a client. */
type ActionName = {
  [K in keyof typeof core]: (typeof core)[K] extends Action
    ? Parameters<(typeof core)[K]>[0] extends core.SignetClient
      ? K
      : never
    : never;
}[keyof typeof core];

describe("action types", () => {
  it("every action's parameters take a per-call onEvent (getSession makes no request)", () => {
    type WithoutEvents = Exclude<ActionName, "getSession">;
    type Sinks = {
      [K in WithoutEvents]: Parameters<(typeof core)[K]>[1] extends { onEvent?: infer S }
        ? S
        : never;
    };
    expectTypeOf<Sinks[WithoutEvents]>().toEqualTypeOf<EventSink | undefined>();
    expectTypeOf<ExecuteQuoteParameters["signal"]>().toEqualTypeOf<AbortSignal | undefined>();
  });

  it("void actions name their return type", () => {
    expectTypeOf(core.revokeSession).returns.resolves.toEqualTypeOf<RevokeSessionReturnType>();
    expectTypeOf(core.signOut).returns.resolves.toEqualTypeOf<SignOutReturnType>();
    expectTypeOf<SignOutReturnType>().toEqualTypeOf<undefined>();
  });

  it("error types are unions of known codes, and narrow", () => {
    expectTypeOf<ExecuteQuoteErrorType["code"]>().toExtend<KnownErrorCode>();
    expectTypeOf<SignInWithPasskeyErrorType["code"]>().toExtend<KnownErrorCode>();
    expectTypeOf<"NO_SESSION">().toExtend<ExecuteQuoteErrorType["code"]>();
    expectTypeOf<"CONFLICT">().toExtend<ExecuteQuoteErrorType["code"]>();
    expectTypeOf<"INSUFFICIENT_FUNDS">().toExtend<ExecuteQuoteErrorType["code"]>();
    expectTypeOf<"QUOTE_EXPIRED">().toExtend<ExecuteQuoteErrorType["code"]>();
    // The SCA login a quote execute may run (SCA_SESSION_REQUIRED) can be a passkey ceremony.
    expectTypeOf<"WEBAUTHN_CANCELLED">().toExtend<ExecuteQuoteErrorType["code"]>();
    expectTypeOf<"BUNDLE_SIGNER_UNTRUSTED">().not.toExtend<ExecuteQuoteErrorType["code"]>();
    expectTypeOf<WebAuthnErrorCode>().toExtend<AddPasskeyErrorType["code"]>();
    expectTypeOf<BundleErrorCode>().toExtend<ExportWalletErrorType["code"]>();
    expectTypeOf<"PROCESSING_TIMEOUT">().toExtend<WaitForTransactionErrorType["code"]>();
    expectTypeOf<"NETWORK">().not.toExtend<GetSessionErrorType["code"]>();
    expectTypeOf<RelayErrorCode>().not.toExtend<GetSessionErrorType["code"]>();

    const narrow = (error: ExecuteQuoteErrorType) => {
      // @ts-expect-error: an export bundle's code cannot come out of a quote execute
      if (error.code === "BUNDLE_SIGNER_UNTRUSTED") return "never";
      return error.code === "NO_SESSION" ? "sign in" : "retry";
    };
    expectTypeOf(narrow).returns.toEqualTypeOf<"never" | "sign in" | "retry">();
  });

  it("each action's union holds only the codes its code can raise (actions/errorCodes.ts)", () => {
    // OTP sign-in never meets the SCA lock, a conflict or a held session.
    expectTypeOf<"ACCOUNT_LOCKED">().not.toExtend<VerifyOtpErrorType["code"]>();
    expectTypeOf<"CONFLICT">().not.toExtend<VerifyOtpErrorType["code"]>();
    expectTypeOf<"NO_SESSION">().not.toExtend<VerifyOtpErrorType["code"]>();
    expectTypeOf<"RATE_LIMITED" | "REFERENCE_NOT_FOUND">().toExtend<VerifyOtpErrorType["code"]>();
    const otp = (error: VerifyOtpErrorType) => {
      // @ts-expect-error: ACCOUNT_LOCKED is not among OTP sign-in's codes
      if (error.code === "ACCOUNT_LOCKED") return error;
      return error.code;
    };
    expectTypeOf(otp).toBeFunction();
    // The SCA lock is the SCA login's (a quote execute's too, which may run one) and the
    // authorization's, and the security event's.
    expectTypeOf<"ACCOUNT_LOCKED">().toExtend<ScaLoginErrorType["code"]>();
    expectTypeOf<"ACCOUNT_LOCKED">().toExtend<RecordSecurityEventErrorType["code"]>();
    expectTypeOf<"ACCOUNT_LOCKED">().toExtend<ExecuteQuoteErrorType["code"]>();
    expectTypeOf<"ACCOUNT_LOCKED">().not.toExtend<ListSessionsErrorType["code"]>();
    // Reads answer no 409, no signed-request code and no session code.
    expectTypeOf<"CONFLICT">().not.toExtend<ListSessionsErrorType["code"]>();
    expectTypeOf<"PAYLOAD_MISMATCH">().not.toExtend<ListSessionsErrorType["code"]>();
    expectTypeOf<"NO_SESSION">().not.toExtend<GetQuoteErrorType["code"]>();
    expectTypeOf<"QUOTE_NOT_FOUND">().toExtend<GetQuoteErrorType["code"]>();
    expectTypeOf<"INSUFFICIENT_FUNDS">().not.toExtend<GetQuoteErrorType["code"]>();
    // A contact change meets the OpenAPI's 424 on PATCH /customers/{id}.
    expectTypeOf<"EMAIL_OTP_CREDENTIAL_SYNC_FAILED">().toExtend<
      UpdateCustomerContactErrorType["code"]
    >();
    expectTypeOf<"EMAIL_OTP_CREDENTIAL_SYNC_FAILED">().not.toExtend<
      UpdateWalletPrivacyErrorType["code"]
    >();
    // Every request can meet the relay's own refusals.
    expectTypeOf<RelayErrorCode>().toExtend<GetQuoteErrorType["code"]>();
    expectTypeOf<RelayErrorCode>().toExtend<VerifyOtpErrorType["code"]>();
    // Passkey codes only where a ceremony runs.
    expectTypeOf<"WEBAUTHN_CANCELLED">().toExtend<EnrollScaPasskeyErrorType["code"]>();
    expectTypeOf<"WEBAUTHN_CANCELLED">().not.toExtend<VerifyOtpErrorType["code"]>();
    expectTypeOf<"WEBAUTHN_CANCELLED">().not.toExtend<SignInWithOAuthErrorType["code"]>();
  });

  it("PAYLOAD_MISMATCH is in every action that hands a payload to a signer", () => {
    type Signing =
      | AddCredentialErrorType
      | AddPasskeyErrorType
      | AuthorizeQuoteErrorType
      | CreateDelegatedKeyErrorType
      | ExecuteQuoteErrorType
      | ExportWalletErrorType
      | RefreshSessionErrorType
      | RevokeCredentialErrorType
      | RevokeSessionErrorType
      | ScaLoginErrorType
      | SignOutErrorType
      | UpdateCustomerContactErrorType
      | UpdateWalletPrivacyErrorType
      | VerifyOtpErrorType;
    type EveryOne<T> = T extends { code: infer C } ? ("PAYLOAD_MISMATCH" extends C ? true : T) : T;
    // Checked per action: a SignetErrorOf union has one member per code, so test the code unions.
    type Codes = {
      [K in
        | "addCredential"
        | "addPasskey"
        | "authorizeQuote"
        | "createDelegatedKey"
        | "executeQuote"
        | "exportWallet"
        | "refreshSession"
        | "revokeCredential"
        | "revokeSession"
        | "scaLogin"
        | "signOut"
        | "updateCustomerContact"
        | "updateWalletPrivacy"
        | "verifyOtp"]: "PAYLOAD_MISMATCH" extends ActionErrorCode<K> ? true : K;
    };
    expectTypeOf<Codes[keyof Codes]>().toEqualTypeOf<true>();
    expectTypeOf<EveryOne<Extract<Signing, { code: "PAYLOAD_MISMATCH" }>>>().toEqualTypeOf<true>();
    // Nothing is signed on a read, an OTP request or an OAuth sign-in.
    expectTypeOf<"PAYLOAD_MISMATCH">().not.toExtend<RequestOtpErrorType["code"]>();
    expectTypeOf<"PAYLOAD_MISMATCH">().not.toExtend<SignInWithOAuthErrorType["code"]>();
  });

  it("details are typed per code, and narrow with the code", () => {
    const read = (error: ExecuteQuoteErrorType) => {
      if (error.code === "RATE_LIMITED") return error.details.retryAfterMs;
      if (error.code === "PAYLOAD_MISMATCH") return error.details.field;
      if (error.code === "SESSION_EXPIRED") return error.details.sessionId;
      if (error.code === "QUOTE_EXPIRED") return error.details.quoteId;
      if (error.code === "CHALLENGE_EXPIRED") return error.details.expiresAt;
      if (error.code === "CONFLICT") return error.details.ambiguousResend;
      return undefined;
    };
    expectTypeOf(read).returns.toEqualTypeOf<string | number | boolean | undefined>();
    expectTypeOf<SignetErrorDetails<"SESSION_EXPIRED">>().toExtend<{
      accountId: string;
      sessionId: string;
    }>();
    expectTypeOf<SignetErrorDetails<"PAYLOAD_MISMATCH">["signature"]>().toEqualTypeOf<number>();
    // The OpenAPI's Error423: `lockedUntil` is null while the lock is a suspension.
    expectTypeOf<SignetErrorDetails<"ACCOUNT_LOCKED">["lockedUntil"]>().toEqualTypeOf<
      string | null | undefined
    >();
    // A code's details are closed: what it carries, nothing more (errorDetails.types.test.ts).
    expectTypeOf<SignetErrorDetails<"NETWORK">>().toEqualTypeOf<{ sent?: boolean }>();
    expectTypeOf<SignetError<"NETWORK">["details"]>().toEqualTypeOf<{ sent?: boolean }>();
    // Making one: a shape with required fields must be given them.
    // @ts-expect-error: SESSION_EXPIRED names its account and session
    new core.SignetError("SESSION_EXPIRED", "expired");
    // @ts-expect-error: and only with the right types
    new core.SignetError("SESSION_EXPIRED", "x", { details: { accountId: 1, sessionId: "s" } });
    expectTypeOf(new core.SignetError("NETWORK", "down").details).toEqualTypeOf<{
      sent?: boolean;
    }>();
  });

  it("an executed quote narrows on status to one that waits for authorization", () => {
    const next = (executed: ExecuteQuoteReturnType) => {
      if (executed.status === "PENDING_AUTHORIZATION") {
        expectTypeOf(executed.scaChallenge.purpose).toEqualTypeOf<string | null | undefined>();
        return executed.scaChallenge.factor;
      }
      expectTypeOf(executed.scaChallenge).toEqualTypeOf<undefined>();
      return executed.transactionId;
    };
    expectTypeOf(next).returns.toEqualTypeOf<string | undefined>();
    expectTypeOf<AuthorizeQuoteReturnType["status"]>().not.toExtend<"PENDING_AUTHORIZATION">();
    expectTypeOf<"SCA_SESSION_REQUIRED">().toExtend<AuthorizeQuoteErrorType["code"]>();
    expectTypeOf<"ACCOUNT_LOCKED">().toExtend<AuthorizeQuoteErrorType["code"]>();
    expectTypeOf<"RATE_LIMITED">().toExtend<AuthorizeQuoteErrorType["code"]>();
    expectTypeOf<"INVALID_INPUT">().toExtend<AuthorizeQuoteErrorType["code"]>();
  });

  it("every action exports XParameters, XReturnType and XErrorType, agreeing with the function", () => {
    expectTypeOf<ActionName>().toEqualTypeOf<keyof Declared>();
    type Agrees = {
      [K in ActionName]: [Parameters<(typeof core)[K]>[1]] extends [Declared[K][0]]
        ? [Awaited<ReturnType<(typeof core)[K]>>] extends [Declared[K][1]]
          ? [Declared[K][2]] extends [SignetError<KnownErrorCode>]
            ? true
            : K
          : K
        : K;
    };
    expectTypeOf<Agrees[ActionName]>().toEqualTypeOf<true>();
  });
});
