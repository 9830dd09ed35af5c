// FIPS 186-5 §6 (ECDSA P-256/SHA-256), RFC 9180 (HPKE via ./hpke.ts), PROTOCOL.md §4: the backend
// for engines without WebCrypto (React Native / Hermes), on @noble/curves, hashes and ciphers.
import { gcm } from "@noble/ciphers/aes.js";
import { p256 } from "@noble/curves/nist.js";
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
import { decodePoint, normalizePublicKey, parseScalar } from "./p256.js";
import { defaultRandomBytes, type RandomBytes } from "./random.js";

/** HPKE primitives on noble, exported for tests and for {@link createNobleBackend}. */
export const nobleHpkePrimitives: HpkePrimitives = {
  dh(scalar, publicKey) {
    // A typed POINT_INVALID before noble sees the point; HPKE's enc is always uncompressed.
    if (publicKey?.length !== 65)
      throw new SignetError("POINT_INVALID", `"enc" expected 65 bytes, got ${publicKey?.length}`);
    decodePoint(publicKey, "enc");
    return p256.getSharedSecret(scalar, publicKey, true).slice(1);
  },
  publicKey: (scalar) => p256.getPublicKey(scalar, false),
  hmacSha256: (key, data) => hmac(sha256, key, data),
  aesGcmSeal: (key, nonce, aad, plaintext) => gcm(key, nonce, aad).encrypt(plaintext),
  aesGcmOpen: (key, nonce, aad, ciphertext) => gcm(key, nonce, aad).decrypt(ciphertext),
};

/** Options of {@link createNobleBackend}. */
export type NobleBackendOptions = {
  /**
   * Secure random source for key generation and HPKE ephemeral keys. Default:
   * `globalThis.crypto.getRandomValues`, looked up per call (on React Native install
   * `react-native-get-random-values`, or pass `expo-crypto`'s `getRandomBytes`).
   */
  randomBytes?: RandomBytes | undefined;
};

function nobleSigningKey(scalar: Uint8Array): SigningKey {
  const secret = scalar.slice();
  const { compressed, uncompressed } = normalizePublicKey(p256.getPublicKey(secret, false));
  return {
    publicKey: compressed,
    publicKeyUncompressed: uncompressed,
    extractable: true,
    // Deterministic k (RFC 6979) and no low-S normalisation, as PROTOCOL.md §4 producers do.
    sign: async (message) => p1363ToDer(p256.sign(message, secret, { lowS: false, prehash: true })),
    toRecord: () => ({ type: "scalar", privateKey: bytesToHex(secret), publicKey: compressed }),
  };
}

function nobleDecryptionKey(scalar: Uint8Array): DecryptionKey {
  const secret = scalar.slice();
  return {
    publicKeyUncompressed: bytesToHex(p256.getPublicKey(secret, false)),
    hpkeOpen: (parameters: HpkeOpenParameters) =>
      hpkeOpenWith(nobleHpkePrimitives, { ...parameters, recipientScalar: secret }),
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
  // FIPS 186-5 A.2.1: 48 random bytes reduced mod n-1, plus 1.
  const randomScalar = () => p256.utils.randomSecretKey(randomBytes(48));
  return {
    name: "noble",
    generateSigningKey: async (_options?: GenerateSigningKeyOptions) =>
      nobleSigningKey(randomScalar()),
    importSigningKey: async (scalar) => nobleSigningKey(parseScalar(scalar)),
    restoreSigningKey: async (record: SigningKeyRecord) => {
      if (record?.type !== "scalar") {
        throw new SignetError(
          "KEY_INVALID",
          `"record" expected a scalar key record for the noble backend`,
        );
      }
      const key = nobleSigningKey(parseScalar(record.privateKey, "record.privateKey"));
      if (key.publicKey !== record.publicKey) {
        throw new SignetError("KEY_INVALID", `"record" public key does not match its private key`);
      }
      return key;
    },
    generateDecryptionKey: async () => nobleDecryptionKey(randomScalar()),
    importDecryptionKey: async (scalar) => nobleDecryptionKey(parseScalar(scalar)),
    async verify(publicKey, message, signature) {
      decodePoint(publicKey);
      try {
        return p256.verify(signature, message, publicKey, {
          lowS: false,
          prehash: true,
          format: "compact",
        });
      } catch {
        return false; // r or s out of range, wrong length
      }
    },
    hpkeSeal: async (parameters: HpkeSealParameters) =>
      hpkeSealWith(nobleHpkePrimitives, { ...parameters, ephemeralScalar: randomScalar() }),
    sha256: async (data) => sha256(data),
    randomBytes,
  };
}
