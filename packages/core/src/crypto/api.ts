// docs/architecture.md "The crypto contract": the public crypto functions, bound to one CryptoBackend so that
// `createClient({ crypto })` and both entry points share one implementation.
import { SignetError } from "../errors/errors.js";
import type {
  CryptoBackend,
  DecryptionKey,
  GenerateSigningKeyOptions,
  SigningKey,
  SigningKeyRecord,
} from "./backend.js";
import type { SealOtpBundleParameters } from "./bundles.js";
import { loadChunk } from "./chunk.js";
import type { OpenExportBundleParameters } from "./export-bundle.js";
import type { OpenSessionKeyBundleParameters } from "./legacy-session-key.js";
import { oauthNonce } from "./oauth.js";
import { parseScalar } from "./p256.js";
import { stampPayload, type VerifyStampParameters } from "./stamp.js";

// Rare paths load on first use and stay out of the browser bundle: stamp verification (tests and
// tools), wallet export (about once per wallet) and legacy session bundles (explicit opt-in).
// What every signed request needs (stamps) is eager. Sealing an OTP (the target bundle's checks)
// is a chunk of its own that `createClient` prefetches with HPKE, which the sealing needs too:
// a typed code never waits for either.

/** Loads the OTP sealing chunk (./bundles.ts); `preloadOtpSealing` starts it early. */
const loadBundles = () => loadChunk(() => import("./bundles.js"));

/** Starts loading the OTP sealing chunk, so no typed code waits for it (a failure is retried on use). */
export function preloadOtpSealing(): void {
  import("./bundles.js").catch(() => undefined);
}

/**
 * The crypto contract of `@signet/core`, bound to one backend (docs/architecture.md "The crypto
 * contract"). Both entry points export these functions of their backend by the same names.
 */
export interface CryptoApi {
  readonly backend: CryptoBackend;
  /**
   * Generates a P-256 signing key (ECDSA, SHA-256) for a session or a one-time TEK. On WebCrypto
   * (browser and Node entry) the private half is a non-extractable `CryptoKey` unless
   * `extractable: true`; noble keys (`react-native` entry) are scalars the app's secure store keeps.
   *
   * @param options - `extractable` (default `false`; ignored by noble).
   * @returns A {@link SigningKey} with `publicKey` (66 hex) and `publicKeyUncompressed` (130 hex).
   * @throws {SignetError} `CRYPTO_UNAVAILABLE` without WebCrypto (for example on an insecure
   * origin) or, on noble, without a secure random source.
   * @example
   * ```ts
   * const key = await generateSigningKey();
   * await keyStore.set(sessionId, key.toRecord());
   * ```
   */
  generateSigningKey(options?: GenerateSigningKeyOptions): Promise<SigningKey>;
  /**
   * Imports a P-256 private scalar (64 hex digits, either case, or 32 bytes), for example a legacy
   * session key from {@link openSessionKeyBundle}. On WebCrypto imported non-extractable unless
   * `extractable: true`.
   *
   * @param privateKey - The scalar; 1 ≤ d < n.
   * @param options - `extractable` (default `false`; ignored by noble).
   * @returns A {@link SigningKey}.
   * @throws {SignetError} `KEY_INVALID` for a wrong length, non-hex or out-of-range scalar (the message never shows it).
   * @example
   * ```ts
   * const key = await importSigningKey(await openSessionKeyBundle({ bundle, key: decryptionKey }));
   * ```
   */
  importSigningKey(
    privateKey: string | Uint8Array,
    options?: GenerateSigningKeyOptions,
  ): Promise<SigningKey>;
  /**
   * Turns a stored {@link SigningKeyRecord} (from `SigningKey.toRecord()` via a `KeyStore`) back into a
   * {@link SigningKey}, checking that its public key belongs to its private key. A `scalar`
   * record is checked here; a `webcrypto` record's private half cannot be read, so its key's first
   * signature is checked against the stored public key before `sign` returns it: a mismatched
   * record never stamps, and its first `sign` (or `stampPayload`) rejects with `KEY_INVALID`.
   *
   * @param record - A `webcrypto` (CryptoKey) or `scalar` (hex) record; noble refuses `webcrypto` ones.
   * @returns The {@link SigningKey}.
   * @throws {SignetError} `KEY_INVALID` for a malformed record or a mismatched `scalar` one.
   * @example
   * ```ts
   * const record = await keyStore.get(sessionId);
   * const key = record && (await restoreSigningKey(record));
   * ```
   */
  restoreSigningKey(record: SigningKeyRecord): Promise<SigningKey>;
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
  stampPayload(payload: string, key: SigningKey): Promise<string>;
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
  verifyStamp(parameters: VerifyStampParameters): Promise<{ publicKey: string }>;
  /**
   * Generates a P-256 HPKE recipient key (non-extractable ECDH on WebCrypto), fresh for each
   * wallet export or legacy session.
   *
   * @returns A {@link DecryptionKey}; send `publicKeyUncompressed` as `clientPublicKey`.
   * @throws {SignetError} `CRYPTO_UNAVAILABLE` without a crypto implementation.
   * @example
   * ```ts
   * const key = await generateDecryptionKey();
   * const mnemonic = await openExportBundle({ bundle, key });
   * ```
   */
  generateDecryptionKey(): Promise<DecryptionKey>;
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
  importDecryptionKey(privateKey: string | Uint8Array): Promise<DecryptionKey>;
  /**
   * Builds the `encryptedOtpBundle` for OTP verify: checks the target bundle's signature against
   * `trustedKeys` (default: the pinned production key), then HPKE-seals
   * `{"otp_code":…,"public_key":<TEK uncompressed hex>}` to its `targetPublic`.
   *
   * @param parameters - `targetBundle`, `otpCode`, `publicKey` (the TEK), `trustedKeys?`, `allowUnsigned?`, `onWarning?`.
   * @returns The JSON text `{"encappedPublic":…,"ciphertext":…}`, sent as a string.
   * @throws {SignetError} `BUNDLE_MALFORMED`, `BUNDLE_SIGNATURE_INVALID`, `BUNDLE_SIGNER_UNTRUSTED`,
   * `INVALID_ARGUMENT`, `POINT_INVALID`, `ENCODING_INVALID`; `NETWORK` (retryable) when the
   * sealing code, a chunk prefetched by `createClient`, could not be loaded. Messages never contain
   * the code.
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
  sealOtpBundle(parameters: SealOtpBundleParameters): Promise<string>;
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
  openSessionKeyBundle(parameters: OpenSessionKeyBundleParameters): Promise<Uint8Array>;
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
  openExportBundle(parameters: OpenExportBundleParameters): Promise<string>;
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
  oauthNonce(clientPublicKey: string): Promise<string>;
  /**
   * Told, just before `stampPayload` is asked to stamp `payloadToSign`, which operation and which
   * request it belongs to. A signer outside the page (`@signet/frame`, whose keys live in another
   * origin) reads the operation's check and what to show the user from it; core's own backends
   * leave it out. Called by the client for every signed request, never with a secret.
   */
  readonly describeStamp?: ((payloadToSign: string, request: StampRequest) => void) | undefined;
  /**
   * Opens an export bundle where its key lives and shows the phrase there instead of returning it
   * (`@signet/frame`): `exportWallet` then resolves to what this returns. Core's own backends
   * leave it out, and `exportWallet` returns the phrase.
   */
  readonly showExportBundle?:
    | ((parameters: OpenExportBundleParameters) => Promise<ExportShownElsewhere>)
    | undefined;
  /**
   * Opens a legacy `encryptedSessionSigningKey` where its decryption key lives and keeps the
   * session key there, returning a {@link SigningKey} that stamps through it (`@signet/frame`):
   * the legacy sign-ins and refreshes then never see the scalar. Core's own backends leave it
   * out, and the session key is opened with {@link openSessionKeyBundle} and
   * {@link importSigningKey}.
   */
  readonly openSessionSigningKey?:
    | ((parameters: OpenSessionKeyBundleParameters) => Promise<SigningKey>)
    | undefined;
}

/** What `CryptoApi.describeStamp` is told about a payload before it is stamped. */
export type StampRequest = {
  /** The signed operation (`exportWallet`, `refreshSession`, …). */
  readonly operation: string;
  readonly method: string;
  /** Relative to the relay URL. */
  readonly path: string;
  /** The exact body the request sends, if any. */
  readonly body?: string | undefined;
  /** The leg the stamp is for. */
  readonly leg: number;
};

/**
 * What `exportWallet` resolves to when the recovery phrase was shown where the key lives (a
 * signer frame) and never reached the page: the page gets no words.
 */
export type ExportShownElsewhere = {
  /** Where the phrase was shown: `"frame"` (`@signet/frame`). */
  readonly shownIn: "frame";
};

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
      return (await loadChunk(() => import("./rare.js"))).verifyStamp(backend, parameters);
    },
    generateDecryptionKey: () => {
      // A decryption key means an export or a legacy session bundle is coming: fetch that code
      // now, before the request, so a chunk that fails to load cannot strand a result the
      // service has already produced. A failure here is retried by the real import later.
      import("./rare.js").catch(() => undefined);
      return backend.generateDecryptionKey();
    },
    importDecryptionKey: async (privateKey) => backend.importDecryptionKey(parseScalar(privateKey)),
    sealOtpBundle: async (parameters) => {
      assertParameters(parameters);
      return (await loadBundles()).sealOtpBundle(backend, parameters);
    },
    openSessionKeyBundle: async (parameters) => {
      assertParameters(parameters);
      return (await loadChunk(() => import("./rare.js"))).openSessionKeyBundle(backend, parameters);
    },
    openExportBundle: async (parameters) => {
      assertParameters(parameters);
      return (await loadChunk(() => import("./rare.js"))).openExportBundle(backend, parameters);
    },
    oauthNonce: (clientPublicKey) => oauthNonce(backend, clientPublicKey),
  };
}
