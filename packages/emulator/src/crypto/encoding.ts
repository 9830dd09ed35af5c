// docs/protocol.md §1 and §4 (encodings): lowercase hex, base64url (RFC 4648 §5, no padding), base58check, SHA-256.
import { createHash } from "node:crypto";

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;
const BASE64URL_RE = /^[A-Za-z0-9_-]*$/;
const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const encoder = new TextEncoder();

/** UTF-8 bytes of a string; bytes pass through unchanged. */
export function utf8(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? encoder.encode(data) : data;
}

/** Concatenates byte arrays. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Whether two byte arrays are equal (for public data; use `timingSafeEqual` for secrets). */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Lowercase hex of `b`.
 * @example toHex(new Uint8Array([0xab, 1])) // "ab01"
 */
export function toHex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
}

/**
 * Bytes of a hex string (either case, even length); `null` when it is not hex.
 * @example fromHex("AB01") // Uint8Array [0xab, 0x01]
 */
export function fromHex(s: string): Uint8Array | null {
  if (typeof s !== "string" || !HEX_RE.test(s)) return null;
  return new Uint8Array(Buffer.from(s, "hex"));
}

/**
 * base64url without padding (RFC 4648 §5) of bytes, or of the UTF-8 bytes of a string.
 * @example base64urlEncode("hi") // "aGk"
 */
export function base64urlEncode(b: Uint8Array | string): string {
  const bytes = utf8(b);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
}

/**
 * Strict base64url decoding: RFC 4648 §5 alphabet, no padding, canonical trailing bits.
 * Returns `null` for anything else (Node's own decoder silently skips bad characters).
 * @example base64urlDecode("aGk") // bytes of "hi"
 */
export function base64urlDecode(s: string): Uint8Array | null {
  if (typeof s !== "string" || !BASE64URL_RE.test(s) || s.length % 4 === 1) return null;
  const bytes = Buffer.from(s, "base64url");
  if (bytes.toString("base64url") !== s) return null;
  return new Uint8Array(bytes);
}

/** SHA-256 digest of bytes, or of the UTF-8 bytes of a string. */
export function sha256(data: string | Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(utf8(data)).digest());
}

/**
 * Lowercase hex SHA-256 of bytes, or of the UTF-8 bytes of a string (the OAuth nonce rule, PROTOCOL §6).
 * @example sha256Hex("") // "e3b0c442…b855"
 */
export function sha256Hex(data: string | Uint8Array): string {
  return toHex(sha256(data));
}

function checksum(payload: Uint8Array): Uint8Array {
  return sha256(sha256(payload)).subarray(0, 4);
}

/**
 * base58check (Bitcoin alphabet) of `bytes` followed by the first 4 bytes of double SHA-256.
 * @example base58checkEncode(new Uint8Array([0])) // "1Wh4bh"
 */
export function base58checkEncode(bytes: Uint8Array): string {
  const data = concatBytes(bytes, checksum(bytes));
  let zeros = 0;
  while (zeros < data.length && data[zeros] === 0) zeros++;
  let n = 0n;
  for (const byte of data) n = (n << 8n) | BigInt(byte);
  let out = "";
  while (n > 0n) {
    out = BASE58_ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  return "1".repeat(zeros) + out;
}

/**
 * Decodes base58check and checks the 4-byte double SHA-256 checksum; returns the payload
 * without the checksum, or `null` for a bad character, a short input or a checksum mismatch.
 */
export function base58checkDecode(s: string): Uint8Array | null {
  if (typeof s !== "string") return null;
  let zeros = 0;
  while (zeros < s.length && s[zeros] === "1") zeros++;
  let n = 0n;
  for (const ch of s) {
    const digit = BASE58_ALPHABET.indexOf(ch);
    if (digit < 0) return null;
    n = n * 58n + BigInt(digit);
  }
  const tail: number[] = [];
  while (n > 0n) {
    tail.push(Number(n & 0xffn));
    n >>= 8n;
  }
  const data = concatBytes(new Uint8Array(zeros), Uint8Array.from(tail.reverse()));
  if (data.length < 4) return null;
  const payload = data.subarray(0, data.length - 4);
  if (!equalBytes(checksum(payload), data.subarray(data.length - 4))) return null;
  return payload;
}

/** RFC 4648 base32 without padding (the TOTP secret's manual-entry form). */
export function base32Encode(bytes: Uint8Array): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
