// Test-only, independent of @signet/core (node:crypto / OpenSSL only): RFC 9180 §6.1 single-shot
// base mode for DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM, and an opener for the
// `encryptedOtpBundle` built on it. Shared by the core crypto tests, the Hermes test and e2e.
import { createCipheriv, createDecipheriv, createECDH, createHmac } from "node:crypto";

const ascii = (text: string) => Buffer.from(text, "latin1");
const i2osp = (value: number, length: number) => {
  const out = Buffer.alloc(length);
  out.writeUIntBE(value, 0, length);
  return out;
};
const KEM_SUITE = Buffer.concat([ascii("KEM"), i2osp(0x0010, 2)]);
const HPKE_SUITE = Buffer.concat([
  ascii("HPKE"),
  i2osp(0x0010, 2),
  i2osp(0x0001, 2),
  i2osp(0x0002, 2),
]);

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();
// RFC 5869 Extract, an empty salt meaning 32 zero bytes.
const extract = (salt: Buffer, ikm: Buffer) =>
  hmac(salt.length === 0 ? Buffer.alloc(32) : salt, ikm);
// RFC 5869 Expand (node:crypto hkdfSync always extracts first).
function expand(prk: Buffer, info: Buffer, length: number): Buffer {
  const blocks: Buffer[] = [];
  let previous = Buffer.alloc(0);
  for (let i = 1; Buffer.concat(blocks).length < length; i++) {
    previous = hmac(prk, Buffer.concat([previous, info, Buffer.of(i)]));
    blocks.push(previous);
  }
  return Buffer.concat(blocks).subarray(0, length);
}
const labeledExtract = (suite: Buffer, salt: Buffer, label: string, ikm: Buffer) =>
  extract(salt, Buffer.concat([ascii("HPKE-v1"), suite, ascii(label), ikm]));
const labeledExpand = (suite: Buffer, prk: Buffer, label: string, info: Buffer, length: number) =>
  expand(
    prk,
    Buffer.concat([i2osp(length, 2), ascii("HPKE-v1"), suite, ascii(label), info]),
    length,
  );

/** Encap/Decap's shared secret, then the base-mode key schedule (no PSK). */
function schedule(dh: Buffer, enc: Buffer, pkR: Buffer, info: Buffer) {
  const empty = Buffer.alloc(0);
  const eaePrk = labeledExtract(KEM_SUITE, empty, "eae_prk", dh);
  const shared = labeledExpand(KEM_SUITE, eaePrk, "shared_secret", Buffer.concat([enc, pkR]), 32);
  const context = Buffer.concat([
    Buffer.of(0),
    labeledExtract(HPKE_SUITE, empty, "psk_id_hash", empty),
    labeledExtract(HPKE_SUITE, empty, "info_hash", info),
  ]);
  const secret = labeledExtract(HPKE_SUITE, shared, "secret", empty);
  return {
    key: labeledExpand(HPKE_SUITE, secret, "key", context, 32),
    nonce: labeledExpand(HPKE_SUITE, secret, "base_nonce", context, 12),
  };
}

/** Opens a single-shot ciphertext (tag appended) with the recipient's private scalar (hex). Throws on a bad tag. */
export function nodeHpkeOpen(p: {
  recipientPrivateKey: string;
  enc: Buffer;
  ciphertext: Buffer;
  info: Buffer;
  aad: Buffer;
}): Buffer {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(p.recipientPrivateKey, "hex"));
  const dh = ecdh.computeSecret(p.enc);
  const { key, nonce } = schedule(dh, p.enc, ecdh.getPublicKey(null, "uncompressed"), p.info);
  const decipher = createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAAD(p.aad);
  decipher.setAuthTag(p.ciphertext.subarray(p.ciphertext.length - 16));
  return Buffer.concat([
    decipher.update(p.ciphertext.subarray(0, p.ciphertext.length - 16)),
    decipher.final(),
  ]);
}

/** Seals to an uncompressed public key with a fresh ephemeral key; `aad` may depend on enc. */
export function nodeHpkeSeal(p: {
  recipientPublicKey: Buffer;
  plaintext: Buffer;
  info: Buffer;
  aad: (enc: Buffer) => Buffer;
}) {
  const ephemeral = createECDH("prime256v1");
  const enc = ephemeral.generateKeys();
  const dh = ephemeral.computeSecret(p.recipientPublicKey);
  const { key, nonce } = schedule(dh, enc, p.recipientPublicKey, p.info);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(p.aad(enc));
  const ciphertext = Buffer.concat([
    cipher.update(p.plaintext),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  return { enc, ciphertext };
}

/**
 * Opens an `encryptedOtpBundle` (docs/protocol.md §4): JSON text `{encappedPublic, ciphertext}`,
 * info `turnkey_hpke`, AAD `enc ‖ targetPublic`. Returns the plaintext as UTF-8. Throws on a bad tag.
 */
export function openOtpBundleNode(encryptedOtpBundle: string, targetPrivateKey: string): string {
  const parsed = JSON.parse(encryptedOtpBundle) as { encappedPublic: string; ciphertext: string };
  const enc = Buffer.from(parsed.encappedPublic, "hex");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(targetPrivateKey, "hex"));
  return nodeHpkeOpen({
    recipientPrivateKey: targetPrivateKey,
    enc,
    ciphertext: Buffer.from(parsed.ciphertext, "hex"),
    info: ascii("turnkey_hpke"),
    aad: Buffer.concat([enc, ecdh.getPublicKey(null, "uncompressed")]),
  }).toString("utf8");
}
