// RFC 9180 base mode (§5.1), single shot (§6.1), with the suite docs/protocol.md §4 fixes:
// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM, through @hpke/core on WebCrypto. Loaded as a
// chunk of its own (see webcrypto.ts). Its errors are mapped here, by class.
import {
  Aes256Gcm,
  CipherSuite,
  DecapError,
  DhkemP256HkdfSha256,
  HkdfSha256,
  OpenError,
} from "@hpke/core";
import type { HpkeOpenParameters, HpkeSealParameters } from "./backend.js";

const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
});

// TS 5.9 types BufferSource as ArrayBuffer-backed views; a copy satisfies that for any input.
const buffer = (data: Uint8Array): ArrayBuffer => data.slice().buffer as ArrayBuffer;

// Keys and `enc` are validated as P-256 points before they get here (webcrypto.ts), so what
// @hpke/core can still throw is a failed open (wrong key, altered data) or a failed seal;
// webcrypto.ts turns both into SignetErrors, so that this chunk shares nothing but the library.

/** Whether `error` is @hpke/core saying the ciphertext or `enc` does not open with the key. */
export const isOpenFailure = (error: unknown): boolean =>
  error instanceof OpenError || error instanceof DecapError;

/**
 * Seals to `recipientPublicKey` with a fresh ephemeral key. The AAD may depend on `enc` (the
 * service's does), so the sender context is made first and the AAD computed from its `enc`.
 */
export async function hpkeSeal({
  recipientPublicKey,
  plaintext,
  info,
  aad,
}: HpkeSealParameters): Promise<{ enc: Uint8Array; ciphertext: Uint8Array }> {
  const sender = await suite.createSenderContext({
    recipientPublicKey: await suite.kem.deserializePublicKey(buffer(recipientPublicKey)),
    info: buffer(info),
  });
  const enc = new Uint8Array(sender.enc);
  const additional = typeof aad === "function" ? aad(enc) : aad;
  const ciphertext = new Uint8Array(await sender.seal(buffer(plaintext), buffer(additional)));
  return { enc, ciphertext };
}

/** Opens with a (non-extractable) ECDH key pair: WebCrypto derives the shared secret in place. */
export async function hpkeOpen(
  recipientKey: CryptoKeyPair,
  { enc, ciphertext, info, aad }: HpkeOpenParameters,
): Promise<Uint8Array> {
  const recipient = await suite.createRecipientContext({
    recipientKey,
    enc: buffer(enc),
    info: buffer(info),
  });
  return new Uint8Array(await recipient.open(buffer(ciphertext), buffer(aad)));
}
