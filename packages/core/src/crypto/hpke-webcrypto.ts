// RFC 9180 base mode (§5.1), single shot (§6.1), with the suite docs/protocol.md §4 fixes:
// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM, through @hpke/core on WebCrypto, and the
// WebCrypto backend's decryption keys (ECDH P-256) that open with it. Loaded as a chunk of its own
// (webcrypto.ts): only an OTP seal, an export or a legacy bundle needs any of it, so a page that
// stamps does not carry it. @hpke/core's errors are mapped here, by class.
import {
  Aes256Gcm,
  CipherSuite,
  DecapError,
  DhkemP256HkdfSha256,
  HkdfSha256,
  OpenError,
} from "@hpke/core";
import { SignetError } from "../errors/errors.js";
import type { DecryptionKey, HpkeOpenParameters, HpkeSealParameters } from "./backend.js";
import { bytesToHex } from "./encoding.js";
import { decodePoint } from "./p256.js";
import {
  attempt,
  bytes,
  getSubtle,
  jwkFromScalar,
  type PublicKeyOfScalar,
  source,
} from "./subtle.js";

const ECDH: EcKeyImportParams = { name: "ECDH", namedCurve: "P-256" };
const ECDSA: EcKeyImportParams = { name: "ECDSA", namedCurve: "P-256" };
const SIGN: EcdsaParams = { name: "ECDSA", hash: "SHA-256" };

const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
});

// TS 5.9 types BufferSource as ArrayBuffer-backed views; a copy satisfies that for any input.
const buffer = (data: Uint8Array): ArrayBuffer => data.slice().buffer as ArrayBuffer;

/**
 * Runs an @hpke/core operation. Keys and `enc` are validated as P-256 points first, so what it
 * can still throw is a failed open (wrong key, altered data: `DECRYPTION_FAILED`) or a failed
 * seal (`code`).
 */
async function hpke<T>(
  run: () => Promise<T>,
  code: "DECRYPTION_FAILED" | "CRYPTO_UNAVAILABLE",
  message: string,
): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    if (cause instanceof SignetError) throw cause;
    const openFailure = cause instanceof OpenError || cause instanceof DecapError;
    throw new SignetError(openFailure ? "DECRYPTION_FAILED" : code, message, { cause });
  }
}

/**
 * Seals to `recipientPublicKey` with a fresh ephemeral key. The AAD may depend on `enc` (the
 * service's does), so the sender context is made first and the AAD computed from its `enc`.
 */
export async function hpkeSeal(
  parameters: HpkeSealParameters,
): Promise<{ enc: Uint8Array; ciphertext: Uint8Array }> {
  const recipientPublicKey = parameters?.recipientPublicKey;
  if (recipientPublicKey?.length !== 65) {
    throw new SignetError(
      "POINT_INVALID",
      `"recipientPublicKey" expected 65 bytes, got ${recipientPublicKey?.length}`,
    );
  }
  decodePoint(recipientPublicKey, "recipientPublicKey");
  const { plaintext, info, aad } = parameters;
  return hpke(
    async () => {
      const sender = await suite.createSenderContext({
        recipientPublicKey: await suite.kem.deserializePublicKey(buffer(recipientPublicKey)),
        info: buffer(info),
      });
      const enc = new Uint8Array(sender.enc);
      const additional = typeof aad === "function" ? aad(enc) : aad;
      const ciphertext = new Uint8Array(await sender.seal(buffer(plaintext), buffer(additional)));
      return { enc, ciphertext };
    },
    "CRYPTO_UNAVAILABLE",
    "HPKE seal failed",
  );
}

/** A decryption key over a (non-extractable) ECDH key pair: WebCrypto derives the shared secret in place. */
function decryptionKey(recipientKey: CryptoKeyPair, publicKeyRaw: Uint8Array): DecryptionKey {
  return {
    publicKeyUncompressed: bytesToHex(publicKeyRaw),
    async hpkeOpen(parameters: HpkeOpenParameters) {
      const enc = parameters?.enc;
      if (enc?.length !== 65)
        throw new SignetError("POINT_INVALID", `"enc" expected 65 bytes, got ${enc?.length}`);
      decodePoint(enc, "enc");
      const { ciphertext, info, aad } = parameters;
      return hpke(
        async () => {
          const recipient = await suite.createRecipientContext({
            recipientKey,
            enc: buffer(enc),
            info: buffer(info),
          });
          return new Uint8Array(await recipient.open(buffer(ciphertext), buffer(aad)));
        },
        "DECRYPTION_FAILED",
        "HPKE open failed (wrong key or altered data)",
      );
    },
  };
}

/** A fresh non-extractable decryption key (the backend's `generateDecryptionKey`). */
export const generateDecryptionKey = (): Promise<DecryptionKey> =>
  attempt("CRYPTO_UNAVAILABLE", "decryption key generation failed", async () => {
    const subtle = getSubtle();
    const pair = await subtle.generateKey(ECDH, false, ["deriveBits"]);
    return decryptionKey(pair, bytes(await subtle.exportKey("raw", pair.publicKey)));
  });

/** The decryption key of a checked 32-byte scalar (the backend's `importDecryptionKey`). */
export const importDecryptionKey = (
  scalar: Uint8Array,
  publicKeyOf: PublicKeyOfScalar,
): Promise<DecryptionKey> =>
  attempt("KEY_INVALID", "decryption key import failed", async () => {
    const subtle = getSubtle();
    const { jwk, publicKeyRaw } = await jwkFromScalar(scalar, publicKeyOf);
    const privateKey = await subtle.importKey("jwk", jwk, ECDH, false, ["deriveBits"]);
    const publicKey = await subtle.importKey("raw", source(publicKeyRaw), ECDH, true, []);
    return decryptionKey({ privateKey, publicKey }, publicKeyRaw);
  });

/**
 * The backend's `verify` (ECDSA P-256 SHA-256 over a 64-byte P1363 signature): only the OTP seal's
 * bundle checks and stamp verification use it, both chunks themselves.
 */
export async function verify(
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
