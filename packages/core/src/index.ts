/**
 * `@signet/core`, browser and Node entry: crypto on WebCrypto (`crypto.subtle`) and `@hpke/core`,
 * keys in IndexedDB. Nothing here reads `window`, `navigator` or `globalThis.crypto` at import time.
 * The `react-native` export condition loads `index.native.ts` instead (noble, no WebCrypto). The
 * public API itself is named once, in `exports.ts`; this file adds only the platform wiring.
 *
 * @module @signet/core
 */
import { withAutoRefresh } from "./autoRefresh.js";
import {
  type CreateClientParameters,
  type CreateClientReturnType,
  createClientFactory,
} from "./client.js";
import { type CryptoApi, createCryptoApi } from "./crypto/api.js";
import { createWebCryptoBackend } from "./crypto/webcrypto.js";
import { createDefaultKeyStore } from "./keys/indexeddb.js";
import { createBrowserWebAuthn } from "./webauthn/browser.js";

export { createWebCryptoBackend } from "./crypto/webcrypto.js";
export * from "./exports.js";
export {
  createDefaultKeyStore,
  createIndexedDbKeyStore,
  type DefaultKeyStoreOptions,
  type IndexedDbKeyStoreOptions,
} from "./keys/indexeddb.js";
export { browserSupportsPasskeyAutofill, createBrowserWebAuthn } from "./webauthn/browser.js";

// Stateless: the backend looks up crypto.subtle per call.
const api: CryptoApi = createCryptoApi(createWebCryptoBackend());

// The crypto contract on WebCrypto: private keys are non-extractable `CryptoKey`s by default.
/** {@inheritDoc CryptoApi.generateSigningKey} */
export const generateSigningKey: CryptoApi["generateSigningKey"] = api.generateSigningKey;
/** {@inheritDoc CryptoApi.importSigningKey} */
export const importSigningKey: CryptoApi["importSigningKey"] = api.importSigningKey;
/** {@inheritDoc CryptoApi.restoreSigningKey} */
export const restoreSigningKey: CryptoApi["restoreSigningKey"] = api.restoreSigningKey;
/** {@inheritDoc CryptoApi.stampPayload} */
export const stampPayload: CryptoApi["stampPayload"] = api.stampPayload;
/** {@inheritDoc CryptoApi.verifyStamp} */
export const verifyStamp: CryptoApi["verifyStamp"] = api.verifyStamp;
/** {@inheritDoc CryptoApi.generateDecryptionKey} */
export const generateDecryptionKey: CryptoApi["generateDecryptionKey"] = api.generateDecryptionKey;
/** {@inheritDoc CryptoApi.importDecryptionKey} */
export const importDecryptionKey: CryptoApi["importDecryptionKey"] = api.importDecryptionKey;
/** {@inheritDoc CryptoApi.sealOtpBundle} */
export const sealOtpBundle: CryptoApi["sealOtpBundle"] = api.sealOtpBundle;
/** {@inheritDoc CryptoApi.openSessionKeyBundle} */
export const openSessionKeyBundle: CryptoApi["openSessionKeyBundle"] = api.openSessionKeyBundle;
/** {@inheritDoc CryptoApi.openExportBundle} */
export const openExportBundle: CryptoApi["openExportBundle"] = api.openExportBundle;
/** {@inheritDoc CryptoApi.oauthNonce} */
export const oauthNonce: CryptoApi["oauthNonce"] = api.oauthNonce;

/**
 * Creates a Signet client: every flow takes it as its first argument. Browser and Node defaults:
 * WebCrypto keys, IndexedDB key store with a memory fallback (probed on first use), passkeys
 * through `navigator.credentials`. Reads no global at import or creation.
 *
 * @throws {SignetError} `INVALID_ARGUMENT` without `relayUrl`, or with an `autoRefresh.marginMs`
 * that would loop.
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "/api/grid", onEvent: console.debug });
 * const otp = await requestOtp(client, { credentialId });
 * ```
 */
export const createClient: (parameters: CreateClientParameters) => CreateClientReturnType =
  /* @__PURE__ */ withAutoRefresh(
    createClientFactory({
      crypto: () => api,
      keyStore: () => createDefaultKeyStore(),
      webauthn: () => createBrowserWebAuthn(),
    }),
  );
