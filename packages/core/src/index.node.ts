/**
 * `@signet/core` under Node's `node` export condition: the browser/Node entry, with signing on
 * Node's own crypto (a held `KeyObject`, synchronous OpenSSL) instead of `crypto.subtle.sign`.
 * Servers that stamp with delegated keys run here; keys, records and every other function are
 * the same as the default entry's.
 */
import { withAutoRefresh } from "./autoRefresh.js";
import {
  type CreateClientParameters,
  type CreateClientReturnType,
  createClientFactory,
} from "./client.js";
import { type CryptoApi, createCryptoApi } from "./crypto/api.js";
import { createNodeCryptoBackend } from "./crypto/node.js";
import { createDefaultKeyStore } from "./keys/indexeddb.js";
import { createBrowserWebAuthn } from "./webauthn/browser.js";

export { createNodeCryptoBackend } from "./crypto/node.js";
// Everything the default entry exports; the names below, bound to the Node backend, take precedence.
export * from "./index.js";

const api: CryptoApi = createCryptoApi(createNodeCryptoBackend());

/** {@inheritDoc CryptoApi.generateSigningKey} */
export const generateSigningKey: CryptoApi["generateSigningKey"] = api.generateSigningKey;
/** {@inheritDoc CryptoApi.importSigningKey} */
export const importSigningKey: CryptoApi["importSigningKey"] = api.importSigningKey;
/** {@inheritDoc CryptoApi.restoreSigningKey} */
export const restoreSigningKey: CryptoApi["restoreSigningKey"] = api.restoreSigningKey;
/** {@inheritDoc CryptoApi.stampPayload} */
export const stampPayload: CryptoApi["stampPayload"] = api.stampPayload;

/**
 * Creates a Signet client whose keys sign through Node's crypto. Otherwise the default entry's
 * `createClient`: in-memory key store in Node, no passkeys unless `webauthn` is passed.
 *
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "https://app.example/api/grid" });
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
