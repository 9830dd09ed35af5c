/**
 * `@signet/core`, browser and Node entry: crypto on WebCrypto (`crypto.subtle`) and `@hpke/core`,
 * keys in IndexedDB. Nothing here reads `window`, `navigator` or `globalThis.crypto` at import time.
 * The `react-native` export condition loads `index.native.ts` instead (noble, no WebCrypto). The
 * public API itself is named once, in `exports.ts`; this file adds only the platform wiring, through
 * the one entry factory (`entry.ts`).
 *
 * @module @signet/core
 */
import { createCryptoApi } from "./crypto/api.js";
import { loadChunk } from "./crypto/chunk.js";
import { createWebCryptoBackend } from "./crypto/webcrypto.js";
import { defineEntry } from "./entry.js";
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

/**
 * The crypto contract on WebCrypto (private keys are non-extractable `CryptoKey`s by default;
 * the backend looks up `crypto.subtle` per call), each documented on {@link CryptoApi}; and
 * `createClient`, which creates a Signet client with the browser and Node defaults: WebCrypto
 * keys, an IndexedDB key store with a memory fallback (probed on first use), passkeys through
 * `navigator.credentials`. It reads no global at import or creation, and throws `SignetError`
 * `INVALID_ARGUMENT` without `relayUrl` or with an `autoRefresh.marginMs` that would loop.
 *
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "/api/grid", onEvent: console.debug });
 * const key = await generateSigningKey();
 * const stamp = await stampPayload(payloadToSign, key);
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
  crypto: createCryptoApi(createWebCryptoBackend()),
  keyStore: () => createDefaultKeyStore(),
  // A chunk: only a page that has a call still processing needs it (a failed load is typed).
  indexedDbPendingStore: async () =>
    (await loadChunk(() => import("./pending/idbPendingStore.js"))).createIndexedDbPendingStore(),
  webauthn: () => createBrowserWebAuthn(),
});
