/**
 * `@signet/core` under Node's `node` export condition: the browser/Node entry, with signing on
 * Node's own crypto (a held `KeyObject`, synchronous OpenSSL) instead of `crypto.subtle.sign`.
 * Servers that stamp with delegated keys run here; keys, records and every other function are
 * the same as the default entry's (the Node backend is the WebCrypto one with `sign` replaced).
 */
import { createCryptoApi } from "./crypto/api.js";
import { loadChunk } from "./crypto/chunk.js";
import { createNodeCryptoBackend } from "./crypto/node.js";
import { defineEntry } from "./entry.js";
import { createDefaultKeyStore } from "./keys/indexeddb.js";
import { createBrowserWebAuthn } from "./webauthn/browser.js";

export { createNodeCryptoBackend } from "./crypto/node.js";
// Everything the default entry exports; the names below, bound to the Node backend, take precedence.
export * from "./index.js";

/**
 * The crypto contract with keys that sign through Node's crypto, each documented on
 * {@link CryptoApi}; and `createClient`, the default entry's with those keys: in-memory key store
 * in Node, no passkeys unless `webauthn` is passed. `createClient` throws `SignetError`
 * `INVALID_ARGUMENT` without `relayUrl` or with an `autoRefresh.marginMs` that would loop.
 *
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "https://app.example/api/grid" });
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
  crypto: createCryptoApi(createNodeCryptoBackend()),
  keyStore: () => createDefaultKeyStore(),
  // A chunk: only a page that has a call still processing needs it (a failed load is typed).
  indexedDbPendingStore: async () =>
    (await loadChunk(() => import("./pending/idbPendingStore.js"))).createIndexedDbPendingStore(),
  webauthn: () => createBrowserWebAuthn(),
});
