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
  RequestErrorCode,
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
  SessionSignedErrorCode,
  SignetError,
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
    expectTypeOf<ExecuteQuoteErrorType>().toEqualTypeOf<SignetError<SessionSignedErrorCode>>();
    expectTypeOf<ListSessionsErrorType>().toEqualTypeOf<SignetError<RequestErrorCode>>();
    expectTypeOf<"NO_SESSION">().toExtend<ExecuteQuoteErrorType["code"]>();
    expectTypeOf<"CONFLICT">().toExtend<ExecuteQuoteErrorType["code"]>();
    expectTypeOf<"WEBAUTHN_CANCELLED">().not.toExtend<ExecuteQuoteErrorType["code"]>();
    expectTypeOf<WebAuthnErrorCode>().toExtend<AddPasskeyErrorType["code"]>();
    expectTypeOf<BundleErrorCode>().toExtend<ExportWalletErrorType["code"]>();
    expectTypeOf<"PROCESSING_TIMEOUT">().toExtend<WaitForTransactionErrorType["code"]>();
    expectTypeOf<"NETWORK">().not.toExtend<GetSessionErrorType["code"]>();

    const narrow = (error: ExecuteQuoteErrorType) => {
      // @ts-expect-error: a passkey code cannot come out of a quote execute
      if (error.code === "WEBAUTHN_CANCELLED") return "never";
      return error.code === "NO_SESSION" ? "sign in" : "retry";
    };
    expectTypeOf(narrow).returns.toEqualTypeOf<"never" | "sign in" | "retry">();
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
