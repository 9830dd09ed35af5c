// Test-only, independent of @signet/core: RFC 9180 §6.1 OpenBase, single shot, for
// DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM on node:crypto (OpenSSL), used to check
// what the Hermes build seals.
import { createDecipheriv, createECDH, createHmac } from "node:crypto";

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

// RFC 5869 with an empty salt meaning 32 zero bytes.
const extract = (salt: Buffer, ikm: Buffer) =>
  hmac(salt.length === 0 ? Buffer.alloc(32) : salt, ikm);
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

/** Opens a single-shot HPKE ciphertext (tag appended) for the recipient scalar. Throws on a bad tag. */
export function hpkeOpenNode(parameters: {
  recipientPrivateKey: string;
  enc: Buffer;
  ciphertext: Buffer;
  info: Buffer;
  aad: Buffer;
}): Buffer {
  const { recipientPrivateKey, enc, ciphertext, info, aad } = parameters;
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(recipientPrivateKey, "hex"));
  const dh = ecdh.computeSecret(enc);
  const kemContext = Buffer.concat([enc, ecdh.getPublicKey(null, "uncompressed")]);
  const eaePrk = labeledExtract(KEM_SUITE, Buffer.alloc(0), "eae_prk", dh);
  const sharedSecret = labeledExpand(KEM_SUITE, eaePrk, "shared_secret", kemContext, 32);

  const empty = Buffer.alloc(0);
  const pskIdHash = labeledExtract(HPKE_SUITE, empty, "psk_id_hash", empty);
  const infoHash = labeledExtract(HPKE_SUITE, empty, "info_hash", info);
  const context = Buffer.concat([Buffer.of(0), pskIdHash, infoHash]);
  const secret = labeledExtract(HPKE_SUITE, sharedSecret, "secret", empty);
  const key = labeledExpand(HPKE_SUITE, secret, "key", context, 32);
  const nonce = labeledExpand(HPKE_SUITE, secret, "base_nonce", context, 12);

  const decipher = createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAAD(aad);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  return Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
}

/**
 * Opens an `encryptedOtpBundle` (PROTOCOL.md §4): JSON text `{encappedPublic, ciphertext}`,
 * info `turnkey_hpke`, AAD `enc ‖ targetPublic`. Returns the plaintext as UTF-8.
 */
export function openOtpBundleNode(encryptedOtpBundle: string, targetPrivateKey: string): string {
  const parsed = JSON.parse(encryptedOtpBundle) as { encappedPublic: string; ciphertext: string };
  const enc = Buffer.from(parsed.encappedPublic, "hex");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(targetPrivateKey, "hex"));
  return hpkeOpenNode({
    recipientPrivateKey: targetPrivateKey,
    enc,
    ciphertext: Buffer.from(parsed.ciphertext, "hex"),
    info: ascii("turnkey_hpke"),
    aad: Buffer.concat([enc, ecdh.getPublicKey(null, "uncompressed")]),
  }).toString("utf8");
}
