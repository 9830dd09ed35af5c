/**
 * `@signet/core`, React Native entry (the `react-native` export condition): crypto on noble, no
 * WebCrypto needed (runs in Hermes); keys in a store the app passes (`createStringKeyStore`).
 * Same contract as `index.ts`. Randomness comes from `globalThis.crypto.getRandomValues` per call
 * (install `react-native-get-random-values`) or from `createNobleBackend({ randomBytes })`. The
 * public API itself is named once, in `exports.ts`; this file adds only the platform wiring, through
 * the one entry factory (`entry.ts`).
 */
import { type CryptoApi, createCryptoApi } from "./crypto/api.js";
import { assertRandomSource, createNobleBackend } from "./crypto/noble.js";
import { defineEntry } from "./entry.js";
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

/**
 * The crypto contract on noble (keys are scalars the app's secure store keeps), each documented
 * on {@link CryptoApi}; and `createClient`, which creates a Signet client for React Native: noble
 * crypto, keys in the `keyStore` you pass (`@signet/core/expo-secure-store` or
 * `@signet/core/react-native-keychain`; default: memory only), passkeys through the `webauthn`
 * adapter you pass (`@signet/core/react-native-passkeys`). The one host capability it needs is a
 * secure random source: `crypto.getRandomValues` (import `react-native-get-random-values` first),
 * or `crypto` over your own (`createCryptoApi(createNobleBackend({ randomBytes }))`, e.g.
 * expo-crypto's). `createClient` throws `SignetError` `CRYPTO_UNAVAILABLE` when there is no secure
 * random source (the message says what to install), and `INVALID_ARGUMENT` without `relayUrl` or
 * with an `autoRefresh.marginMs` that would loop.
 *
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "https://app.example/api/grid", keyStore, webauthn });
 * ```
 */
export const {
  generateSigningKey,
  importSigningKey,
  restoreSigningKey,
  stampPayload,
  verifyStamp,
  generateDecryptionKey,
  importDecryptionKey,
  sealOtpBundle,
  openSessionKeyBundle,
  openExportBundle,
  oauthNonce,
  createClient,
} = /* @__PURE__ */ defineEntry({
  crypto: api,
  keyStore: async () => ({ store: createMemoryKeyStore(), persistence: "memory" }),
  webauthn: () => undefined,
  assertCanCreate: (parameters) => assertRandomSource((parameters?.crypto ?? api).backend),
});
