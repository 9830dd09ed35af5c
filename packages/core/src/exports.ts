// The public API of `@signet/core`, named once (docs/architecture.md "Entry points"). Both entry
// points re-export all of it and add only their platform wiring: the crypto backend the contract
// functions run on, the default key store and WebAuthn provider, and platform-only exports.
// `test/crypto/entries.test.ts` snapshots the names of each entry, so any change shows in review.

import { lazyAction } from "./lazyAction.js";

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
  CreateDelegatedKeyErrorType,
  CreateDelegatedKeyParameters,
  CreateDelegatedKeyReturnType,
} from "./actions/createDelegatedKey.js";
export {
  type ExecuteQuoteErrorType,
  type ExecuteQuoteParameters,
  type ExecuteQuoteReturnType,
  executeQuote,
  quotePayloadToSign,
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
  type ListCredentialsErrorType,
  type ListCredentialsParameters,
  type ListCredentialsReturnType,
  listCredentials,
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
  SignInWithOAuthErrorType,
  SignInWithOAuthParameters,
  SignInWithOAuthReturnType,
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
export {
  type VerifyOtpErrorType,
  type VerifyOtpParameters,
  type VerifyOtpReturnType,
  verifyOtp,
} from "./actions/verifyOtp.js";
export {
  type WaitForTransactionErrorType,
  type WaitForTransactionParameters,
  type WaitForTransactionReturnType,
  waitForTransaction,
} from "./actions/waitForTransaction.js";
export type {
  CreateClientParameters,
  CreateClientReturnType,
  SignedParameters,
  SignetClient,
} from "./client.js";
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
  type BundleErrorCode,
  type ClientErrorCode,
  type CryptoErrorCode,
  isSignetError,
  type KnownErrorCode,
  type RelayErrorCode,
  type RequestErrorCode,
  type ServiceErrorCode,
  type SessionErrorCode,
  type SessionSignedErrorCode,
  type SignedRequestErrorCode,
  SignetError,
  type SignetErrorCode,
  type SignetErrorOptions,
  type WebAuthnErrorCode,
} from "./errors.js";
export type {
  BundleWarningEvent,
  CallOptions,
  EventSink,
  SessionEvent,
  SignetEvent,
} from "./events.js";
export { createMemoryKeyStore, type KeyPersistence, type KeyStore } from "./keys/key-store.js";
export type {
  ActiveSession,
  Session,
  SessionSnapshot,
  SessionStore,
} from "./session/sessionStore.js";
export type { BackoffOptions } from "./transport/backoff.js";
export {
  IDEMPOTENCY_KEY_HEADER,
  REQUEST_ID_HEADER,
  WALLET_SIGNATURE_HEADER,
} from "./transport/headers.js";
export type { Clock, FetchFunction, RequestEvent } from "./transport/http.js";
export {
  type RunSignedRequestErrorType,
  type RunSignedRequestParameters,
  type RunSignedRequestReturnType,
  runSignedRequest,
  type SignedRequestEvent,
  type SignedRequestStage,
  type SignPayload,
} from "./transport/signedRequest.js";
export { toWebAuthnError } from "./webauthn/errors.js";
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
  InternalAccountJson,
  PasskeyAuthChallengeJson,
  PaymentInstructionJson,
  QuoteJson,
  TransactionJson,
} from "./wire.js";

// Flows a page may never use, loaded as chunks on first call.
/**
 * Creates the delegated key that lets a card spend from the wallet (a three-leg signed request). Loads on its first call; see `actions/createDelegatedKey.ts` for parameters, errors and an example.
 * @throws {SignetError} `NETWORK` (retryable) when its chunk cannot load.
 */
export const createDelegatedKey: typeof import("./actions/createDelegatedKey.js").createDelegatedKey =
  /* @__PURE__ */ lazyAction(() =>
    import("./actions/createDelegatedKey.js").then((module) => module.createDelegatedKey),
  );
/**
 * Reads one delegated key. Loads on its first call; see `actions/getDelegatedKey.ts` for parameters, errors and an example.
 * @throws {SignetError} `NETWORK` (retryable) when its chunk cannot load.
 */
export const getDelegatedKey: typeof import("./actions/getDelegatedKey.js").getDelegatedKey =
  /* @__PURE__ */ lazyAction(() =>
    import("./actions/getDelegatedKey.js").then((module) => module.getDelegatedKey),
  );
/**
 * Lists delegated keys by wallet and/or funding source. Loads on its first call; see `actions/listDelegatedKeys.ts` for parameters, errors and an example.
 * @throws {SignetError} `NETWORK` (retryable) when its chunk cannot load.
 */
export const listDelegatedKeys: typeof import("./actions/listDelegatedKeys.js").listDelegatedKeys =
  /* @__PURE__ */ lazyAction(() =>
    import("./actions/listDelegatedKeys.js").then((module) => module.listDelegatedKeys),
  );
/**
 * Revokes an ACTIVE delegated key. Loads on its first call; see `actions/revokeDelegatedKey.ts` for parameters, errors and an example.
 * @throws {SignetError} `NETWORK` (retryable) when its chunk cannot load.
 */
export const revokeDelegatedKey: typeof import("./actions/revokeDelegatedKey.js").revokeDelegatedKey =
  /* @__PURE__ */ lazyAction(() =>
    import("./actions/revokeDelegatedKey.js").then((module) => module.revokeDelegatedKey),
  );
/**
 * Changes the customer's email or phone number, stamped by a held session of a tied wallet. Loads on its first call; see `actions/updateCustomerContact.ts` for parameters, errors and an example.
 * @throws {SignetError} `NETWORK` (retryable) when its chunk cannot load.
 */
export const updateCustomerContact: typeof import("./actions/updateCustomerContact.js").updateCustomerContact =
  /* @__PURE__ */ lazyAction(() =>
    import("./actions/updateCustomerContact.js").then((module) => module.updateCustomerContact),
  );
/**
 * Exports the wallet's recovery phrase, opened on the device. Loads on its first call; see `actions/exportWallet.ts` for parameters, errors and an example.
 * @throws {SignetError} `NETWORK` (retryable) when its chunk cannot load.
 */
export const exportWallet: typeof import("./actions/exportWallet.js").exportWallet =
  /* @__PURE__ */ lazyAction(() =>
    import("./actions/exportWallet.js").then((module) => module.exportWallet),
  );
/**
 * Adds an OTP or OAuth credential to the wallet, stamped by a held session. Loads on its first call; see `actions/addCredential.ts` for parameters, errors and an example.
 * @throws {SignetError} `NETWORK` (retryable) when its chunk cannot load.
 */
export const addCredential: typeof import("./actions/addCredential.js").addCredential =
  /* @__PURE__ */ lazyAction(() =>
    import("./actions/addCredential.js").then((module) => module.addCredential),
  );
/**
 * Revokes a credential, stamped by a session of another credential. Loads on its first call; see `actions/revokeCredential.ts` for parameters, errors and an example.
 * @throws {SignetError} `NETWORK` (retryable) when its chunk cannot load.
 */
export const revokeCredential: typeof import("./actions/revokeCredential.js").revokeCredential =
  /* @__PURE__ */ lazyAction(() =>
    import("./actions/revokeCredential.js").then((module) => module.revokeCredential),
  );
/**
 * Signs in with an OAuth (OIDC) credential under a fresh device key. Loads on its first call; see `actions/signInWithOAuth.ts` for parameters, errors and an example.
 * @throws {SignetError} `NETWORK` (retryable) when its chunk cannot load.
 */
export const signInWithOAuth: typeof import("./actions/signInWithOAuth.js").signInWithOAuth =
  /* @__PURE__ */ lazyAction(() =>
    import("./actions/signInWithOAuth.js").then((module) => module.signInWithOAuth),
  );
