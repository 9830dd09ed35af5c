// SEC 1 v2 §C.8 / RFC 3279 §2.2.3 (ECDSA-Sig-Value), X.690 §8.3 and §10 (DER integers):
// conversion from IEEE P1363 `r ‖ s` (WebCrypto, noble "compact") to ASN.1 DER (stamps,
// docs/protocol.md §4). The strict reverse, for verification only, is ./der-parse.ts.
import { SignetError } from "../errors/errors.js";

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
