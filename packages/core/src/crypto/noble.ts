// FIPS 186-5 §6 (ECDSA P-256/SHA-256), RFC 9180 (HPKE via ./hpke.ts), docs/protocol.md §4: the backend
// for engines without WebCrypto (React Native / Hermes), on @noble/curves, hashes and ciphers.
import { gcm } from "@noble/ciphers/aes.js";
import { type ECDSA, ecdsa, weierstrass } from "@noble/curves/abstract/weierstrass.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { SignetError } from "../errors.js";
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
import { B, decodePoint, GX, GY, N, normalizePublicKey, P, parseScalar } from "./p256.js";
import { buildComb, type Comb, canBlind, combMultiply } from "./p256-comb.js";
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

/**
 * A noble ECDSA P-256/SHA-256 instance whose secret multiplications of G (key generation,
 * signing) run on the comb of ./p256-comb.ts, and whose scalar blinding, nonce-inversion blinding
 * and other multiplications (ECDH) are noble's, all drawing on `randomBytes` (default:
 * `crypto.getRandomValues`, looked up per call).
 */
export function createNobleP256(randomBytes: RandomBytes = defaultRandomBytes): ECDSA {
  const source = (length?: number) => new Uint8Array(randomBytes(length ?? 32));
  const Point = weierstrass(P256_CURVE, { randomBytes: source });
  type Point = InstanceType<typeof Point>;
  let comb: Comb | undefined;
  // Probed once, on the same wrapped source noble probes.
  const blinding = canBlind(source) ? source : null;
  // G with noble's methods but for `multiply`; noble's own table for G is then never built.
  class CombBase extends Point {
    override multiply(scalar: bigint): Point {
      comb ??= buildComb(Point.BASE, Point.ZERO);
      // Normalized once, as noble's own multiply returns it.
      return Point.fromAffine(combMultiply(comb, scalar, blinding).toAffine());
    }
  }
  const G = new CombBase(Point.BASE.X, Point.BASE.Y, Point.BASE.Z);
  Object.freeze(CombBase.prototype);
  // ecdsa() reads `BASE` from the constructor it is given. Defined, not assigned: noble's Point
  // is frozen, and a class field lowered to an assignment (React Native's Babel preset does that)
  // would be silently dropped, leaving noble's G in place.
  class CombPoint extends Point {}
  Object.defineProperty(CombPoint, "BASE", { value: G, enumerable: true });
  Object.freeze(CombPoint);
  if (CombPoint.BASE !== G) throw new Error("the comb's G is not in place");
  return ecdsa(CombPoint, sha256, { randomBytes: source });
}

/** HPKE primitives on a noble P-256 instance, for tests and {@link createNobleBackend}. */
export const createNobleHpkePrimitives = (curve: ECDSA = createNobleP256()): HpkePrimitives => ({
  dh(scalar, publicKey) {
    // A typed POINT_INVALID before noble sees the point; HPKE's enc is always uncompressed.
    if (publicKey?.length !== 65)
      throw new SignetError("POINT_INVALID", `"enc" expected 65 bytes, got ${publicKey?.length}`);
    decodePoint(publicKey, "enc");
    return curve.getSharedSecret(scalar, publicKey, true).slice(1);
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

function nobleSigningKey(curve: ECDSA, scalar: Uint8Array): SigningKey {
  const secret = scalar.slice();
  const { compressed, uncompressed } = normalizePublicKey(curve.getPublicKey(secret, false));
  return {
    publicKey: compressed,
    publicKeyUncompressed: uncompressed,
    extractable: true,
    // Deterministic k (RFC 6979) and no low-S normalisation, as docs/protocol.md §4 producers do.
    sign: async (message) =>
      p1363ToDer(curve.sign(message, secret, { lowS: false, prehash: true })),
    toRecord: () => ({ type: "scalar", privateKey: bytesToHex(secret), publicKey: compressed }),
  };
}

function nobleDecryptionKey(
  primitives: HpkePrimitives,
  curve: ECDSA,
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
  let built: { curve: ECDSA; primitives: HpkePrimitives } | undefined;
  const get = () => {
    if (!built) {
      const curve = createNobleP256(randomBytes);
      built = { curve, primitives: createNobleHpkePrimitives(curve) };
    }
    return built;
  };
  // FIPS 186-5 A.2.1: 48 random bytes reduced mod n-1, plus 1.
  const randomScalar = () => get().curve.utils.randomSecretKey(randomBytes(48));
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
        return get().curve.verify(signature, message, publicKey, {
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
