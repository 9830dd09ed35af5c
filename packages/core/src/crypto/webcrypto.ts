// W3C Web Cryptography API (ECDSA P-256/SHA-256, ECDH), RFC 9180 through @hpke/core, PROTOCOL.md §4:
// the backend for browsers and Node. No curve library: point math is ./p256.ts, the rest is native.
import type { CipherSuite } from "@hpke/core";
import { SignetError, type SignetErrorCode } from "../errors.js";
import type {
  CryptoBackend,
  DecryptionKey,
  GenerateSigningKeyOptions,
  HpkeOpenParameters,
  HpkeSealParameters,
  SigningKey,
  SigningKeyRecord,
} from "./backend.js";
import { p1363ToDer } from "./der.js";
import { base64UrlEncode, bytesToHex, hexToBytes } from "./encoding.js";
import {
  bigIntToBytes32,
  decodePoint,
  encodePoint,
  normalizePublicKey,
  parseScalar,
  publicKeyFromScalar,
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

type HpkeModule = typeof import("@hpke/core");
/** @hpke/core, loaded on first HPKE use (a lazy chunk: most page loads never seal or open). */
type Hpke = { module: HpkeModule; suite: CipherSuite };

// WebCrypto and @hpke/core throw DOMException / TypeError / HpkeError: each becomes one code here.
async function attempt<T>(
  code: SignetErrorCode,
  message: string,
  run: () => Promise<T>,
  hpke?: Hpke,
): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    if (cause instanceof SignetError) throw cause;
    if (hpke && cause instanceof hpke.module.OpenError)
      throw new SignetError("DECRYPTION_FAILED", "HPKE open failed (wrong key or altered data)", {
        cause,
      });
    if (hpke && cause instanceof hpke.module.DeserializeError)
      throw new SignetError("POINT_INVALID", "HPKE public key is invalid", { cause });
    throw new SignetError(code, message, { cause });
  }
}

const bytes = (buffer: ArrayBuffer): Uint8Array => new Uint8Array(buffer);
// TS 5.9 types BufferSource as ArrayBuffer-backed views; a copy satisfies that for any input.
const source = (data: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(data);

// WebCrypto cannot import a bare scalar: a JWK needs the public point too, computed here.
function jwkFromScalar(scalar: Uint8Array): { jwk: JsonWebKey; publicKeyRaw: Uint8Array } {
  const point = publicKeyFromScalar(scalar);
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: base64UrlEncode(bigIntToBytes32(point.x)),
    y: base64UrlEncode(bigIntToBytes32(point.y)),
    d: base64UrlEncode(scalar),
  };
  return { jwk, publicKeyRaw: encodePoint(point, false) };
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

const isCryptoKey = (value: unknown): value is CryptoKey =>
  typeof CryptoKey !== "undefined" && value instanceof CryptoKey;

function webCryptoDecryptionKey(
  loadHpke: () => Promise<Hpke>,
  keyPair: CryptoKeyPair,
  publicKeyRaw: Uint8Array,
): DecryptionKey {
  return {
    publicKeyUncompressed: bytesToHex(publicKeyRaw),
    hpkeOpen: ({ enc, ciphertext, info, aad }: HpkeOpenParameters) => {
      if (enc?.length !== 65)
        throw new SignetError("POINT_INVALID", `"enc" expected 65 bytes, got ${enc?.length}`);
      decodePoint(enc, "enc");
      return attempt("CRYPTO_UNAVAILABLE", "HPKE is not available", loadHpke).then((hpke) =>
        attempt(
          "DECRYPTION_FAILED",
          "HPKE open failed (wrong key or altered data)",
          async () =>
            bytes(
              await hpke.suite.open(
                { recipientKey: keyPair, enc: source(enc), info: source(info) },
                source(ciphertext),
                source(aad),
              ),
            ),
          hpke,
        ),
      );
    },
  };
}

/**
 * Creates the WebCrypto backend (browsers, Node ≥ 20, Deno, Bun, workers): ECDSA and ECDH through
 * `crypto.subtle`, HPKE through `@hpke/core`. `crypto.subtle` is looked up on every call, so
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
  let hpke: Promise<Hpke> | undefined;
  // Loaded and built on first use; @hpke/core looks up globalThis.crypto itself, at call time.
  const loadHpke = (): Promise<Hpke> => {
    hpke ??= import("@hpke/core").then((module) => ({
      module,
      suite: new module.CipherSuite({
        kem: new module.DhkemP256HkdfSha256(),
        kdf: new module.HkdfSha256(),
        aead: new module.Aes256Gcm(),
      }),
    }));
    // A failed load (offline chunk) may be retried on the next call.
    hpke.catch(() => {
      hpke = undefined;
    });
    return hpke;
  };
  const importSigningKey = (scalar: Uint8Array, options?: GenerateSigningKeyOptions) =>
    attempt("KEY_INVALID", "signing key import failed", async () => {
      const { jwk, publicKeyRaw } = jwkFromScalar(scalar);
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
        if (key.publicKey !== record.publicKey) {
          throw new SignetError(
            "KEY_INVALID",
            `"record" public key does not match its private key`,
          );
        }
        return key;
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
      const publicKeyRaw = hexToBytes(
        normalizePublicKey(record.publicKey, "record.publicKey").uncompressed,
      );
      const key = await webCryptoSigningKey(privateKey, publicKeyRaw);
      // The private half cannot be read, so prove the stored public key belongs to it.
      const probe = new Uint8Array([0x73, 0x69, 0x67, 0x6e, 0x65, 0x74]);
      const signature = await attempt("KEY_INVALID", "signing failed", () =>
        getSubtle().sign(SIGN, privateKey, probe),
      );
      const ok = await verifyP1363(publicKeyRaw, probe, bytes(signature));
      if (!ok)
        throw new SignetError("KEY_INVALID", `"record" public key does not match its private key`);
      return key;
    },
    generateDecryptionKey: () =>
      attempt("CRYPTO_UNAVAILABLE", "decryption key generation failed", async () => {
        const subtle = getSubtle();
        const pair = await subtle.generateKey(ECDH, false, ["deriveBits"]);
        return webCryptoDecryptionKey(
          loadHpke,
          pair,
          bytes(await subtle.exportKey("raw", pair.publicKey)),
        );
      }),
    importDecryptionKey: (scalar) =>
      attempt("KEY_INVALID", "decryption key import failed", async () => {
        const subtle = getSubtle();
        const { jwk, publicKeyRaw } = jwkFromScalar(scalar);
        const privateKey = await subtle.importKey("jwk", jwk, ECDH, false, ["deriveBits"]);
        const publicKey = await subtle.importKey("raw", source(publicKeyRaw), ECDH, true, []);
        return webCryptoDecryptionKey(loadHpke, { privateKey, publicKey }, publicKeyRaw);
      }),
    verify: verifyP1363,
    async hpkeSeal({ recipientPublicKey, plaintext, info, aad }: HpkeSealParameters) {
      if (recipientPublicKey?.length !== 65) {
        throw new SignetError(
          "POINT_INVALID",
          `"recipientPublicKey" expected 65 bytes, got ${recipientPublicKey?.length}`,
        );
      }
      decodePoint(recipientPublicKey, "recipientPublicKey");
      const hpke = await attempt("CRYPTO_UNAVAILABLE", "HPKE is not available", loadHpke);
      return attempt(
        "CRYPTO_UNAVAILABLE",
        "HPKE seal failed",
        async () => {
          const sender = await hpke.suite.createSenderContext({
            recipientPublicKey: await hpke.suite.kem.deserializePublicKey(
              source(recipientPublicKey),
            ),
            info: source(info),
          });
          const enc = bytes(sender.enc);
          const additional = typeof aad === "function" ? aad(enc) : aad;
          return {
            enc,
            ciphertext: bytes(await sender.seal(source(plaintext), source(additional))),
          };
        },
        hpke,
      );
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
