// SEC 1 v2 §C.8 / RFC 3279 §2.2.3 (ECDSA-Sig-Value), X.690 §8.3 and §10 (DER integers): strict DER
// to IEEE P1363 `r ‖ s`, for verification only (bundles, `verifyStamp`), so it loads with the code
// that verifies; making a DER signature (every stamp) is ./der.ts.
import { SignetError } from "../errors/errors.js";

/** Byte length of one P-256 scalar. */
const SIZE = 32;

function readInteger(der: Uint8Array, offset: number): { value: Uint8Array; next: number } {
  const fail = (why: string): never => {
    throw new SignetError("SIGNATURE_INVALID", `DER signature ${why}`);
  };
  if (der[offset] !== 0x02) fail("expected an INTEGER");
  const length = der[offset + 1];
  // Lengths above 127 would need the long form, which no P-256 integer needs (33 bytes at most).
  if (length === undefined || length === 0 || length > SIZE + 1) fail("has a bad INTEGER length");
  const start = offset + 2;
  const end = start + length!;
  if (end > der.length) fail("is truncated");
  const body = der.subarray(start, end);
  if (body[0]! & 0x80) fail("has a negative INTEGER");
  if (body.length > 1 && body[0] === 0 && !(body[1]! & 0x80)) fail("has a non-minimal INTEGER");
  const magnitude = body[0] === 0 ? body.subarray(1) : body;
  if (magnitude.length > SIZE) fail("has an INTEGER longer than 32 bytes");
  const value = new Uint8Array(SIZE);
  value.set(magnitude, SIZE - magnitude.length);
  return { value, next: end };
}

/**
 * Parses a strict DER ECDSA signature into 64-byte P1363 `r ‖ s`. BER forms (long lengths,
 * padding, trailing bytes, indefinite lengths) are refused so a signature has one encoding.
 * Range checks (1 ≤ r, s < n) belong to verification.
 * @throws {SignetError} `SIGNATURE_INVALID` for anything but canonical DER.
 * @example derToP1363(hexToBytes(stamp.signature)).length // 64
 */
export function derToP1363(der: Uint8Array): Uint8Array {
  if (!(der instanceof Uint8Array)) {
    throw new SignetError("SIGNATURE_INVALID", `"signature" expected bytes, got ${typeof der}`);
  }
  if (der.length < 8 || der[0] !== 0x30 || der[1]! > 0x7f || der[1] !== der.length - 2) {
    throw new SignetError("SIGNATURE_INVALID", "DER signature has a bad SEQUENCE header");
  }
  const r = readInteger(der, 2);
  const s = readInteger(der, r.next);
  if (s.next !== der.length)
    throw new SignetError("SIGNATURE_INVALID", "DER signature has trailing bytes");
  const out = new Uint8Array(2 * SIZE);
  out.set(r.value, 0);
  out.set(s.value, SIZE);
  return out;
}
