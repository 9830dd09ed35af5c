/**
 * `@signet/core`, React Native entry (the `react-native` export condition): crypto on noble, no
 * WebCrypto needed (runs in Hermes); keys in a store the app passes (`createStringKeyStore`).
 * Same contract as `index.ts`. Randomness comes from `globalThis.crypto.getRandomValues` per call
 * (install `react-native-get-random-values`) or from `createNobleBackend({ randomBytes })`. The
 * public API itself is named once, in `exports.ts`; this file adds only the platform wiring.
 */
import { withAutoRefresh } from "./autoRefresh.js";
import {
  type CreateClientParameters,
  type CreateClientReturnType,
  createClientFactory,
} from "./client.js";
import { type CryptoApi, createCryptoApi } from "./crypto/api.js";
import { assertRandomSource, createNobleBackend } from "./crypto/noble.js";
import { createMemoryKeyStore } from "./keys/key-store.js";

export { createNobleBackend, type NobleBackendOptions } from "./crypto/noble.js";
export * from "./exports.js";
export {
  createStringKeyStore,
  type StringKeyStoreOptions,
  type StringStorage,
} from "./keys/string-store.js";

// Stateless: the backend looks up its random source per call.
const api: CryptoApi = createCryptoApi(createNobleBackend());

// The crypto contract on noble: keys are scalars (the app's secure store keeps them).
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

const createNativeClient = /* @__PURE__ */ withAutoRefresh(
  createClientFactory({
    crypto: () => api,
    keyStore: async () => ({ store: createMemoryKeyStore(), persistence: "memory" }),
    webauthn: () => undefined,
  }),
);

/**
 * Creates a Signet client for React Native: noble crypto (no WebCrypto needed), keys in the
 * `keyStore` you pass (`@signet/core/expo-secure-store` or `@signet/core/react-native-keychain`;
 * default: memory only), passkeys through the `webauthn` adapter you pass
 * (`@signet/core/react-native-passkeys`). The one host capability it needs is a secure random
 * source: `crypto.getRandomValues` (import `react-native-get-random-values` first), or `crypto`
 * over your own (`createCryptoApi(createNobleBackend({ randomBytes }))`, e.g. expo-crypto's).
 *
 * @throws {SignetError} `CRYPTO_UNAVAILABLE` when there is no secure random source (the message
 * says what to install); `INVALID_ARGUMENT` without `relayUrl`, or with an
 * `autoRefresh.marginMs` that would loop.
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "https://app.example/api/grid", keyStore, webauthn });
 * ```
 */
export const createClient: (parameters: CreateClientParameters) => CreateClientReturnType = (
  parameters,
) => {
  assertRandomSource((parameters?.crypto ?? api).backend);
  return createNativeClient(parameters);
};
