// The public API of `@signet/core`, named once (docs/architecture.md "Entry points"). Both entry
// points re-export all of it and add only their platform wiring: the crypto backend the contract
// functions run on, the default key store and WebAuthn provider, and platform-only exports.
// `test/crypto/entries.test.ts` snapshots the names of each entry, so any change shows in review.

export type {
  AddCredentialErrorType,
  AddCredentialParameters,
  AddCredentialReturnType,
} from "./actions/addCredential.js";
export {
  type AddPasskeyErrorType,
  type AddPasskeyParameters,
  type AddPasskeyReturnType,
  addPasskey,
} from "./actions/addPasskey.js";
export type {
  AuthorizeQuoteErrorType,
  AuthorizeQuoteParameters,
  AuthorizeQuoteReturnType,
  ConfirmedQuote,
  ScaChallengeContext,
  ScaProof,
} from "./actions/authorizeQuote.js";
export type {
  ConfirmContactVerificationErrorType,
  ConfirmContactVerificationParameters,
  ConfirmContactVerificationReturnType,
  ContactChannel,
  StartContactVerificationErrorType,
  StartContactVerificationParameters,
  StartContactVerificationReturnType,
} from "./actions/contactVerification.js";
export type {
  CreateDelegatedKeyErrorType,
  CreateDelegatedKeyParameters,
  CreateDelegatedKeyReturnType,
} from "./actions/createDelegatedKey.js";
export type { ActionErrorCode, ErrorCodedAction } from "./actions/errorCodes.js";
export {
  type ExecuteQuoteErrorType,
  type ExecuteQuoteParameters,
  type ExecuteQuoteReturnType,
  executeQuote,
} from "./actions/executeQuote.js";
export type {
  ExportWalletErrorType,
  ExportWalletParameters,
  ExportWalletReturnType,
} from "./actions/exportWallet.js";
export type {
  GetDelegatedKeyErrorType,
  GetDelegatedKeyParameters,
  GetDelegatedKeyReturnType,
} from "./actions/getDelegatedKey.js";
export {
  type GetQuoteErrorType,
  type GetQuoteParameters,
  type GetQuoteReturnType,
  getQuote,
} from "./actions/getQuote.js";
export {
  type GetSessionErrorType,
  type GetSessionParameters,
  type GetSessionReturnType,
  getSession,
} from "./actions/getSession.js";
export {
  authorizeQuote,
  deleteScaFactor,
  enrollScaPasskey,
  listScaFactors,
  recordSecurityEvent,
  scaLogin,
} from "./actions/lazy.js";
export {
  addCredential,
  confirmContactVerification,
  createDelegatedKey,
  exportWallet,
  getDelegatedKey,
  listCredentials,
  listDelegatedKeys,
  listTransactions,
  revokeCredential,
  revokeDelegatedKey,
  startContactVerification,
  updateCustomerContact,
  updateWalletPrivacy,
} from "./actions/lazyWallet.js";
export type {
  ListCredentialsErrorType,
  ListCredentialsParameters,
  ListCredentialsReturnType,
} from "./actions/listCredentials.js";
export type {
  ListDelegatedKeysErrorType,
  ListDelegatedKeysParameters,
  ListDelegatedKeysReturnType,
} from "./actions/listDelegatedKeys.js";
export {
  type ListInternalAccountsErrorType,
  type ListInternalAccountsParameters,
  type ListInternalAccountsReturnType,
  listInternalAccounts,
} from "./actions/listInternalAccounts.js";
export {
  type ListSessionsErrorType,
  type ListSessionsParameters,
  type ListSessionsReturnType,
  listSessions,
} from "./actions/listSessions.js";
export type {
  ListTransactionsErrorType,
  ListTransactionsParameters,
  ListTransactionsReturnType,
} from "./actions/listTransactions.js";
export {
  type QuotePayloadSummary,
  quotePayloadToSign,
  readQuotePayload,
} from "./actions/quotePayload.js";
export {
  type RefreshSessionErrorType,
  type RefreshSessionParameters,
  type RefreshSessionReturnType,
  refreshSession,
} from "./actions/refreshSession.js";
export {
  type RequestOtpErrorType,
  type RequestOtpParameters,
  type RequestOtpReturnType,
  requestOtp,
} from "./actions/requestOtp.js";
export {
  type ResendQuoteAuthorizationErrorType,
  type ResendQuoteAuthorizationParameters,
  type ResendQuoteAuthorizationReturnType,
  resendQuoteAuthorization,
} from "./actions/resendQuoteAuthorization.js";
export type {
  RevokeCredentialErrorType,
  RevokeCredentialParameters,
  RevokeCredentialReturnType,
} from "./actions/revokeCredential.js";
export type {
  RevokeDelegatedKeyErrorType,
  RevokeDelegatedKeyParameters,
  RevokeDelegatedKeyReturnType,
} from "./actions/revokeDelegatedKey.js";
export {
  type RevokeSessionErrorType,
  type RevokeSessionParameters,
  type RevokeSessionReturnType,
  revokeSession,
} from "./actions/revokeSession.js";
export type {
  DeleteScaFactorErrorType,
  DeleteScaFactorParameters,
  DeleteScaFactorReturnType,
  EnrollScaPasskeyErrorType,
  EnrollScaPasskeyParameters,
  EnrollScaPasskeyReturnType,
  ListScaFactorsErrorType,
  ListScaFactorsParameters,
  ListScaFactorsReturnType,
  RecordSecurityEventErrorType,
  RecordSecurityEventParameters,
  RecordSecurityEventReturnType,
  ScaFactorJson,
  SecurityEventType,
} from "./actions/scaFactors.js";
export { readPasskeyOptions } from "./actions/scaLedger.js";
export type {
  ScaLoginErrorType,
  ScaLoginFactor,
  ScaLoginParameters,
  ScaLoginReturnType,
} from "./actions/scaLogin.js";
export {
  type SignInWithOAuthErrorType,
  type SignInWithOAuthParameters,
  type SignInWithOAuthReturnType,
  signInWithOAuth,
} from "./actions/signInWithOAuth.js";
export {
  type PreparedPasskeySignIn,
  type PreparePasskeySignInErrorType,
  type PreparePasskeySignInParameters,
  type PreparePasskeySignInReturnType,
  preparePasskeySignIn,
  type SignInWithPasskeyErrorType,
  type SignInWithPasskeyParameters,
  type SignInWithPasskeyReturnType,
  signInWithPasskey,
} from "./actions/signInWithPasskey.js";
export {
  type SignOutErrorType,
  type SignOutParameters,
  type SignOutReturnType,
  signOut,
} from "./actions/signOut.js";
export type {
  UpdateCustomerContactErrorType,
  UpdateCustomerContactParameters,
  UpdateCustomerContactReturnType,
} from "./actions/updateCustomerContact.js";
export type {
  UpdateWalletPrivacyErrorType,
  UpdateWalletPrivacyParameters,
  UpdateWalletPrivacyReturnType,
} from "./actions/updateWalletPrivacy.js";
export {
  type VerifyOtpErrorType,
  type VerifyOtpParameters,
  type VerifyOtpReturnType,
  verifyOtp,
} from "./actions/verifyOtp.js";
export {
  DEFAULT_POLLING_INTERVAL_MS,
  type WaitForTransactionErrorType,
  type WaitForTransactionParameters,
  type WaitForTransactionReturnType,
  waitForTransaction,
} from "./actions/waitForTransaction.js";
export type { CreateClientParameters, CreateClientReturnType, SignetClient } from "./client.js";
export type { CryptoApi } from "./crypto/api.js";
export { createCryptoApi } from "./crypto/api.js";
export type {
  CryptoBackend,
  DecryptionKey,
  GenerateSigningKeyOptions,
  HpkeOpenParameters,
  HpkeSealParameters,
  SigningKey,
  SigningKeyRecord,
} from "./crypto/backend.js";
export type {
  BundleKind,
  BundleTrustOptions,
  BundleWarning,
  SealOtpBundleParameters,
} from "./crypto/bundles.js";
export type { OpenExportBundleParameters } from "./crypto/export-bundle.js";
export type { OpenSessionKeyBundleParameters } from "./crypto/legacy-session-key.js";
export {
  PRODUCTION_SIGNER_SIGN_PUBLIC_KEY,
  PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY,
} from "./crypto/pinned-keys.js";
export type { RandomBytes } from "./crypto/random.js";
export { STAMP_SCHEME, type StampJson, type VerifyStampParameters } from "./crypto/stamp.js";
export {
  type AnswerErrorDetails,
  type BundleErrorCode,
  type ClientErrorCode,
  type ClientErrorDetailsMap,
  type CryptoErrorCode,
  type FieldErrorDetails,
  isSignetError,
  type KnownErrorCode,
  type NoDetails,
  type ReasonDetails,
  type RelayErrorCode,
  type RelayErrorDetailsMap,
  type RequestErrorCode,
  type ServiceErrorCode,
  type ServiceErrorDetailsMap,
  type SessionErrorCode,
  type SessionSignedErrorCode,
  type SignedRequestErrorCode,
  SignetError,
  type SignetErrorCode,
  type SignetErrorDetails,
  type SignetErrorDetailsMap,
  type SignetErrorOf,
  type SignetErrorOptions,
  type UnknownCodeDetails,
  type WebAuthnErrorCode,
  type WebAuthnErrorDetails,
  type WebAuthnErrorDetailsMap,
} from "./errors.js";
export type {
  BundleWarningEvent,
  CallOptions,
  EventSink,
  SessionEvent,
  SignetEvent,
} from "./events.js";
export { createMemoryKeyStore, type KeyPersistence, type KeyStore } from "./keys/key-store.js";
export type { AppStateSource } from "./session/appState.js";
export {
  type ActiveSession,
  SESSION_EXPIRY_MARGIN_MS,
  type Session,
  type SessionSnapshot,
  type SessionStore,
} from "./session/sessionStore.js";
export type { Clock, FetchFunction, RequestEvent } from "./transport/http.js";
// The signed-request engine and its payload checks run inside the actions; an app never calls them,
// so only what an app sees of them is public: their events and the retry options.
export type { PayloadEvent } from "./transport/payloadCheck.js";
export {
  IDEMPOTENCY_KEY_HEADER,
  REQUEST_ID_HEADER,
  WALLET_SIGNATURE_HEADER,
} from "./transport/protocol.js";
export type {
  BackoffOptions,
  RetryEvent,
  RetryOptions,
  RetryReason,
  ShouldRetryContext,
} from "./transport/retry.js";
export type { SignedRequestEvent, SignedRequestStage } from "./transport/signedRequest.js";
export { toWebAuthnError, type WebAuthnFailureContext } from "./webauthn/errors.js";
export type {
  AuthenticateExtras,
  AuthenticationOptionsJSON,
  AuthenticationResponseJSON,
  RegistrationOptionsJSON,
  RegistrationResponseJSON,
  WebAuthnProvider,
} from "./webauthn/types.js";
export type {
  AuthMethodJson,
  AuthSessionJson,
  CredentialType,
  CurrencyJson,
  CustomerJson,
  DelegatedKeyJson,
  DelegatedKeyStatus,
  ExecutedQuoteJson,
  InternalAccountJson,
  PasskeyAuthChallengeJson,
  PaymentInstructionJson,
  PendingAuthorizationQuoteJson,
  QuoteJson,
  QuoteStatus,
  ScaChallengeJson,
  ScaFactor,
  TransactionJson,
  TransactionStatus,
} from "./wire.js";
