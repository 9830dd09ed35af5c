// Test-only and independent of Signet's code: RFC 9180 §6.1 single-shot base mode for
// DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM on node:crypto (OpenSSL) primitives.
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

const extract = (salt: Buffer, ikm: Buffer) =>
  createHmac("sha256", salt.length ? salt : Buffer.alloc(32))
    .update(ikm)
    .digest();
const expand = (prk: Buffer, info: Buffer, length: number) => {
  // RFC 5869 Expand (node:crypto hkdfSync always extracts first).
  const blocks: Buffer[] = [];
  let t = Buffer.alloc(0);
  for (let i = 1; Buffer.concat(blocks).length < length; i++) {
    t = createHmac("sha256", prk)
      .update(Buffer.concat([t, info, Buffer.of(i)]))
      .digest();
    blocks.push(t);
  }
  return Buffer.concat(blocks).subarray(0, length);
};
const labeledExtract = (suite: Buffer, salt: Buffer, label: string, ikm: Buffer) =>
  extract(salt, Buffer.concat([ascii("HPKE-v1"), suite, ascii(label), ikm]));
const labeledExpand = (suite: Buffer, prk: Buffer, label: string, info: Buffer, length: number) =>
  expand(
    prk,
    Buffer.concat([i2osp(length, 2), ascii("HPKE-v1"), suite, ascii(label), info]),
    length,
  );

function schedule(dh: Buffer, enc: Buffer, pkR: Buffer, info: Buffer) {
  const eae = labeledExtract(KEM_SUITE, Buffer.alloc(0), "eae_prk", dh);
  const shared = labeledExpand(KEM_SUITE, eae, "shared_secret", Buffer.concat([enc, pkR]), 32);
  const context = Buffer.concat([
    Buffer.of(0),
    labeledExtract(HPKE_SUITE, Buffer.alloc(0), "psk_id_hash", Buffer.alloc(0)),
    labeledExtract(HPKE_SUITE, Buffer.alloc(0), "info_hash", info),
  ]);
  const secret = labeledExtract(HPKE_SUITE, shared, "secret", Buffer.alloc(0));
  return {
    key: labeledExpand(HPKE_SUITE, secret, "key", context, 32),
    nonce: labeledExpand(HPKE_SUITE, secret, "base_nonce", context, 12),
  };
}

/** Opens with the recipient's private scalar (hex). Throws on a bad tag. */
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
  const { key, nonce } = schedule(dh, p.enc, ecdh.getPublicKey(), p.info);
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
