// The one entry factory (docs/architecture.md "Entry points"): every platform entry
// (`index.ts` for browsers, `index.node.ts`, `index.native.ts`, and any later one such as Workers
// or Deno) passes only its wiring here, a crypto backend, a default key store and WebAuthn
// provider, and exports what comes back; the rest of the public API is named once, in exports.ts.
import { preloadActions } from "./catalog/chunks/lazy.js";
import { STEP_UP_ACTIONS } from "./catalog/stepUpActions.js";
import {
  type ClientDefaults,
  type CreateClient,
  type CreateClientParameters,
  createClientFactory,
  type SignetClient,
} from "./client.js";
import type { CryptoApi } from "./crypto/api.js";
import { loadChunk } from "./crypto/chunk.js";
import { assertArgument } from "./errors/errors.js";
import { withAutoRefresh } from "./session/expiry/autoRefresh.js";

/** What a platform entry supplies to {@link defineEntry}. */
export type EntryPlatform = {
  /** The crypto contract bound to the platform's backend (`createCryptoApi(backend)`). */
  crypto: CryptoApi;
  /** The key store a client uses when none is passed, made on first use. */
  keyStore: ClientDefaults["keyStore"];
  /** The WebAuthn provider a client uses when none is passed (`undefined`: none by default). */
  webauthn: ClientDefaults["webauthn"];
  /** Where calls still processing are kept when the key store is IndexedDB (none: memory). */
  indexedDbPendingStore?: ClientDefaults["indexedDbPendingStore"];
  /**
   * Checks the platform makes before a client exists, so a missing capability fails at creation
   * (React Native: a secure random source), not on the first key.
   */
  assertCanCreate?: ((parameters: CreateClientParameters) => void) | undefined;
};

/** The platform-bound part of an entry: the crypto contract on its backend, and `createClient`. */
export type Entry = Pick<
  CryptoApi,
  | "generateSigningKey"
  | "importSigningKey"
  | "restoreSigningKey"
  | "stampPayload"
  | "verifyStamp"
  | "generateDecryptionKey"
  | "importDecryptionKey"
  | "sealOtpBundle"
  | "openSessionKeyBundle"
  | "openExportBundle"
  | "oauthNonce"
> & {
  /**
   * Creates a Signet client with the platform's defaults: every flow takes it as its first
   * argument. Reads no global at import or creation.
   */
  createClient: CreateClient;
};

/**
 * Binds the crypto contract and `createClient` to one platform's wiring. Each entry file calls it
 * once and exports the result by name, beside `export * from "./exports.js"`.
 *
 * @param platform - The crypto API, the default key store and WebAuthn provider, and an optional
 * check before a client is made.
 * @returns The contract functions (bound to `platform.crypto`) and `createClient`.
 * @throws Nothing itself; the returned `createClient` throws `SignetError` `INVALID_ARGUMENT` for bad
 * parameters, and whatever `assertCanCreate` throws.
 * @example
 * ```ts
 * export const { generateSigningKey, stampPayload, createClient } = defineEntry({
 *   crypto: createCryptoApi(createWebCryptoBackend()),
 *   keyStore: () => createDefaultKeyStore(),
 *   webauthn: () => createBrowserWebAuthn(),
 * });
 * ```
 */
export function defineEntry(platform: EntryPlatform): Entry {
  const { crypto: api, keyStore, webauthn, assertCanCreate, indexedDbPendingStore } = platform;
  const made = withAutoRefresh(
    createClientFactory({
      crypto: () => api,
      keyStore,
      webauthn,
      indexedDbPendingStore,
      // A kept passkey sign-in's resume reaches the actions: loaded here, on its first use.
      keptPasskey: () =>
        loadChunk(() => import("./pending/keptPasskey.js")).then((m) => m.keptPasskeySeams),
    }),
  );
  // The actions that load on first use start loading with the client, as the crypto chunks do.
  const create = (parameters: CreateClientParameters): SignetClient => {
    // What `stepUp` can name: a lazy action that changes something and makes no session (the
    // check runs in its chunk); a misspelt name would leave it unguarded without a word.
    for (const action of Array.isArray(parameters?.stepUp?.actions)
      ? parameters.stepUp.actions
      : [])
      assertArgument(
        Object.hasOwn(STEP_UP_ACTIONS, action),
        "stepUp.actions",
        "names of actions (StepUpAction)",
        String(action),
      );
    const client = made(parameters);
    preloadActions();
    // The step-up check is synchronous once the held sessions are read: read them now, so that a
    // tap on a named action that opens a passkey prompt (`addPasskey`) opens it in its own task.
    // A store that cannot be read says so to the first call that needs it.
    if (parameters.stepUp) client.sessions.load().catch(() => undefined);
    return client;
  };
  return {
    generateSigningKey: api.generateSigningKey,
    importSigningKey: api.importSigningKey,
    restoreSigningKey: api.restoreSigningKey,
    stampPayload: api.stampPayload,
    verifyStamp: api.verifyStamp,
    generateDecryptionKey: api.generateDecryptionKey,
    importDecryptionKey: api.importDecryptionKey,
    sealOtpBundle: api.sealOtpBundle,
    openSessionKeyBundle: api.openSessionKeyBundle,
    openExportBundle: api.openExportBundle,
    oauthNonce: api.oauthNonce,
    // The client's `signer` is read from the `crypto` the type parameter is inferred from
    // (createClientFactory), so the typed client is what was made.
    createClient: (assertCanCreate
      ? (parameters: CreateClientParameters) => {
          assertCanCreate(parameters);
          return create(parameters);
        }
      : create) as CreateClient,
  };
}
