// SEC 1 v2 §2.3.3–§2.3.4 (point encoding, compression) and §3.2.2.1 (public key validation),
// FIPS 186-5 / SP 800-186 §3.2.1.3 (P-256 domain parameters). BigInt only, so the browser entry
// needs no curve library (docs/protocol.md §4: compressed and uncompressed keys).
import { SignetError } from "../errors/errors.js";
import { bytesToHex, hexToBytes } from "./encoding.js";

/** Field prime p. */
export const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
/** Group order n. */
export const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const A = P - 3n;
export const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

/** An affine point on P-256 (never the point at infinity). */
export type AffinePoint = { readonly x: bigint; readonly y: bigint };

export const mod = (a: bigint, m = P): bigint => {
  const r = a % m;
  return r < 0n ? r + m : r;
};

export function pow(base: bigint, exponent: bigint, m = P): bigint {
  let result = 1n;
  let b = mod(base, m);
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return result;
}

/** Big-endian bytes to an unsigned BigInt. */
export function bytesToBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytesToHex(bytes)}`);
}

/** An unsigned BigInt to 32 big-endian bytes. */
export function bigIntToBytes32(value: bigint): Uint8Array {
  return hexToBytes(value.toString(16).padStart(64, "0"));
}

function isOnCurve({ x, y }: AffinePoint): boolean {
  return mod(y * y - (x * x * x + A * x + B)) === 0n;
}

/**
 * Parses and validates a SEC 1 public key: 33 bytes `02|03 ‖ X` or 65 bytes `04 ‖ X ‖ Y`, with
 * coordinates below p, on the curve (P-256 has cofactor 1, so on-curve implies in the group)
 * and never infinity (which has no encoding here).
 * @throws {SignetError} `POINT_INVALID`.
 */
export function decodePoint(bytes: Uint8Array, name = "publicKey"): AffinePoint {
  const fail = (why: string): never => {
    throw new SignetError("POINT_INVALID", `"${name}" ${why}`);
  };
  if (!(bytes instanceof Uint8Array)) return fail("expected bytes");
  const prefix = bytes[0];
  if (bytes.length === 65 && prefix === 0x04) {
    const x = bytesToBigInt(bytes.subarray(1, 33));
    const y = bytesToBigInt(bytes.subarray(33));
    if (x >= P || y >= P) return fail("has a coordinate out of range");
    const point = { x, y };
    if (!isOnCurve(point)) return fail("is not on the P-256 curve");
    return point;
  }
  if (bytes.length === 33 && (prefix === 0x02 || prefix === 0x03)) {
    const x = bytesToBigInt(bytes.subarray(1));
    if (x >= P) return fail("has a coordinate out of range");
    const rhs = mod(x * x * x + A * x + B);
    // p ≡ 3 (mod 4), so a square root is rhs^((p+1)/4) when one exists.
    let y = pow(rhs, (P + 1n) / 4n);
    if (mod(y * y) !== rhs) return fail("is not on the P-256 curve");
    if ((y & 1n) !== BigInt(prefix & 1)) y = P - y;
    return { x, y };
  }
  return fail(`expected 33 bytes (02/03 prefix) or 65 bytes (04 prefix), got ${bytes.length}`);
}

/** Encodes a point: 33 bytes compressed or 65 bytes uncompressed. */
export function encodePoint(point: AffinePoint, compressed: boolean): Uint8Array {
  const x = bigIntToBytes32(point.x);
  if (compressed) {
    const out = new Uint8Array(33);
    out[0] = point.y & 1n ? 0x03 : 0x02;
    out.set(x, 1);
    return out;
  }
  const out = new Uint8Array(65);
  out[0] = 0x04;
  out.set(x, 1);
  out.set(bigIntToBytes32(point.y), 33);
  return out;
}

/** Both encodings of a validated public key, as lowercase hex. */
export type PublicKeyHex = { compressed: string; uncompressed: string };

/**
 * Validates a public key (33 or 65 bytes, or the same as hex) and returns both encodings.
 * @throws {SignetError} `ENCODING_INVALID` for bad hex, `POINT_INVALID` for a bad point.
 */
export function normalizePublicKey(
  publicKey: Uint8Array | string,
  name = "publicKey",
): PublicKeyHex {
  const bytes = typeof publicKey === "string" ? hexToBytes(publicKey, name) : publicKey;
  const point = decodePoint(bytes, name);
  return {
    compressed: bytesToHex(encodePoint(point, true)),
    uncompressed: bytesToHex(encodePoint(point, false)),
  };
}

/**
 * Parses a private scalar (64 hex digits or 32 bytes) and checks 1 ≤ d < n.
 * @throws {SignetError} `KEY_INVALID`; the message never shows the key.
 */
export function parseScalar(privateKey: Uint8Array | string, name = "privateKey"): Uint8Array {
  let bytes: Uint8Array;
  if (typeof privateKey === "string") {
    if (privateKey.length !== 64) {
      throw new SignetError(
        "KEY_INVALID",
        `"${name}" expected 64 hex digits, got ${privateKey.length}`,
      );
    }
    try {
      bytes = hexToBytes(privateKey, name);
    } catch {
      throw new SignetError("KEY_INVALID", `"${name}" expected hex digits only`);
    }
  } else if (privateKey instanceof Uint8Array) {
    if (privateKey.length !== 32) {
      throw new SignetError("KEY_INVALID", `"${name}" expected 32 bytes, got ${privateKey.length}`);
    }
    bytes = privateKey.slice();
  } else {
    throw new SignetError(
      "KEY_INVALID",
      `"${name}" expected a hex string or 32 bytes, got ${typeof privateKey}`,
    );
  }
  const d = bytesToBigInt(bytes);
  if (d === 0n || d >= N)
    throw new SignetError("KEY_INVALID", `"${name}" is not a valid P-256 scalar`);
  return bytes;
}
