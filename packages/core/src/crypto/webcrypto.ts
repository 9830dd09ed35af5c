// W3C Web Cryptography API (ECDSA P-256/SHA-256, ECDH) for keys and stamps, and RFC 9180 HPKE
// through @hpke/core (./hpke-webcrypto.ts, a chunk loaded on first use or by `preload`),
// docs/protocol.md §4: the backend for browsers and Node. No curve library: point decoding is
// ./p256.ts, d·G of an imported scalar the rare chunk's ./p256-multiply.ts, the rest is native.
import { SignetError, type SignetErrorCode } from "../errors/errors.js";
import type {
  CryptoBackend,
  DecryptionKey,
  GenerateSigningKeyOptions,
  HpkeOpenParameters,
  HpkeSealParameters,
  SigningKey,
  SigningKeyRecord,
} from "./backend.js";
import { loadChunk } from "./chunk.js";
import { p1363ToDer } from "./der.js";
import { base64UrlEncode, bytesToHex, hexToBytes } from "./encoding.js";
import {
  decodePoint,
  encodePoint,
  normalizePublicKey,
  type PublicKeyHex,
  parseScalar,
} from "./p256.js";
import { defaultRandomBytes } from "./random.js";

const ECDSA: EcKeyImportParams = { name: "ECDSA", namedCurve: "P-256" };
const ECDH: EcKeyImportParams = { name: "ECDH", namedCurve: "P-256" };
const SIGN: EcdsaParams = { name: "ECDSA", hash: "SHA-256" };

/** `globalThis.crypto.subtle`, looked up per call (SSR-safe). */
function getSubtle(): SubtleCrypto {
  const subtle = (globalThis as { crypto?: Partial<Crypto> }).crypto?.subtle;
  if (!subtle)
    throw new SignetError("CRYPTO_UNAVAILABLE", "WebCrypto (crypto.subtle) is not available here");
  return subtle;
}

// WebCrypto throws DOMException / TypeError: each becomes one code here.
async function attempt<T>(
  code: SignetErrorCode,
  message: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    if (cause instanceof SignetError) throw cause;
    throw new SignetError(code, message, { cause });
  }
}

const bytes = (buffer: ArrayBuffer): Uint8Array => new Uint8Array(buffer);
// TS 5.9 types BufferSource as ArrayBuffer-backed views; a copy satisfies that for any input.
const source = (data: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(data);

/** The 65-byte public key d·G of a checked 32-byte scalar. */
export type PublicKeyOfScalar = (scalar: Uint8Array) => Promise<Uint8Array>;

// The browser's d·G: the rare chunk's ladder (./p256-multiply.ts says why it is not WebCrypto's
// or noble's), loaded on first use. A chunk that fails to load says nothing about the key:
// NETWORK, not KEY_INVALID.
const ladderPublicKey: PublicKeyOfScalar = async (scalar) => {
  const { publicKeyFromScalar } = await loadChunk(() => import("./rare.js"));
  return encodePoint(publicKeyFromScalar(scalar), false);
};

// WebCrypto cannot import a bare scalar: a JWK needs the public point too (a rare path: legacy
// session keys and tests).
async function jwkFromScalar(
  scalar: Uint8Array,
  publicKeyOf: PublicKeyOfScalar,
): Promise<{ jwk: JsonWebKey; publicKeyRaw: Uint8Array }> {
  const publicKeyRaw = await publicKeyOf(scalar);
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: base64UrlEncode(publicKeyRaw.subarray(1, 33)),
    y: base64UrlEncode(publicKeyRaw.subarray(33)),
    d: base64UrlEncode(scalar),
  };
  return { jwk, publicKeyRaw };
}

async function webCryptoSigningKey(
  privateKey: CryptoKey,
  publicKeyRaw: Uint8Array,
): Promise<SigningKey> {
  const { compressed, uncompressed } = normalizePublicKey(publicKeyRaw);
  return {
    publicKey: compressed,
    publicKeyUncompressed: uncompressed,
    extractable: privateKey.extractable,
    sign: (message) =>
      attempt("KEY_INVALID", "signing failed", async () =>
        p1363ToDer(bytes(await getSubtle().sign(SIGN, privateKey, source(message)))),
      ),
    toRecord: (): SigningKeyRecord => ({ type: "webcrypto", privateKey, publicKey: compressed }),
  };
}

const COMPRESSED_HEX = /^0[23][0-9a-f]{64}$/;

// Chromium and Firefox import a compressed point as it is; WebKit refuses one (DataError), and
// once it has, this realm decompresses stored keys itself before importing them.
let compressedImport = true;

/**
 * The key of a stored `webcrypto` record, usable at once. Its private half cannot be read, so the
 * record's public key is proven by the key's first signature, checked before `sign` returns it
 * (a probe signed at restore would cost the first stamp a signature). The check's work (the
 * stored key's import) starts at once and runs while the app gets to that signature.
 */
function restoredSigningKey(privateKey: CryptoKey, publicKey: string): SigningKey {
  let hex: PublicKeyHex | undefined;
  // A compressed key is only decompressed when needed: that is a square root in BigInt, 2–18 ms
  // in a cold page. One that is not on the curve matches no private key.
  const point = (): PublicKeyHex => {
    try {
      hex ??= normalizePublicKey(publicKey, "record.publicKey");
      return hex;
    } catch {
      throw mismatch();
    }
  };
  if (!COMPRESSED_HEX.test(publicKey)) point(); // not the canonical form: checked at once
  const importRaw = (raw: string) =>
    getSubtle().importKey("raw", source(hexToBytes(raw)), ECDSA, false, ["verify"]);
  // The stored public key as a verification key: the browser decompresses the canonical form
  // where it can (the same point: x and the parity of y); else it is decompressed here.
  const verifier = async (): Promise<CryptoKey> => {
    if (compressedImport && hex === undefined) {
      try {
        return await importRaw(publicKey);
      } catch {
        // Refused: off the curve (point() says so below), or an engine without compressed import.
        const uncompressed = point().uncompressed;
        compressedImport = false;
        return importRaw(uncompressed);
      }
    }
    return importRaw(point().uncompressed);
  };
  // Imported now, while the app gets to its first stamp; awaited by the first signature. A key
  // that is never used must not report its refusal as an unhandled rejection.
  let verifying: Promise<CryptoKey> | undefined = verifier();
  verifying.catch(() => undefined);
  let proven = false;
  return {
    publicKey: hex?.compressed ?? publicKey,
    get publicKeyUncompressed() {
      return point().uncompressed;
    },
    extractable: privateKey.extractable,
    sign: (message) =>
      attempt("KEY_INVALID", "signing failed", async () => {
        const signing = getSubtle().sign(SIGN, privateKey, source(message));
        if (proven) return p1363ToDer(bytes(await signing));
        // A failed import (a transient one too) is tried again by the next signature.
        verifying ??= verifier();
        const [signature, key] = await Promise.all([
          signing,
          verifying.catch((error: unknown) => {
            verifying = undefined;
            throw error;
          }),
        ]);
        if (!(await getSubtle().verify(SIGN, key, signature, source(message)))) throw mismatch();
        proven = true;
        return p1363ToDer(bytes(signature));
      }),
    toRecord: (): SigningKeyRecord => ({
      type: "webcrypto",
      privateKey,
      publicKey: hex?.compressed ?? publicKey,
    }),
  };
}

const isCryptoKey = (value: unknown): value is CryptoKey =>
  typeof CryptoKey !== "undefined" && value instanceof CryptoKey;

type HpkeModule = typeof import("./hpke-webcrypto.js");

/** The HPKE chunk, a retryable `NETWORK` error when it cannot be fetched. */
const loadHpke = (): Promise<HpkeModule> => loadChunk(() => import("./hpke-webcrypto.js"));

/** Runs an HPKE operation of the chunk; its failures become `code` (`DECRYPTION_FAILED` when the data does not open). */
async function hpke<T>(
  run: (module: HpkeModule) => Promise<T>,
  code: "DECRYPTION_FAILED" | "CRYPTO_UNAVAILABLE",
  message: string,
): Promise<T> {
  const module = await loadHpke();
  try {
    return await run(module);
  } catch (cause) {
    if (cause instanceof SignetError) throw cause;
    throw new SignetError(module.isOpenFailure(cause) ? "DECRYPTION_FAILED" : code, message, {
      cause,
    });
  }
}

function webCryptoDecryptionKey(keyPair: CryptoKeyPair, publicKeyRaw: Uint8Array): DecryptionKey {
  return {
    publicKeyUncompressed: bytesToHex(publicKeyRaw),
    async hpkeOpen(parameters: HpkeOpenParameters) {
      const enc = parameters?.enc;
      if (enc?.length !== 65)
        throw new SignetError("POINT_INVALID", `"enc" expected 65 bytes, got ${enc?.length}`);
      decodePoint(enc, "enc");
      return hpke(
        (m) => m.hpkeOpen(keyPair, parameters),
        "DECRYPTION_FAILED",
        "HPKE open failed (wrong key or altered data)",
      );
    },
  };
}

const mismatch = () =>
  new SignetError("KEY_INVALID", `"record" public key does not match its private key`);

/** `key` if a restored record's public key is its private key's. */
function matched<T>(ok: boolean, key: T): T {
  if (!ok) throw mismatch();
  return key;
}

/**
 * Creates the WebCrypto backend (browsers, Node ≥ 20, Deno, Bun, workers): ECDSA and ECDH through
 * `crypto.subtle`, HPKE through `@hpke/core` (on `crypto.subtle` too). `crypto.subtle` is looked up on every call, so
 * importing this module is safe during server-side rendering. The default entry uses it.
 *
 * @returns A {@link CryptoBackend}.
 * @throws Nothing at creation; operations throw `CRYPTO_UNAVAILABLE` where `crypto.subtle` is missing
 * (for example an insecure `http:` origin).
 * @example
 * ```ts
 * const api = createCryptoApi(createWebCryptoBackend());
 * const key = await api.generateSigningKey();
 * ```
 */
export function createWebCryptoBackend(): CryptoBackend {
  return webCryptoBackendWith(ladderPublicKey);
}

/**
 * The WebCrypto backend with another way to compute the public key of an imported scalar (the
 * `node` entry's OpenSSL). Internal: not exported by any entry.
 */
export function webCryptoBackendWith(publicKeyOf: PublicKeyOfScalar): CryptoBackend {
  const importSigningKey = (scalar: Uint8Array, options?: GenerateSigningKeyOptions) =>
    attempt("KEY_INVALID", "signing key import failed", async () => {
      const { jwk, publicKeyRaw } = await jwkFromScalar(scalar, publicKeyOf);
      const privateKey = await getSubtle().importKey(
        "jwk",
        jwk,
        ECDSA,
        options?.extractable ?? false,
        ["sign"],
      );
      return webCryptoSigningKey(privateKey, publicKeyRaw);
    });
  return {
    name: "webcrypto",
    generateSigningKey: (options) =>
      attempt("CRYPTO_UNAVAILABLE", "signing key generation failed", async () => {
        const subtle = getSubtle();
        const pair = await subtle.generateKey(ECDSA, options?.extractable ?? false, [
          "sign",
          "verify",
        ]);
        return webCryptoSigningKey(
          pair.privateKey,
          bytes(await subtle.exportKey("raw", pair.publicKey)),
        );
      }),
    importSigningKey,
    async restoreSigningKey(record) {
      if (record?.type === "scalar") {
        const key = await importSigningKey(parseScalar(record.privateKey, "record.privateKey"));
        return matched(key.publicKey === record.publicKey, key);
      }
      const privateKey = (record as { privateKey?: unknown } | undefined)?.privateKey;
      if (
        record?.type !== "webcrypto" ||
        !isCryptoKey(privateKey) ||
        privateKey.type !== "private" ||
        privateKey.algorithm.name !== "ECDSA" ||
        (privateKey.algorithm as EcKeyAlgorithm).namedCurve !== "P-256" ||
        !privateKey.usages.includes("sign")
      ) {
        throw new SignetError(
          "KEY_INVALID",
          `"record" expected an ECDSA P-256 private CryptoKey record`,
        );
      }
      return restoredSigningKey(privateKey, record.publicKey);
    },
    generateDecryptionKey: () =>
      attempt("CRYPTO_UNAVAILABLE", "decryption key generation failed", async () => {
        const subtle = getSubtle();
        const pair = await subtle.generateKey(ECDH, false, ["deriveBits"]);
        return webCryptoDecryptionKey(pair, bytes(await subtle.exportKey("raw", pair.publicKey)));
      }),
    importDecryptionKey: (scalar) =>
      attempt("KEY_INVALID", "decryption key import failed", async () => {
        const subtle = getSubtle();
        const { jwk, publicKeyRaw } = await jwkFromScalar(scalar, publicKeyOf);
        const privateKey = await subtle.importKey("jwk", jwk, ECDH, false, ["deriveBits"]);
        const publicKey = await subtle.importKey("raw", source(publicKeyRaw), ECDH, true, []);
        return webCryptoDecryptionKey({ privateKey, publicKey }, publicKeyRaw);
      }),
    verify: verifyP1363,
    async hpkeSeal(parameters: HpkeSealParameters) {
      const recipientPublicKey = parameters?.recipientPublicKey;
      if (recipientPublicKey?.length !== 65) {
        throw new SignetError(
          "POINT_INVALID",
          `"recipientPublicKey" expected 65 bytes, got ${recipientPublicKey?.length}`,
        );
      }
      decodePoint(recipientPublicKey, "recipientPublicKey");
      return hpke((m) => m.hpkeSeal(parameters), "CRYPTO_UNAVAILABLE", "HPKE seal failed");
    },
    preload() {
      loadHpke().catch(() => undefined);
    },
    sha256: (data) =>
      attempt("CRYPTO_UNAVAILABLE", "SHA-256 failed", async () =>
        bytes(await getSubtle().digest("SHA-256", source(data))),
      ),
    randomBytes: defaultRandomBytes,
  };
}

async function verifyP1363(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  if (publicKey?.length !== 65)
    throw new SignetError(
      "POINT_INVALID",
      `"publicKey" expected 65 bytes, got ${publicKey?.length}`,
    );
  decodePoint(publicKey);
  if (signature?.length !== 64) return false;
  return attempt("CRYPTO_UNAVAILABLE", "signature verification failed", async () => {
    const subtle = getSubtle();
    const key = await subtle.importKey("raw", source(publicKey), ECDSA, true, ["verify"]);
    return subtle.verify(SIGN, key, source(signature), source(message));
  });
}
