/**
 * `@signet/core`, browser and Node entry: crypto on WebCrypto (`crypto.subtle`) and `@hpke/core`,
 * keys in IndexedDB. Nothing here reads `window`, `navigator` or `globalThis.crypto` at import time.
 * The `react-native` export condition loads `index.native.ts` instead (noble, no WebCrypto).
 */
import { type CryptoApi, createCryptoApi } from "./crypto/api.js";
import type {
  DecryptionKey,
  GenerateSigningKeyOptions,
  SigningKey,
  SigningKeyRecord,
} from "./crypto/backend.js";
import type { SealOtpBundleParameters } from "./crypto/bundles.js";
import type { OpenExportBundleParameters } from "./crypto/export-bundle.js";
import type { OpenSessionKeyBundleParameters } from "./crypto/legacy-session-key.js";
import type { VerifyStampParameters } from "./crypto/stamp.js";
import { createWebCryptoBackend } from "./crypto/webcrypto.js";

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

import {
  type CreateClientParameters,
  type CreateClientReturnType,
  createClientFactory,
} from "./client.js";
import { createDefaultKeyStore } from "./keys/indexeddb.js";
import { createBrowserWebAuthn } from "./webauthn/browser.js";

export {
  PRODUCTION_SIGNER_SIGN_PUBLIC_KEY,
  PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY,
} from "./crypto/pinned-keys.js";
export type { RandomBytes } from "./crypto/random.js";
export { STAMP_SCHEME, type StampJson, type VerifyStampParameters } from "./crypto/stamp.js";
export { createWebCryptoBackend } from "./crypto/webcrypto.js";
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
export {
  createDefaultKeyStore,
  createIndexedDbKeyStore,
  type DefaultKeyStoreOptions,
  type IndexedDbKeyStoreOptions,
} from "./keys/indexeddb.js";
export { createMemoryKeyStore, type KeyPersistence, type KeyStore } from "./keys/key-store.js";

// Stateless: the backend looks up crypto.subtle per call.
const api: CryptoApi = createCryptoApi(createWebCryptoBackend());

/**
 * Generates a P-256 signing key (ECDSA, SHA-256) for a session or a one-time TEK. The private half
 * is a non-extractable `CryptoKey` unless `extractable: true`.
 *
 * @param options - `extractable` (default `false`).
 * @returns A {@link SigningKey} with `publicKey` (66 hex) and `publicKeyUncompressed` (130 hex).
 * @throws {SignetError} `CRYPTO_UNAVAILABLE` without WebCrypto (for example on an insecure origin).
 * @example
 * ```ts
 * const key = await generateSigningKey();
 * await keyStore.set(sessionId, key.toRecord());
 * ```
 */
export function generateSigningKey(options?: GenerateSigningKeyOptions): Promise<SigningKey> {
  return api.generateSigningKey(options);
}

/**
 * Imports a P-256 private scalar (64 hex digits, either case, or 32 bytes), for example a legacy
 * session key from {@link openSessionKeyBundle}. Imported non-extractable unless `extractable: true`.
 *
 * @param privateKey - The scalar; 1 ≤ d < n.
 * @param options - `extractable` (default `false`).
 * @returns A {@link SigningKey}.
 * @throws {SignetError} `KEY_INVALID` for a wrong length, non-hex or out-of-range scalar (the message never shows it).
 * @example
 * ```ts
 * const key = await importSigningKey(await openSessionKeyBundle({ bundle, key: decryptionKey }));
 * ```
 */
export function importSigningKey(
  privateKey: string | Uint8Array,
  options?: GenerateSigningKeyOptions,
): Promise<SigningKey> {
  return api.importSigningKey(privateKey, options);
}

/**
 * Turns a stored {@link SigningKeyRecord} (from `SigningKey.toRecord()` via a `KeyStore`) back into a
 * {@link SigningKey}, checking that its public key belongs to its private key.
 *
 * @param record - A `webcrypto` (CryptoKey) or `scalar` (hex) record.
 * @returns The {@link SigningKey}.
 * @throws {SignetError} `KEY_INVALID` for a malformed or mismatched record.
 * @example
 * ```ts
 * const record = await keyStore.get(sessionId);
 * const key = record && (await restoreSigningKey(record));
 * ```
 */
export function restoreSigningKey(record: SigningKeyRecord): Promise<SigningKey> {
  return api.restoreSigningKey(record);
}

/**
 * Stamps `payload` for the `Grid-Wallet-Signature` header: ECDSA P-256 SHA-256 over its exact
 * UTF-8 bytes (no parse, trim or normalisation), as base64url of
 * `{"publicKey":…,"scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":<DER hex>}`.
 *
 * @param payload - The `payloadToSign` string exactly as received.
 * @param key - The signing key.
 * @returns The header value.
 * @throws {SignetError} `ENCODING_INVALID` for a lone surrogate (never replaced by U+FFFD),
 * `INVALID_ARGUMENT` for a non-string, `KEY_INVALID` for a bad key.
 * @example
 * ```ts
 * headers.set("Grid-Wallet-Signature", await stampPayload(challenge.payloadToSign, key));
 * ```
 */
export function stampPayload(payload: string, key: SigningKey): Promise<string> {
  return api.stampPayload(payload, key);
}

/**
 * Verifies a `Grid-Wallet-Signature` value over `payload` (high-S accepted), as the service does.
 * For tests, emulators and diagnostics.
 *
 * @param parameters - `payload`, `stamp`, optional expected `publicKey`.
 * @returns The signer's compressed public key.
 * @throws {SignetError} `ENCODING_INVALID` (malformed stamp), `POINT_INVALID`, `SIGNATURE_INVALID`.
 * @example
 * ```ts
 * const { publicKey } = await verifyStamp({ payload, stamp });
 * ```
 */
export function verifyStamp(parameters: VerifyStampParameters): Promise<{ publicKey: string }> {
  return api.verifyStamp(parameters);
}

/**
 * Generates a P-256 HPKE recipient key (non-extractable ECDH), fresh for each wallet export or
 * legacy session.
 *
 * @returns A {@link DecryptionKey}; send `publicKeyUncompressed` as `clientPublicKey`.
 * @throws {SignetError} `CRYPTO_UNAVAILABLE` without WebCrypto.
 * @example
 * ```ts
 * const key = await generateDecryptionKey();
 * const mnemonic = await openExportBundle({ bundle, key });
 * ```
 */
export function generateDecryptionKey(): Promise<DecryptionKey> {
  return api.generateDecryptionKey();
}

/**
 * Imports a P-256 HPKE recipient key from its private scalar (64 hex digits or 32 bytes).
 *
 * @param privateKey - The scalar.
 * @returns A {@link DecryptionKey}.
 * @throws {SignetError} `KEY_INVALID` (the message never shows the key).
 * @example
 * ```ts
 * const key = await importDecryptionKey(savedScalarHex);
 * ```
 */
export function importDecryptionKey(privateKey: string | Uint8Array): Promise<DecryptionKey> {
  return api.importDecryptionKey(privateKey);
}

/**
 * Builds the `encryptedOtpBundle` for OTP verify: checks the target bundle's signature against
 * `trustedKeys` (default: the pinned production key), then HPKE-seals
 * `{"otp_code":…,"public_key":<TEK uncompressed hex>}` to its `targetPublic`.
 *
 * @param parameters - `targetBundle`, `otpCode`, `publicKey` (the TEK), `trustedKeys?`, `allowUnsigned?`, `onWarning?`.
 * @returns The JSON text `{"encappedPublic":…,"ciphertext":…}`, sent as a string.
 * @throws {SignetError} `BUNDLE_MALFORMED`, `BUNDLE_SIGNATURE_INVALID`, `BUNDLE_SIGNER_UNTRUSTED`,
 * `INVALID_ARGUMENT`, `POINT_INVALID`, `ENCODING_INVALID`. Messages never contain the code.
 * @example
 * ```ts
 * const tek = await generateSigningKey();
 * const encryptedOtpBundle = await sealOtpBundle({
 *   targetBundle: credential.otpEncryptionTargetBundle,
 *   otpCode: "123456",
 *   publicKey: tek.publicKeyUncompressed,
 * });
 * ```
 */
export function sealOtpBundle(parameters: SealOtpBundleParameters): Promise<string> {
  return api.sealOtpBundle(parameters);
}

/**
 * Opens a legacy `encryptedSessionSigningKey` (base58check of compressed `enc` ‖ ciphertext) to
 * the 32-byte session scalar; pass it to {@link importSigningKey}.
 *
 * @param parameters - `bundle`, `key` (the {@link DecryptionKey} sent as `clientPublicKey`).
 * @returns The scalar.
 * @throws {SignetError} `ENCODING_INVALID`, `CHECKSUM_INVALID`, `BUNDLE_MALFORMED`, `POINT_INVALID`,
 * `DECRYPTION_FAILED`, `KEY_INVALID`.
 * @example
 * ```ts
 * const scalar = await openSessionKeyBundle({ bundle: session.encryptedSessionSigningKey, key });
 * ```
 */
export function openSessionKeyBundle(
  parameters: OpenSessionKeyBundleParameters,
): Promise<Uint8Array> {
  return api.openSessionKeyBundle(parameters);
}

/**
 * Verifies a wallet export bundle against `trustedKeys` (default: the pinned production signer
 * key), checks `organizationId` when given, and opens it to the mnemonic.
 *
 * @param parameters - `bundle`, `key`, `organizationId?`, `trustedKeys?`, `allowUnsigned?`, `onWarning?`.
 * @returns The BIP-39 mnemonic. Show it, never log it.
 * @throws {SignetError} `BUNDLE_MALFORMED`, `BUNDLE_SIGNATURE_INVALID`, `BUNDLE_SIGNER_UNTRUSTED`,
 * `BUNDLE_ORGANIZATION_MISMATCH`, `POINT_INVALID`, `DECRYPTION_FAILED`, `KEY_INVALID`.
 * @example
 * ```ts
 * const mnemonic = await openExportBundle({ bundle: result.encryptedWalletCredentials, key });
 * ```
 */
export function openExportBundle(parameters: OpenExportBundleParameters): Promise<string> {
  return api.openExportBundle(parameters);
}

/**
 * The OIDC `nonce` for OAuth sign-in: lowercase hex SHA-256 of the UTF-8 bytes of the exact
 * `clientPublicKey` string that will be sent (case and compression change it).
 *
 * @param clientPublicKey - The string as sent.
 * @returns 64 lowercase hex digits.
 * @throws {SignetError} `INVALID_ARGUMENT` (not a non-empty string), `ENCODING_INVALID` (lone surrogate).
 * @example
 * ```ts
 * const nonce = await oauthNonce(key.publicKey);
 * ```
 */
export function oauthNonce(clientPublicKey: string): Promise<string> {
  return api.oauthNonce(clientPublicKey);
}

// Client, sessions and flows (docs/architecture.md layers 3–5).
export {
  type AddCredentialErrorType,
  type AddCredentialParameters,
  type AddCredentialReturnType,
  addCredential,
} from "./actions/addCredential.js";
export {
  type AddPasskeyErrorType,
  type AddPasskeyParameters,
  type AddPasskeyReturnType,
  addPasskey,
} from "./actions/addPasskey.js";
export {
  type CreateDelegatedKeyErrorType,
  type CreateDelegatedKeyParameters,
  type CreateDelegatedKeyReturnType,
  createDelegatedKey,
} from "./actions/createDelegatedKey.js";
export {
  type ExecuteQuoteErrorType,
  type ExecuteQuoteParameters,
  type ExecuteQuoteReturnType,
  executeQuote,
  quotePayloadToSign,
} from "./actions/executeQuote.js";
export {
  type ExportWalletErrorType,
  type ExportWalletParameters,
  type ExportWalletReturnType,
  exportWallet,
} from "./actions/exportWallet.js";
export {
  type GetDelegatedKeyErrorType,
  type GetDelegatedKeyParameters,
  type GetDelegatedKeyReturnType,
  getDelegatedKey,
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
export {
  type ListDelegatedKeysErrorType,
  type ListDelegatedKeysParameters,
  type ListDelegatedKeysReturnType,
  listDelegatedKeys,
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
export {
  type RevokeCredentialErrorType,
  type RevokeCredentialParameters,
  type RevokeCredentialReturnType,
  revokeCredential,
} from "./actions/revokeCredential.js";
export {
  type RevokeDelegatedKeyErrorType,
  type RevokeDelegatedKeyParameters,
  type RevokeDelegatedKeyReturnType,
  revokeDelegatedKey,
} from "./actions/revokeDelegatedKey.js";
export {
  type RevokeSessionErrorType,
  type RevokeSessionParameters,
  type RevokeSessionReturnType,
  revokeSession,
} from "./actions/revokeSession.js";
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
export {
  type UpdateCustomerContactErrorType,
  type UpdateCustomerContactParameters,
  type UpdateCustomerContactReturnType,
  updateCustomerContact,
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
export type {
  BundleWarningEvent,
  CallOptions,
  EventSink,
  SessionEvent,
  SignetEvent,
} from "./events.js";
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
export { browserSupportsPasskeyAutofill, createBrowserWebAuthn } from "./webauthn/browser.js";
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

/**
 * Creates a Signet client: every flow takes it as its first argument. Browser and Node defaults:
 * WebCrypto keys, IndexedDB key store with a memory fallback (probed on first use), passkeys
 * through `navigator.credentials`. Reads no global at import or creation.
 *
 * @throws {SignetError} `INVALID_ARGUMENT` without `relayUrl`.
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "/api/grid", onEvent: console.debug });
 * const otp = await requestOtp(client, { credentialId });
 * ```
 */
export const createClient: (parameters: CreateClientParameters) => CreateClientReturnType =
  /* @__PURE__ */ createClientFactory({
    crypto: () => api,
    keyStore: () => createDefaultKeyStore(),
    webauthn: () => createBrowserWebAuthn(),
  });
