// RFC 9180 (HPKE) base mode with DHKEM(P-256, HKDF-SHA256), HKDF-SHA256 and AES-GCM; docs/protocol.md §4 (HPKE suite).
import { createCipheriv, createDecipheriv, createHmac } from "node:crypto";
import { concatBytes, utf8 } from "./encoding.js";
import { ecdhSharedSecret, generateKeyPair, type P256KeyPair, requirePublicKey } from "./p256.js";

/** The AEADs this HPKE supports: AES-256-GCM is the service's; AES-128-GCM is for RFC 9180 A.3.1. */
export type HpkeAead = "aes-128-gcm" | "aes-256-gcm";

const AEAD = {
  "aes-128-gcm": { id: 0x0001, nk: 16 },
  "aes-256-gcm": { id: 0x0002, nk: 32 },
} as const;
const KEM_ID = 0x0010; // DHKEM(P-256, HKDF-SHA256)
const KDF_ID = 0x0001; // HKDF-SHA256
const N_NONCE = 12;
const N_TAG = 16;
const MODE_BASE = 0x00;
const HPKE_V1 = utf8("HPKE-v1");
const EMPTY = new Uint8Array(0);

/** `info` the service uses for every bundle: UTF-8 `turnkey_hpke`. */
export const TURNKEY_HPKE_INFO: Uint8Array = utf8("turnkey_hpke");

function i2osp(n: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let v = n;
  for (let i = length - 1; i >= 0 && v > 0; i--) {
    out[i] = v & 0xff;
    v = Math.floor(v / 256);
  }
  return out;
}

function hmac(key: Uint8Array, data: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac("sha256", key).update(data).digest());
}

// RFC 5869 Extract and Expand kept apart (node's hkdfSync fuses them; HPKE labels each step).
function extract(salt: Uint8Array, ikm: Uint8Array): Uint8Array {
  return hmac(salt.length > 0 ? salt : new Uint8Array(32), ikm);
}

function expand(prk: Uint8Array, info: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let t: Uint8Array = EMPTY;
  for (let i = 1, filled = 0; filled < length; i++) {
    t = hmac(prk, concatBytes(t, info, Uint8Array.of(i)));
    out.set(t.subarray(0, Math.min(t.length, length - filled)), filled);
    filled += t.length;
  }
  return out;
}

function labeledExtract(suiteId: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array) {
  return extract(salt, concatBytes(HPKE_V1, suiteId, utf8(label), ikm));
}

function labeledExpand(
  suiteId: Uint8Array,
  prk: Uint8Array,
  label: string,
  info: Uint8Array,
  length: number,
) {
  return expand(prk, concatBytes(i2osp(length, 2), HPKE_V1, suiteId, utf8(label), info), length);
}

const KEM_SUITE_ID = concatBytes(utf8("KEM"), i2osp(KEM_ID, 2));

function extractAndExpand(dh: Uint8Array, kemContext: Uint8Array): Uint8Array {
  const eaePrk = labeledExtract(KEM_SUITE_ID, EMPTY, "eae_prk", dh);
  return labeledExpand(KEM_SUITE_ID, eaePrk, "shared_secret", kemContext, 32);
}

/**
 * DHKEM(P-256) Encap with a given (or fresh) ephemeral key: returns `enc` (65-byte uncompressed
 * ephemeral public key) and the 32-byte KEM shared secret.
 * @throws Error when the recipient key is not a valid point.
 */
export function hpkeEncap(
  recipientPublicKey: Uint8Array,
  ephemeral: P256KeyPair = generateKeyPair(),
): { enc: Uint8Array; sharedSecret: Uint8Array } {
  const pkR = requirePublicKey(recipientPublicKey, "recipientPublicKey").uncompressed;
  const dh = ecdhSharedSecret(ephemeral.privateKey, pkR);
  const enc = ephemeral.publicKeyUncompressed;
  return { enc, sharedSecret: extractAndExpand(dh, concatBytes(enc, pkR)) };
}

/**
 * DHKEM(P-256) Decap: the 32-byte KEM shared secret for `enc` (compressed `enc` is accepted and
 * uncompressed first, as the KEM context uses the uncompressed form).
 * @throws Error when `enc` is not a valid point.
 */
export function hpkeDecap(enc: Uint8Array, recipient: P256KeyPair): Uint8Array {
  const pkE = requirePublicKey(enc, "enc").uncompressed;
  const dh = ecdhSharedSecret(recipient.privateKey, pkE);
  return extractAndExpand(dh, concatBytes(pkE, recipient.publicKeyUncompressed));
}

/**
 * The base-mode key schedule (RFC 9180 §5.1): AEAD key and base nonce from the KEM shared secret.
 */
export function hpkeKeySchedule(p: {
  sharedSecret: Uint8Array;
  info: Uint8Array;
  aead?: HpkeAead;
}): { key: Uint8Array; baseNonce: Uint8Array } {
  const aead = AEAD[p.aead ?? "aes-256-gcm"];
  const suiteId = concatBytes(utf8("HPKE"), i2osp(KEM_ID, 2), i2osp(KDF_ID, 2), i2osp(aead.id, 2));
  const pskIdHash = labeledExtract(suiteId, EMPTY, "psk_id_hash", EMPTY);
  const infoHash = labeledExtract(suiteId, EMPTY, "info_hash", p.info);
  const context = concatBytes(Uint8Array.of(MODE_BASE), pskIdHash, infoHash);
  const secret = labeledExtract(suiteId, p.sharedSecret, "secret", EMPTY);
  return {
    key: labeledExpand(suiteId, secret, "key", context, aead.nk),
    baseNonce: labeledExpand(suiteId, secret, "base_nonce", context, N_NONCE),
  };
}

/** The nonce of message number `sequence` (RFC 9180 §5.2): base nonce XOR I2OSP(sequence, 12). */
export function hpkeNonce(baseNonce: Uint8Array, sequence: number): Uint8Array {
  if (!Number.isSafeInteger(sequence) || sequence < 0) {
    throw new Error(`"sequence" expected a non-negative integer`);
  }
  const seq = i2osp(sequence, N_NONCE);
  return baseNonce.map((b, i) => b ^ seq[i]!);
}

function gcmFor(key: Uint8Array): HpkeAead {
  if (key.length === 16) return "aes-128-gcm";
  if (key.length === 32) return "aes-256-gcm";
  throw new Error(`"key" expected 16 or 32 bytes, got ${key.length}`);
}

/** AEAD seal: ciphertext with the 16-byte GCM tag appended. */
export function aeadSeal(p: {
  key: Uint8Array;
  nonce: Uint8Array;
  aad: Uint8Array;
  plaintext: Uint8Array;
}): Uint8Array {
  const cipher = createCipheriv(gcmFor(p.key), p.key, p.nonce, {
    authTagLength: N_TAG,
  });
  cipher.setAAD(p.aad);
  return concatBytes(cipher.update(p.plaintext), cipher.final(), cipher.getAuthTag());
}

/**
 * AEAD open of ciphertext ‖ tag.
 * @throws Error("HPKE decryption failed") when the tag does not verify.
 */
export function aeadOpen(p: {
  key: Uint8Array;
  nonce: Uint8Array;
  aad: Uint8Array;
  ciphertext: Uint8Array;
}): Uint8Array {
  if (p.ciphertext.length < N_TAG) throw new Error("HPKE ciphertext too short");
  const body = p.ciphertext.subarray(0, p.ciphertext.length - N_TAG);
  const tag = p.ciphertext.subarray(p.ciphertext.length - N_TAG);
  const decipher = createDecipheriv(gcmFor(p.key), p.key, p.nonce, {
    authTagLength: N_TAG,
  });
  decipher.setAAD(p.aad);
  decipher.setAuthTag(tag);
  try {
    return concatBytes(decipher.update(body), decipher.final());
  } catch {
    throw new Error("HPKE decryption failed");
  }
}

/**
 * RFC 9180 base mode, single shot: seals `plaintext` to `recipientPublicKey` (33 or 65 bytes).
 * The suite is DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM unless `aead` says otherwise.
 * `ephemeral` fixes the sender key (known-answer tests); by default a fresh one is generated.
 * @returns `enc` (65-byte uncompressed ephemeral key) and ciphertext ‖ tag.
 * @throws Error when the recipient key is not a valid point.
 * @example hpkeSeal({ plaintext, recipientPublicKey, info: TURNKEY_HPKE_INFO, aad })
 */
export function hpkeSeal(p: {
  plaintext: Uint8Array;
  recipientPublicKey: Uint8Array;
  info: Uint8Array;
  aad: Uint8Array;
  ephemeral?: P256KeyPair;
  aead?: HpkeAead;
}): { enc: Uint8Array; ciphertext: Uint8Array } {
  const { enc, sharedSecret } = hpkeEncap(p.recipientPublicKey, p.ephemeral);
  const { key, baseNonce } = hpkeKeySchedule({
    sharedSecret,
    info: p.info,
    aead: p.aead ?? "aes-256-gcm",
  });
  const ciphertext = aeadSeal({ key, nonce: baseNonce, aad: p.aad, plaintext: p.plaintext });
  return { enc, ciphertext };
}

/**
 * RFC 9180 base mode, single shot: opens `ciphertext` (with tag) sealed to `recipient`.
 * @throws Error with a generic message (never key material or plaintext) when `enc` is not a valid
 * point or the ciphertext does not authenticate.
 * @example hpkeOpen({ enc, ciphertext, recipient, info: TURNKEY_HPKE_INFO, aad })
 */
export function hpkeOpen(p: {
  enc: Uint8Array;
  ciphertext: Uint8Array;
  recipient: P256KeyPair;
  info: Uint8Array;
  aad: Uint8Array;
  aead?: HpkeAead;
}): Uint8Array {
  const sharedSecret = hpkeDecap(p.enc, p.recipient);
  const { key, baseNonce } = hpkeKeySchedule({
    sharedSecret,
    info: p.info,
    aead: p.aead ?? "aes-256-gcm",
  });
  return aeadOpen({ key, nonce: baseNonce, aad: p.aad, ciphertext: p.ciphertext });
}
