// docs/architecture.md "The crypto contract": the public crypto functions, bound to one CryptoBackend so that
// `createClient({ crypto })` and both entry points share one implementation.
import { SignetError } from "../errors.js";
import type {
  CryptoBackend,
  DecryptionKey,
  GenerateSigningKeyOptions,
  SigningKey,
  SigningKeyRecord,
} from "./backend.js";
import { type SealOtpBundleParameters, sealOtpBundle } from "./bundles.js";
import type { OpenExportBundleParameters } from "./export-bundle.js";
import type { OpenSessionKeyBundleParameters } from "./legacy-session-key.js";
import { oauthNonce } from "./oauth.js";
import { parseScalar } from "./p256.js";
import { stampPayload, type VerifyStampParameters } from "./stamp.js";

// Rare paths load on first use and stay out of the browser bundle: stamp verification (tests and
// tools), wallet export (about once per wallet) and legacy session bundles (explicit opt-in).
// What every sign-in and signed request needs (stamps, OTP bundles) is eager.
async function load<T>(importModule: () => Promise<T>): Promise<T> {
  try {
    return await importModule();
  } catch (cause) {
    throw new SignetError("NETWORK", "could not load a part of Signet", {
      cause,
      retryable: true,
    });
  }
}

/** The crypto contract of `@signet/core`, bound to one backend. See each entry's exports for docs. */
export interface CryptoApi {
  readonly backend: CryptoBackend;
  generateSigningKey(options?: GenerateSigningKeyOptions): Promise<SigningKey>;
  importSigningKey(
    privateKey: string | Uint8Array,
    options?: GenerateSigningKeyOptions,
  ): Promise<SigningKey>;
  restoreSigningKey(record: SigningKeyRecord): Promise<SigningKey>;
  stampPayload(payload: string, key: SigningKey): Promise<string>;
  verifyStamp(parameters: VerifyStampParameters): Promise<{ publicKey: string }>;
  generateDecryptionKey(): Promise<DecryptionKey>;
  importDecryptionKey(privateKey: string | Uint8Array): Promise<DecryptionKey>;
  sealOtpBundle(parameters: SealOtpBundleParameters): Promise<string>;
  openSessionKeyBundle(parameters: OpenSessionKeyBundleParameters): Promise<Uint8Array>;
  openExportBundle(parameters: OpenExportBundleParameters): Promise<string>;
  oauthNonce(clientPublicKey: string): Promise<string>;
}

function assertParameters(parameters: unknown): void {
  if (typeof parameters !== "object" || parameters === null) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"parameters" expected an object, got ${parameters === null ? "null" : typeof parameters}`,
    );
  }
}

/**
 * Binds the crypto contract to a backend.
 *
 * @param backend - `createWebCryptoBackend()`, `createNobleBackend()` or your own {@link CryptoBackend}.
 * @returns The {@link CryptoApi}.
 * @throws {SignetError} `INVALID_ARGUMENT` when `backend` is not a backend.
 * @example
 * ```ts
 * const api = createCryptoApi(createNobleBackend({ randomBytes: getRandomBytes }));
 * const key = await api.generateSigningKey();
 * ```
 */
export function createCryptoApi(backend: CryptoBackend): CryptoApi {
  if (typeof backend?.generateSigningKey !== "function" || typeof backend.hpkeSeal !== "function") {
    throw new SignetError("INVALID_ARGUMENT", `"backend" expected a CryptoBackend`);
  }
  return {
    backend,
    generateSigningKey: (options) => backend.generateSigningKey(options),
    importSigningKey: async (privateKey, options) =>
      backend.importSigningKey(parseScalar(privateKey), options),
    restoreSigningKey: async (record) => {
      if (typeof record !== "object" || record === null) {
        throw new SignetError(
          "KEY_INVALID",
          `"record" expected a signing key record, got ${record === null ? "null" : typeof record}`,
        );
      }
      return backend.restoreSigningKey(record);
    },
    stampPayload,
    verifyStamp: async (parameters) => {
      assertParameters(parameters);
      return (await load(() => import("./verify-stamp.js"))).verifyStamp(backend, parameters);
    },
    generateDecryptionKey: () => {
      // A decryption key means an export or a legacy session bundle is coming: fetch that code
      // now, before the request, so a chunk that fails to load cannot strand a result the
      // service has already produced. A failure here is retried by the real import later.
      for (const chunk of [
        import("./export-bundle.js"),
        import("./legacy-session-key.js"),
        import("./p256-multiply.js"),
      ])
        chunk.catch(() => undefined);
      return backend.generateDecryptionKey();
    },
    importDecryptionKey: async (privateKey) => backend.importDecryptionKey(parseScalar(privateKey)),
    sealOtpBundle: async (parameters) => {
      assertParameters(parameters);
      return sealOtpBundle(backend, parameters);
    },
    openSessionKeyBundle: async (parameters) => {
      assertParameters(parameters);
      return (await load(() => import("./legacy-session-key.js"))).openSessionKeyBundle(
        backend,
        parameters,
      );
    },
    openExportBundle: async (parameters) => {
      assertParameters(parameters);
      return (await load(() => import("./export-bundle.js"))).openExportBundle(backend, parameters);
    },
    oauthNonce: (clientPublicKey) => oauthNonce(backend, clientPublicKey),
  };
}
