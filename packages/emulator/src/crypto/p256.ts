// docs/protocol.md §4 (crypto formats): NIST P-256 keys, point encodings, ECDSA-SHA256 DER signatures, ECDH.
// Point validation is done here in BigInt arithmetic before anything reaches OpenSSL, so an
// off-curve or malformed point is rejected by our own check, not only by the library's.
import {
  createECDH,
  createHmac,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from "node:crypto";
import { fromHex, toHex } from "./encoding.js";

/** Field prime p of P-256. */
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
/** Group order n of P-256. */
export const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const A = P - 3n;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

/** A P-256 key pair as raw bytes. */
export type P256KeyPair = {
  /** 32-byte big-endian scalar in [1, n-1]. */
  privateKey: Uint8Array;
  /** `04` ‖ X ‖ Y, 65 bytes. */
  publicKeyUncompressed: Uint8Array;
  /** `02`/`03` ‖ X, 33 bytes. */
  publicKeyCompressed: Uint8Array;
};

function bytesToBigInt(b: Uint8Array): bigint {
  return b.length === 0 ? 0n : BigInt(`0x${toHex(b)}`);
}

function bigIntTo32Bytes(n: bigint): Uint8Array {
  return fromHex(n.toString(16).padStart(64, "0"))!;
}

function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r >= 0n ? r : r + m;
}

function powMod(base: bigint, exp: bigint, m: bigint): bigint {
  let result = 1n;
  let b = mod(base, m);
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return result;
}

function curveRhs(x: bigint): bigint {
  return mod(x * x * x + A * x + B, P);
}

function encodePoint(x: bigint, y: bigint): { uncompressed: Uint8Array; compressed: Uint8Array } {
  const xb = bigIntTo32Bytes(x);
  const uncompressed = new Uint8Array(65);
  uncompressed[0] = 0x04;
  uncompressed.set(xb, 1);
  uncompressed.set(bigIntTo32Bytes(y), 33);
  const compressed = new Uint8Array(33);
  compressed[0] = y & 1n ? 0x03 : 0x02;
  compressed.set(xb, 1);
  return { uncompressed, compressed };
}

/**
 * Validates a SEC1 P-256 public point given as bytes (33 compressed or 65 uncompressed):
 * coordinates below p, on the curve, not the point at infinity (P-256 has cofactor 1, so
 * every such point is in the prime-order group). Returns both encodings, or `null`.
 */
export function parsePublicKeyBytes(
  bytes: Uint8Array,
): { uncompressed: Uint8Array; compressed: Uint8Array } | null {
  if (bytes.length === 65 && bytes[0] === 0x04) {
    const x = bytesToBigInt(bytes.subarray(1, 33));
    const y = bytesToBigInt(bytes.subarray(33, 65));
    if (x >= P || y >= P || mod(y * y, P) !== curveRhs(x)) return null;
    return encodePoint(x, y);
  }
  if (bytes.length === 33 && (bytes[0] === 0x02 || bytes[0] === 0x03)) {
    const x = bytesToBigInt(bytes.subarray(1, 33));
    if (x >= P) return null;
    const rhs = curveRhs(x);
    // p ≡ 3 (mod 4), so a square root is rhs^((p+1)/4) when one exists.
    let y = powMod(rhs, (P + 1n) / 4n, P);
    if (mod(y * y, P) !== rhs) return null;
    if ((y & 1n) !== BigInt(bytes[0]! & 1)) y = P - y;
    return encodePoint(x, y);
  }
  return null;
}

/**
 * {@link parsePublicKeyBytes} for arguments: returns the point or throws.
 * @throws Error `"<name>" is not a valid P-256 point`.
 */
export function requirePublicKey(
  bytes: Uint8Array,
  name: string,
): { uncompressed: Uint8Array; compressed: Uint8Array } {
  const point = parsePublicKeyBytes(bytes);
  if (!point) throw new Error(`"${name}" is not a valid P-256 point`);
  return point;
}

/**
 * Validates a hex public key: 66 hex compressed or 130 hex uncompressed, either case, a point on
 * P-256 and not infinity. Returns both encodings, or `null` when invalid.
 * @example parsePublicKey("02bf2c58…2789")?.uncompressed.length // 65
 */
export function parsePublicKey(
  hex: string,
): { uncompressed: Uint8Array; compressed: Uint8Array } | null {
  if (typeof hex !== "string" || (hex.length !== 66 && hex.length !== 130)) return null;
  const bytes = fromHex(hex);
  return bytes ? parsePublicKeyBytes(bytes) : null;
}

function assertScalar(privateKey: Uint8Array): void {
  if (!(privateKey instanceof Uint8Array) || privateKey.length !== 32) {
    throw new Error(
      `"privateKey" expected 32 bytes, got ${privateKey?.length ?? typeof privateKey}`,
    );
  }
  const d = bytesToBigInt(privateKey);
  if (d === 0n || d >= P256_ORDER) throw new Error(`"privateKey" expected a scalar in [1, n-1]`);
}

/**
 * The key pair of a 32-byte private scalar.
 * @throws Error when the scalar is not 32 bytes or not in [1, n-1].
 * @example keyPairFromPrivateKey(fromHex("6eb8…f82e")!).publicKeyCompressed
 */
export function keyPairFromPrivateKey(privateKey: Uint8Array): P256KeyPair {
  assertScalar(privateKey);
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  const publicKeyUncompressed = new Uint8Array(ecdh.getPublicKey());
  const point = parsePublicKeyBytes(publicKeyUncompressed);
  if (!point) throw new Error("P-256 public key derivation failed");
  return {
    privateKey: Uint8Array.from(privateKey),
    publicKeyUncompressed: point.uncompressed,
    publicKeyCompressed: point.compressed,
  };
}

/**
 * A random key pair, or a deterministic one when `seed` is given: the scalar is
 * HMAC-SHA256(key = seed, data = label) reduced into [1, n-1] as `(h mod (n-1)) + 1`.
 * Deterministic keys are for the emulator's reproducible enclave and signer keys only.
 * @example generateKeyPair({ seed: "emulator", label: "attestation" })
 */
export function generateKeyPair(deterministic?: { seed: string; label: string }): P256KeyPair {
  if (deterministic) {
    const h = createHmac("sha256", deterministic.seed).update(deterministic.label).digest();
    const d = (bytesToBigInt(h) % (P256_ORDER - 1n)) + 1n;
    return keyPairFromPrivateKey(bigIntTo32Bytes(d));
  }
  for (;;) {
    const candidate = new Uint8Array(randomBytes(32));
    const d = bytesToBigInt(candidate);
    if (d !== 0n && d < P256_ORDER) return keyPairFromPrivateKey(candidate);
  }
}

function b64u(b: Uint8Array): string {
  return Buffer.from(b).toString("base64url");
}

function privateKeyObject(privateKey: Uint8Array): KeyObject {
  const pair = keyPairFromPrivateKey(privateKey);
  const pub = pair.publicKeyUncompressed;
  return createPrivateKey({
    key: {
      kty: "EC",
      crv: "P-256",
      d: b64u(pair.privateKey),
      x: b64u(pub.subarray(1, 33)),
      y: b64u(pub.subarray(33, 65)),
    },
    format: "jwk",
  });
}

function publicKeyObject(uncompressed: Uint8Array): KeyObject {
  return createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: b64u(uncompressed.subarray(1, 33)),
      y: b64u(uncompressed.subarray(33, 65)),
    },
    format: "jwk",
  });
}

/**
 * Strict DER parse of an ECDSA signature `SEQUENCE { INTEGER r, INTEGER s }`: short-form
 * lengths, minimal positive integers, no trailing bytes, 1 ≤ r, s < n. Returns `null` otherwise.
 */
export function parseDerSignature(der: Uint8Array): { r: bigint; s: bigint } | null {
  if (!(der instanceof Uint8Array) || der.length < 8 || der.length > 72) return null;
  if (der[0] !== 0x30 || der[1] !== der.length - 2) return null;
  let offset = 2;
  const readInt = (): bigint | null => {
    if (der[offset] !== 0x02) return null;
    const len = der[offset + 1];
    if (len === undefined || len === 0 || len > 33 || offset + 2 + len > der.length) return null;
    const body = der.subarray(offset + 2, offset + 2 + len);
    if (body[0]! & 0x80) return null; // negative
    if (len > 1 && body[0] === 0 && !(body[1]! & 0x80)) return null; // non-minimal
    offset += 2 + len;
    return bytesToBigInt(body);
  };
  const r = readInt();
  if (r === null) return null;
  const s = readInt();
  if (s === null || offset !== der.length) return null;
  if (r === 0n || s === 0n || r >= P256_ORDER || s >= P256_ORDER) return null;
  return { r, s };
}

/**
 * ECDSA P-256 over SHA-256(message), ASN.1 DER (70–72 bytes). S is left as produced (not normalised).
 * @throws Error when the private key is invalid.
 * @example toHex(signDer(key.privateKey, utf8(payloadToSign)))
 */
export function signDer(privateKey: Uint8Array, message: Uint8Array): Uint8Array {
  return new Uint8Array(
    sign("sha256", message, { key: privateKeyObject(privateKey), dsaEncoding: "der" }),
  );
}

/** ECDSA P-256 SHA-256 as raw r ‖ s (64 bytes, IEEE P1363 / JOSE). */
export function signRaw(privateKey: Uint8Array, message: Uint8Array): Uint8Array {
  return new Uint8Array(
    sign("sha256", message, { key: privateKeyObject(privateKey), dsaEncoding: "ieee-p1363" }),
  );
}

/**
 * Verifies a DER ECDSA P-256 SHA-256 signature. High-S is accepted (the service does not enforce
 * low-S). The public key may be compressed (33) or uncompressed (65). Never throws: any malformed
 * key or signature gives `false`.
 */
export function verifyDer(publicKey: Uint8Array, message: Uint8Array, der: Uint8Array): boolean {
  try {
    const point = parsePublicKeyBytes(publicKey);
    if (!point || !parseDerSignature(der)) return false;
    return verify(
      "sha256",
      message,
      { key: publicKeyObject(point.uncompressed), dsaEncoding: "der" },
      der,
    );
  } catch {
    return false;
  }
}

/**
 * ECDH on P-256: the 32-byte X coordinate of d·Q. The peer point is validated (on curve) first.
 * @throws Error when the private key or the public point is invalid.
 */
export function ecdhSharedSecret(privateKey: Uint8Array, publicKey: Uint8Array): Uint8Array {
  assertScalar(privateKey);
  const { uncompressed } = requirePublicKey(publicKey, "publicKey");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  return new Uint8Array(ecdh.computeSecret(uncompressed));
}
