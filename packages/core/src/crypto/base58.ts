// base58 (Bitcoin alphabet) and base58check (4-byte double-SHA-256 checksum), docs/protocol.md §4
// "Legacy encryptedSessionSigningKey". Only the legacy flow uses it, so it is its own module.
import { SignetError } from "../errors/errors.js";
import { concatBytes, equalBytes } from "./bytes.js";

const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Encodes bytes as base58 (Bitcoin alphabet); each leading zero byte becomes a leading `1`. */
export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const digits: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let out = "1".repeat(zeros);
  for (let i = digits.length - 1; i >= 0; i--) out += B58[digits[i]!]!;
  return out;
}

/**
 * Decodes base58 (Bitcoin alphabet).
 * @throws {SignetError} `ENCODING_INVALID` for a non-string or a character outside the alphabet.
 */
export function base58Decode(text: string, name = "base58"): Uint8Array {
  if (typeof text !== "string") {
    throw new SignetError(
      "ENCODING_INVALID",
      `"${name}" expected a base58 string, got ${typeof text}`,
    );
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === "1") zeros++;
  const bytes: number[] = [];
  for (let i = zeros; i < text.length; i++) {
    let carry = B58.indexOf(text[i]!);
    if (carry < 0)
      throw new SignetError("ENCODING_INVALID", `"${name}" expected base58 characters only`);
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 255;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 255);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  for (let i = 0; i < bytes.length; i++) out[out.length - 1 - i] = bytes[i]!;
  return out;
}

/** A SHA-256 function; async because WebCrypto's digest is. */
export type Sha256 = (data: Uint8Array) => Promise<Uint8Array>;

/** base58check: base58 of `payload ‖ SHA-256(SHA-256(payload))[0..4]`. */
export async function base58CheckEncode(payload: Uint8Array, sha256: Sha256): Promise<string> {
  const checksum = (await sha256(await sha256(payload))).subarray(0, 4);
  return base58Encode(concatBytes(payload, checksum));
}

/**
 * Decodes base58check and verifies its 4-byte double-SHA-256 checksum.
 * @throws {SignetError} `ENCODING_INVALID` for bad characters or a value shorter than the checksum;
 * `CHECKSUM_INVALID` when the checksum does not match.
 */
export async function base58CheckDecode(
  text: string,
  sha256: Sha256,
  name = "base58check",
): Promise<Uint8Array> {
  const raw = base58Decode(text, name);
  if (raw.length < 4)
    throw new SignetError(
      "ENCODING_INVALID",
      `"${name}" expected at least 4 bytes, got ${raw.length}`,
    );
  const payload = raw.subarray(0, raw.length - 4);
  const checksum = (await sha256(await sha256(payload))).subarray(0, 4);
  if (!equalBytes(checksum, raw.subarray(raw.length - 4))) {
    throw new SignetError("CHECKSUM_INVALID", `"${name}" checksum does not match`);
  }
  return payload.slice();
}
