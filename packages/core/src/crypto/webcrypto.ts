// W3C Web Cryptography API (ECDSA P-256/SHA-256, ECDH) for keys and stamps, and RFC 9180 HPKE
// through @hpke/core (./hpke-webcrypto.ts, a chunk loaded on first use or by `preload`),
// docs/protocol.md §4: the backend for browsers and Node. No curve library: point decoding is
// ./p256.ts, d·G of an imported scalar the rare chunk's ./p256-multiply.ts, the rest is native.
import { SignetError } from "../errors/errors.js";
import type {
  CryptoBackend,
  GenerateSigningKeyOptions,
  HpkeSealParameters,
  SigningKey,
  SigningKeyRecord,
} from "./backend.js";
import { loadChunk } from "./chunk.js";
import { p1363ToDer } from "./der.js";
import { bytesToHex, hexToBytes } from "./encoding.js";
import { encodePoint, normalizePublicKey, type PublicKeyHex, parseScalar } from "./p256.js";
import { defaultRandomBytes } from "./random.js";
import {
  attempt,
  bytes,
  getSubtle,
  jwkFromScalar,
  type PublicKeyOfScalar,
  source,
} from "./subtle.js";

const ECDSA: EcKeyImportParams = { name: "ECDSA", namedCurve: "P-256" };
const SIGN: EcdsaParams = { name: "ECDSA", hash: "SHA-256" };

// The browser's d·G: the rare chunk's ladder (./p256-multiply.ts says why it is not WebCrypto's
// or noble's), loaded on first use. A chunk that fails to load says nothing about the key:
// NETWORK, not KEY_INVALID.
const ladderPublicKey: PublicKeyOfScalar = async (scalar) => {
  const { publicKeyFromScalar } = await loadChunk(() => import("./rare.js"));
  return encodePoint(publicKeyFromScalar(scalar), false);
};

/** `verifyKey`: the generated pair's public key, kept in the record so a restore imports nothing. */
async function webCryptoSigningKey(
  privateKey: CryptoKey,
  publicKeyRaw: Uint8Array,
  verifyKey?: CryptoKey,
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
    toRecord: (): SigningKeyRecord => ({
      type: "webcrypto",
      privateKey,
      publicKey: compressed,
      ...(verifyKey && { verifyKey }),
    }),
  };
}

const COMPRESSED_HEX = /^0[23][0-9a-f]{64}$/;

// Chromium and Firefox import a compressed point as it is; WebKit refuses one (DataError), and
// once it has, this realm decompresses stored keys itself before importing them.
let compressedImport = true;

/**
 * The key of a stored `webcrypto` record, usable at once. Its private half cannot be read, so the
 * record's public key is proven by the key's first signature, checked before `sign` returns it
 * (a probe signed at restore would cost the first stamp a signature). The check's work (binding
 * the record's `verifyKey` to its public key, or importing that key) starts at once and runs while
 * the app gets to that signature.
 */
function restoredSigningKey(
  privateKey: CryptoKey,
  publicKey: string,
  verifyKey: CryptoKey | undefined,
): SigningKey {
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
  // The stored public key as a verification key: the record's own, or imported (the browser
  // decompresses the canonical form where it can: the same point, x and the parity of y; else it
  // is decompressed here).
  const verifier = async (): Promise<CryptoKey> => {
    if (verifyKey) {
      // The record's own verification key, bound to its hex without an import or a square root:
      // the same x and the same parity of y are the same point (a P-256 CryptoKey's point is on
      // the curve). A verifyKey that is not the hex's is what a mismatched public key is.
      const raw = bytes(await getSubtle().exportKey("raw", verifyKey));
      const compressed = `0${2 + (raw[64]! & 1)}${bytesToHex(raw.subarray(1, 33))}`;
      if (compressed !== (hex?.compressed ?? publicKey)) throw mismatch();
      hex = { compressed, uncompressed: bytesToHex(raw) };
      return verifyKey;
    }
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
      ...(verifyKey && { verifyKey }),
    }),
  };
}

/** Whether `value` is an ECDSA P-256 `CryptoKey` of `type` that may be used to `usage`. */
const isP256Key = (value: unknown, type: KeyType, usage: KeyUsage): value is CryptoKey =>
  typeof CryptoKey !== "undefined" &&
  value instanceof CryptoKey &&
  value.type === type &&
  value.algorithm.name === "ECDSA" &&
  (value.algorithm as EcKeyAlgorithm).namedCurve === "P-256" &&
  value.usages.includes(usage);

type HpkeModule = typeof import("./hpke-webcrypto.js");

/**
 * HPKE and the decryption keys it opens with are a chunk (./hpke-webcrypto.ts): only an OTP seal,
 * an export or a legacy bundle needs them. A chunk that cannot be fetched is a retryable `NETWORK`
 * error.
 */
const loadHpke = (): Promise<HpkeModule> => loadChunk(() => import("./hpke-webcrypto.js"));
const withHpke =
  <A extends unknown[], T>(run: (module: HpkeModule, ...args: A) => Promise<T>) =>
  async (...args: A): Promise<T> =>
    run(await loadHpke(), ...args);

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
          pair.publicKey,
        );
      }),
    importSigningKey,
    async restoreSigningKey(record) {
      if (record?.type === "scalar") {
        const key = await importSigningKey(parseScalar(record.privateKey, "record.privateKey"));
        return matched(key.publicKey === record.publicKey, key);
      }
      const { privateKey, verifyKey } = (record ?? {}) as {
        privateKey?: unknown;
        verifyKey?: unknown;
      };
      // A record without `verifyKey` (kept before it was, or by a store that drops it) is proven
      // through an import of its public key; one with a verifyKey that is not a P-256 public
      // verification key it can bind (export) is refused, as a record whose private key is not one.
      if (
        record?.type !== "webcrypto" ||
        !isP256Key(privateKey, "private", "sign") ||
        (verifyKey !== undefined &&
          !(isP256Key(verifyKey, "public", "verify") && verifyKey.extractable))
      ) {
        throw new SignetError(
          "KEY_INVALID",
          `"record" expected an ECDSA P-256 private CryptoKey record`,
        );
      }
      return restoredSigningKey(privateKey, record.publicKey, verifyKey);
    },
    generateDecryptionKey: withHpke((m) => m.generateDecryptionKey()),
    importDecryptionKey: withHpke((m, scalar: Uint8Array) =>
      m.importDecryptionKey(scalar, publicKeyOf),
    ),
    verify: withHpke((m, publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) =>
      m.verify(publicKey, message, signature),
    ),
    hpkeSeal: withHpke((m, parameters: HpkeSealParameters) => m.hpkeSeal(parameters)),
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
