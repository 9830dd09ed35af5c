// SEC 1 v2 §C.8 / RFC 3279 §2.2.3 (ECDSA-Sig-Value), X.690 §8.3 and §10 (DER integers):
// conversion between IEEE P1363 `r ‖ s` (WebCrypto, noble "compact") and ASN.1 DER (stamps, docs/protocol.md §4).
import { SignetError } from "../errors.js";

/** Byte length of one P-256 scalar. */
const SIZE = 32;

function derInteger(value: Uint8Array): Uint8Array {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start++;
  const body = value.subarray(start);
  // A set high bit would read as negative: DER needs one 0x00 in front.
  const pad = body[0]! & 0x80 ? 1 : 0;
  const out = new Uint8Array(2 + pad + body.length);
  out[0] = 0x02;
  out[1] = pad + body.length;
  out.set(body, 2 + pad);
  return out;
}

/**
 * Converts a 64-byte P1363 signature (`r ‖ s`) to DER with minimal integers (70–72 bytes for
 * typical values).
 * @throws {SignetError} `SIGNATURE_INVALID` when `signature` is not 64 bytes.
 * @example p1363ToDer(await subtle.sign(...)) // Uint8Array [0x30, 0x45, 0x02, ...]
 */
export function p1363ToDer(signature: Uint8Array): Uint8Array {
  if (!(signature instanceof Uint8Array) || signature.length !== 2 * SIZE) {
    throw new SignetError(
      "SIGNATURE_INVALID",
      `"signature" expected 64 bytes, got ${signature?.length}`,
    );
  }
  const r = derInteger(signature.subarray(0, SIZE));
  const s = derInteger(signature.subarray(SIZE));
  const out = new Uint8Array(2 + r.length + s.length);
  out[0] = 0x30;
  out[1] = r.length + s.length;
  out.set(r, 2);
  out.set(s, 2 + r.length);
  return out;
}

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
