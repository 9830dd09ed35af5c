// FIPS 186-5 §6 (ECDSA P-256/SHA-256), RFC 9180 (HPKE via ./hpke.ts), docs/protocol.md §4: the backend
// for engines without WebCrypto (React Native / Hermes), on @noble/curves, hashes and ciphers.
import { gcm } from "@noble/ciphers/aes.js";
import { type ECDSA, ecdsa, weierstrass } from "@noble/curves/abstract/weierstrass.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { SignetError } from "../errors/errors.js";
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
import { bytesToHex } from "./encoding.js";
import { type HpkePrimitives, hpkeOpenWith, hpkeSealWith } from "./hpke.js";
import {
  B,
  bytesToBigInt,
  decodePoint,
  encodePoint,
  N,
  normalizePublicKey,
  P,
  parseScalar,
} from "./p256.js";
import { GX, GY } from "./p256-base.js";
import { buildComb, COMB_BLIND_BYTES, type Comb, canBlind, combMultiply } from "./p256-comb.js";
import { BLIND_LENGTH, signP256 } from "./p256-sign.js";
import { defaultRandomBytes, type RandomBytes } from "./random.js";

/**
 * Checks at client creation that `backend` has a working secure random source: React Native has
 * none until the app installs one, and the first key generation is too late to say so.
 * @throws {SignetError} `CRYPTO_UNAVAILABLE` naming what to install (`details.missing`).
 */
export function assertRandomSource(backend: Pick<CryptoBackend, "randomBytes">): void {
  let bytes: unknown;
  try {
    bytes = backend.randomBytes(16);
  } catch (cause) {
    throw new SignetError(
      "CRYPTO_UNAVAILABLE",
      "No secure random source: crypto.getRandomValues is missing. Import " +
        '"react-native-get-random-values" first in your app\'s entry file, or pass ' +
        "crypto: createCryptoApi(createNobleBackend({ randomBytes: getRandomBytes })) with expo-crypto",
      { cause, details: { missing: "crypto.getRandomValues" } },
    );
  }
  if (!(bytes instanceof Uint8Array) || bytes.length !== 16) {
    throw new SignetError(
      "CRYPTO_UNAVAILABLE",
      "The random source returned no bytes: randomBytes(length) must return a Uint8Array of that length",
      { details: { missing: "randomBytes" } },
    );
  }
}

/**
 * P-256's domain parameters (SP 800-186 §3.2.1.3), for noble's `weierstrass`. Not noble's `p256`
 * export: `@noble/curves/nist.js` builds more at import (FROST contexts) and needs `TextEncoder`
 * for it, which React Native's Hermes may lack.
 */
const P256_CURVE = { p: P, n: N, h: 1n, a: P - 3n, b: B, Gx: GX, Gy: GY } as const;

/** P-256 on noble for the backend: noble's ECDSA and ECDH, and k·G (keys, signatures) on the comb. */
export type NobleP256 = {
  /**
   * Noble's own ECDSA over a P-256 of this backend's random source: verification, ECDH, random
   * scalars. Its G has no precomputed table (verification builds none); nothing here signs with it.
   */
  readonly ecdsa: ECDSA;
  /** The public key d·G of a scalar (1 ≤ d < n), computed on the comb. */
  getPublicKey(secret: Uint8Array, compressed: boolean): Uint8Array;
  /** ECDSA over SHA-256 of `message`, RFC 6979 k on the comb: `r ‖ s`, not normalised to low-S. */
  sign(message: Uint8Array, secret: Uint8Array): Uint8Array;
};

/**
 * P-256 for the noble backend: secret multiplications of G (key generation, signing) on the comb
 * of ./p256-comb.ts, with the scalar and the nonce inversion blinded by `randomBytes` (default:
 * `crypto.getRandomValues`, looked up per call) as noble blinds its own; everything else is
 * noble's, on a plain noble `Point` (docs/architecture.md "Curve arithmetic" has the Hermes
 * figures that keep the comb).
 */
export function createNobleP256(randomBytes: RandomBytes = defaultRandomBytes): NobleP256 {
  const source = (length?: number) => new Uint8Array(randomBytes(length ?? 32));
  const Point = weierstrass(P256_CURVE, { randomBytes: source });
  // Noble would build a 2,080-point table for G on the first verification; one-shot wNAF instead.
  Point.BASE.precompute(1);
  let comb: Comb | undefined;
  // Probed once, as noble probes its source when a curve is made.
  const scalarBlind = canBlind(source, COMB_BLIND_BYTES) ? source : null;
  const inversionBlind = canBlind(source, BLIND_LENGTH) ? source : null;
  const mulG = (k: bigint) => {
    comb ??= buildComb(Point.BASE, Point.ZERO);
    return combMultiply(comb, k, scalarBlind).toAffine();
  };
  return {
    ecdsa: ecdsa(Point, sha256, { randomBytes: source }),
    getPublicKey: (secret, compressed) => encodePoint(mulG(bytesToBigInt(secret)), compressed),
    sign: (message, secret) => signP256(message, bytesToBigInt(secret), mulG, inversionBlind),
  };
}

/** HPKE primitives on a noble P-256 instance, for tests and {@link createNobleBackend}. */
export const createNobleHpkePrimitives = (
  curve: NobleP256 = createNobleP256(),
): HpkePrimitives => ({
  dh(scalar, publicKey) {
    // A typed POINT_INVALID before noble sees the point; HPKE's enc is always uncompressed.
    if (publicKey?.length !== 65)
      throw new SignetError("POINT_INVALID", `"enc" expected 65 bytes, got ${publicKey?.length}`);
    decodePoint(publicKey, "enc");
    return curve.ecdsa.getSharedSecret(scalar, publicKey, true).slice(1);
  },
  publicKey: (scalar) => curve.getPublicKey(scalar, false),
  hmacSha256: (key, data) => hmac(sha256, key, data),
  aesGcmSeal: (key, nonce, aad, plaintext) => gcm(key, nonce, aad).encrypt(plaintext),
  aesGcmOpen: (key, nonce, aad, ciphertext) => gcm(key, nonce, aad).decrypt(ciphertext),
});

/** Options of {@link createNobleBackend}. */
export type NobleBackendOptions = {
  /**
   * Secure random source for key generation and HPKE ephemeral keys. Default:
   * `globalThis.crypto.getRandomValues`, looked up per call (on React Native install
   * `react-native-get-random-values`, or pass `expo-crypto`'s `getRandomBytes`).
   */
  randomBytes?: RandomBytes | undefined;
};

function nobleSigningKey(curve: NobleP256, scalar: Uint8Array): SigningKey {
  const secret = scalar.slice();
  const { compressed, uncompressed } = normalizePublicKey(curve.getPublicKey(secret, false));
  return {
    publicKey: compressed,
    publicKeyUncompressed: uncompressed,
    extractable: true,
    // Deterministic k (RFC 6979) and no low-S normalisation, as docs/protocol.md §4 producers do.
    sign: async (message) => p1363ToDer(curve.sign(message, secret)),
    toRecord: () => ({ type: "scalar", privateKey: bytesToHex(secret), publicKey: compressed }),
  };
}

function nobleDecryptionKey(
  primitives: HpkePrimitives,
  curve: NobleP256,
  scalar: Uint8Array,
): DecryptionKey {
  const secret = scalar.slice();
  return {
    publicKeyUncompressed: bytesToHex(curve.getPublicKey(secret, false)),
    hpkeOpen: (parameters: HpkeOpenParameters) =>
      hpkeOpenWith(primitives, { ...parameters, recipientKey: secret }),
  };
}

/**
 * Creates the noble crypto backend: pure JavaScript, runs in Hermes and anywhere without
 * `crypto.subtle`. The React Native entry uses it by default.
 *
 * @param options - `randomBytes`: the secure random source (see {@link NobleBackendOptions}).
 * @returns A {@link CryptoBackend}; pass it to `createCryptoApi` or `createClient({ crypto })`.
 * @throws Nothing at creation; operations needing randomness throw `CRYPTO_UNAVAILABLE` without a source.
 * @example
 * ```ts
 * import { getRandomBytes } from "expo-crypto";
 * const backend = createNobleBackend({ randomBytes: getRandomBytes });
 * ```
 */
export function createNobleBackend(options: NobleBackendOptions = {}): CryptoBackend {
  const randomBytes = options.randomBytes ?? defaultRandomBytes;
  // noble blinds secret scalar multiplications with randomness bound when a curve is built, so
  // each backend builds its own P-256 over its own source (lazily: the first use pays the tables).
  let built: { curve: NobleP256; primitives: HpkePrimitives } | undefined;
  const get = () => {
    if (!built) {
      const curve = createNobleP256(randomBytes);
      built = { curve, primitives: createNobleHpkePrimitives(curve) };
    }
    return built;
  };
  // FIPS 186-5 A.2.1: 48 random bytes reduced mod n-1, plus 1.
  const randomScalar = () => get().curve.ecdsa.utils.randomSecretKey(randomBytes(48));
  const signingKey = (scalar: Uint8Array) => nobleSigningKey(get().curve, scalar);
  const decryptionKey = (scalar: Uint8Array) =>
    nobleDecryptionKey(get().primitives, get().curve, scalar);
  return {
    name: "noble",
    generateSigningKey: async (_options?: GenerateSigningKeyOptions) => signingKey(randomScalar()),
    importSigningKey: async (scalar) => signingKey(parseScalar(scalar)),
    restoreSigningKey: async (record: SigningKeyRecord) => {
      if (record?.type !== "scalar") {
        throw new SignetError(
          "KEY_INVALID",
          `"record" expected a scalar key record for the noble backend`,
        );
      }
      const key = signingKey(parseScalar(record.privateKey, "record.privateKey"));
      if (key.publicKey !== record.publicKey) {
        throw new SignetError("KEY_INVALID", `"record" public key does not match its private key`);
      }
      return key;
    },
    generateDecryptionKey: async () => decryptionKey(randomScalar()),
    importDecryptionKey: async (scalar) => decryptionKey(parseScalar(scalar)),
    async verify(publicKey, message, signature) {
      decodePoint(publicKey);
      try {
        return get().curve.ecdsa.verify(signature, message, publicKey, {
          lowS: false,
          prehash: true,
          format: "compact",
        });
      } catch {
        return false; // r or s out of range, wrong length
      }
    },
    hpkeSeal: async (parameters: HpkeSealParameters) =>
      hpkeSealWith(get().primitives, { ...parameters, ephemeralKey: randomScalar() }),
    sha256: async (data) => sha256(data),
    randomBytes,
  };
}
