// RFC 9180 §4 (labeled HKDF), §4.1 (DHKEM(P-256, HKDF-SHA256)), §5.1 (key schedule, base mode)
// and §6.1 (single-shot seal/open), over injected primitives. Only the React Native backend runs
// it, on noble (./noble.ts): the browser and Node entries run @hpke/core instead
// (./hpke-webcrypto.ts). Tests also run it over WebCrypto primitives to cross-check the two;
// docs/protocol.md §4 fixes the suite the service uses (AES-256-GCM).
import { SignetError } from "../errors/errors.js";
import { concatBytes } from "./bytes.js";

type MaybePromise<T> = T | Promise<T>;

/**
 * The primitives HPKE needs. Each may be synchronous (noble) or asynchronous (the WebCrypto
 * primitives of the cross-check tests). `K` is how a private key is held: a scalar for noble, a
 * `CryptoKeyPair` for WebCrypto (non-extractable).
 */
export type HpkePrimitives<K = Uint8Array> = {
  /** X coordinate (32 bytes) of `privateKey · publicKey`; `publicKey` is 65 bytes, to be validated. */
  dh(privateKey: K, publicKey: Uint8Array): MaybePromise<Uint8Array>;
  /** The 65-byte uncompressed public key of `privateKey`. */
  publicKey(privateKey: K): MaybePromise<Uint8Array>;
  hmacSha256(key: Uint8Array, data: Uint8Array): MaybePromise<Uint8Array>;
  /** AES-GCM with a 16-byte tag appended; key length picks AES-128 or AES-256. */
  aesGcmSeal(
    key: Uint8Array,
    nonce: Uint8Array,
    aad: Uint8Array,
    plaintext: Uint8Array,
  ): MaybePromise<Uint8Array>;
  /** Throws anything on a bad tag; callers map it to `DECRYPTION_FAILED`. */
  aesGcmOpen(
    key: Uint8Array,
    nonce: Uint8Array,
    aad: Uint8Array,
    ciphertext: Uint8Array,
  ): MaybePromise<Uint8Array>;
};

/** AEAD ids of RFC 9180 §7.3 this code supports. */
export type HpkeAeadId = 0x0001 | 0x0002;

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const i2osp = (value: number, length: number): Uint8Array => {
  const out = new Uint8Array(length);
  for (let i = length - 1, v = value; i >= 0; i--, v >>>= 8) out[i] = v & 255;
  return out;
};

const KEM_ID = 0x0010;
const KDF_ID = 0x0001;
const HPKE_V1 = ascii("HPKE-v1");
const KEM_SUITE = concatBytes(ascii("KEM"), i2osp(KEM_ID, 2));
const hpkeSuite = (aead: HpkeAeadId): Uint8Array =>
  concatBytes(ascii("HPKE"), i2osp(KEM_ID, 2), i2osp(KDF_ID, 2), i2osp(aead, 2));

async function extract(
  p: HpkePrimitives<unknown>,
  salt: Uint8Array,
  ikm: Uint8Array,
): Promise<Uint8Array> {
  return p.hmacSha256(salt.length === 0 ? new Uint8Array(32) : salt, ikm);
}

async function expand(
  p: HpkePrimitives<unknown>,
  prk: Uint8Array,
  info: Uint8Array,
  length: number,
): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  let block = new Uint8Array(0);
  for (let i = 1, filled = 0; filled < length; i++) {
    block = new Uint8Array(await p.hmacSha256(prk, concatBytes(block, info, Uint8Array.of(i))));
    out.set(block.subarray(0, Math.min(block.length, length - filled)), filled);
    filled += block.length;
  }
  return out;
}

const labeledExtract = (
  p: HpkePrimitives<unknown>,
  suite: Uint8Array,
  salt: Uint8Array,
  label: string,
  ikm: Uint8Array,
) => extract(p, salt, concatBytes(HPKE_V1, suite, ascii(label), ikm));

const labeledExpand = (
  p: HpkePrimitives<unknown>,
  suite: Uint8Array,
  prk: Uint8Array,
  label: string,
  info: Uint8Array,
  length: number,
) => expand(p, prk, concatBytes(i2osp(length, 2), HPKE_V1, suite, ascii(label), info), length);

/** RFC 9180 §4.1 ExtractAndExpand: the KEM shared secret from a DH output and `enc ‖ pkRm`. */
export async function kemSharedSecret(
  p: HpkePrimitives<unknown>,
  dh: Uint8Array,
  kemContext: Uint8Array,
): Promise<Uint8Array> {
  const prk = await labeledExtract(p, KEM_SUITE, new Uint8Array(0), "eae_prk", dh);
  return labeledExpand(p, KEM_SUITE, prk, "shared_secret", kemContext, 32);
}

/** RFC 9180 §5.1 KeySchedule in base mode: the AEAD key and base nonce. */
export async function keySchedule(
  p: HpkePrimitives<unknown>,
  sharedSecret: Uint8Array,
  info: Uint8Array,
  aead: HpkeAeadId,
): Promise<{ key: Uint8Array; baseNonce: Uint8Array }> {
  const suite = hpkeSuite(aead);
  const empty = new Uint8Array(0);
  const pskIdHash = await labeledExtract(p, suite, empty, "psk_id_hash", empty);
  const infoHash = await labeledExtract(p, suite, empty, "info_hash", info);
  const context = concatBytes(Uint8Array.of(0), pskIdHash, infoHash);
  const secret = await labeledExtract(p, suite, sharedSecret, "secret", empty);
  const key = await labeledExpand(p, suite, secret, "key", context, aead === 0x0001 ? 16 : 32);
  const baseNonce = await labeledExpand(p, suite, secret, "base_nonce", context, 12);
  return { key, baseNonce };
}

/** Parameters of {@link hpkeSealWith}. */
export type HpkeSealWithParameters<K = Uint8Array> = {
  recipientPublicKey: Uint8Array;
  /** The sender's ephemeral key skE: fresh for every seal (fixed only in tests). */
  ephemeralKey: K;
  plaintext: Uint8Array;
  info: Uint8Array;
  aad: Uint8Array | ((enc: Uint8Array) => Uint8Array);
  aead?: HpkeAeadId;
};

/** RFC 9180 §6.1 SealBase, single shot. */
export async function hpkeSealWith<K>(
  p: HpkePrimitives<K>,
  {
    recipientPublicKey,
    ephemeralKey,
    plaintext,
    info,
    aad,
    aead = 0x0002,
  }: HpkeSealWithParameters<K>,
): Promise<{ enc: Uint8Array; ciphertext: Uint8Array }> {
  const enc = await p.publicKey(ephemeralKey);
  const dh = await p.dh(ephemeralKey, recipientPublicKey);
  const shared = await kemSharedSecret(p, dh, concatBytes(enc, recipientPublicKey));
  const { key, baseNonce } = await keySchedule(p, shared, info, aead);
  const additional = typeof aad === "function" ? aad(enc) : aad;
  return { enc, ciphertext: await p.aesGcmSeal(key, baseNonce, additional, plaintext) };
}

/** Parameters of {@link hpkeOpenWith}. */
export type HpkeOpenWithParameters<K = Uint8Array> = {
  /** The recipient's private key skR. */
  recipientKey: K;
  enc: Uint8Array;
  ciphertext: Uint8Array;
  info: Uint8Array;
  aad: Uint8Array;
  aead?: HpkeAeadId;
};

/**
 * RFC 9180 §6.1 OpenBase, single shot.
 * @throws {SignetError} `POINT_INVALID` for a bad `enc` (from `dh`), `DECRYPTION_FAILED` for a bad tag.
 */
export async function hpkeOpenWith<K>(
  p: HpkePrimitives<K>,
  { recipientKey, enc, ciphertext, info, aad, aead = 0x0002 }: HpkeOpenWithParameters<K>,
): Promise<Uint8Array> {
  const dh = await p.dh(recipientKey, enc);
  const shared = await kemSharedSecret(p, dh, concatBytes(enc, await p.publicKey(recipientKey)));
  const { key, baseNonce } = await keySchedule(p, shared, info, aead);
  try {
    return await p.aesGcmOpen(key, baseNonce, aad, ciphertext);
  } catch (cause) {
    throw new SignetError("DECRYPTION_FAILED", "HPKE open failed (wrong key or altered data)", {
      cause,
    });
  }
}
