// Test-only: RFC 9180's primitives on WebCrypto (keys held as non-extractable CryptoKeyPairs), so
// that the HPKE composition of src/crypto/hpke.ts (the React Native build's) also runs, and is
// checked, on a second, asynchronous substrate. The browser build itself uses @hpke/core.

import type { HpkePrimitives } from "../../src/crypto/hpke.js";
import { decodePoint } from "../../src/crypto/p256.js";
import { SignetError } from "../../src/errors/errors.js";

const ECDH: EcKeyImportParams = { name: "ECDH", namedCurve: "P-256" };
const HMAC: HmacImportParams = { name: "HMAC", hash: "SHA-256" };
const bytes = (buffer: ArrayBuffer): Uint8Array => new Uint8Array(buffer);
const source = (data: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(data);

export function createWebCryptoHpkePrimitives(): HpkePrimitives<CryptoKeyPair> {
  const subtle = globalThis.crypto.subtle;
  const aes = (key: Uint8Array, usage: KeyUsage) =>
    subtle.importKey("raw", source(key), "AES-GCM", false, [usage]);
  const gcm = (nonce: Uint8Array, aad: Uint8Array): AesGcmParams => ({
    name: "AES-GCM",
    iv: source(nonce),
    additionalData: source(aad),
    tagLength: 128,
  });
  return {
    async dh(pair, publicKey) {
      if (publicKey?.length !== 65) {
        throw new SignetError(
          "POINT_INVALID",
          `"publicKey" expected 65 bytes, got ${publicKey?.length}`,
        );
      }
      decodePoint(publicKey, "publicKey");
      const peer = await subtle.importKey("raw", source(publicKey), ECDH, false, []);
      return bytes(await subtle.deriveBits({ name: "ECDH", public: peer }, pair.privateKey, 256));
    },
    publicKey: async (pair) => bytes(await subtle.exportKey("raw", pair.publicKey)),
    async hmacSha256(key, data) {
      const hmac = await subtle.importKey("raw", source(key), HMAC, false, ["sign"]);
      return bytes(await subtle.sign("HMAC", hmac, source(data)));
    },
    aesGcmSeal: async (key, nonce, aad, plaintext) =>
      bytes(await subtle.encrypt(gcm(nonce, aad), await aes(key, "encrypt"), source(plaintext))),
    aesGcmOpen: async (key, nonce, aad, ciphertext) =>
      bytes(await subtle.decrypt(gcm(nonce, aad), await aes(key, "decrypt"), source(ciphertext))),
  };
}
