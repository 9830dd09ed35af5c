// docs/protocol.md §1 and §4: strict hex (either case in, lowercase out), base64url without padding
// (RFC 4648 §5), strict UTF-8 (RFC 3629) and base58 (Bitcoin alphabet) for base58check.
import { SignetError } from "../errors.js";

const HEX = "0123456789abcdef";

function hexNibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f
  if (code >= 65 && code <= 70) return code - 55; // A-F
  return -1;
}

/**
 * Decodes hex (either case) to bytes. `name` names the value in the error message.
 * @throws {SignetError} `ENCODING_INVALID` for a non-string, an odd length or a non-hex character.
 */
export function hexToBytes(hex: string, name = "hex"): Uint8Array {
  if (typeof hex !== "string") {
    throw new SignetError("ENCODING_INVALID", `"${name}" expected a hex string, got ${typeof hex}`);
  }
  if (hex.length % 2 !== 0) {
    throw new SignetError(
      "ENCODING_INVALID",
      `"${name}" expected an even number of hex digits, got ${hex.length}`,
    );
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = hexNibble(hex.charCodeAt(2 * i));
    const lo = hexNibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) {
      throw new SignetError("ENCODING_INVALID", `"${name}" expected hex digits only`);
    }
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** Encodes bytes as lowercase hex. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += HEX[byte >> 4]! + HEX[byte & 15]!;
  return out;
}

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Encodes bytes as base64url without padding (RFC 4648 §5). */
export function base64UrlEncode(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += B64URL[n >> 18]! + B64URL[(n >> 12) & 63]! + B64URL[(n >> 6) & 63]! + B64URL[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += B64URL[n >> 18]! + B64URL[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += B64URL[n >> 18]! + B64URL[(n >> 12) & 63]! + B64URL[(n >> 6) & 63]!;
  }
  return out;
}

/**
 * Decodes base64url without padding; rejects padding, the standard alphabet's `+`/`/`,
 * impossible lengths and non-zero trailing bits, so every byte string has one encoding.
 * @throws {SignetError} `ENCODING_INVALID`.
 */
export function base64UrlDecode(text: string, name = "base64url"): Uint8Array {
  if (typeof text !== "string") {
    throw new SignetError(
      "ENCODING_INVALID",
      `"${name}" expected a base64url string, got ${typeof text}`,
    );
  }
  if (text.length % 4 === 1) {
    throw new SignetError("ENCODING_INVALID", `"${name}" has an impossible length ${text.length}`);
  }
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const v = B64URL.indexOf(text[i]!);
    if (v < 0)
      throw new SignetError("ENCODING_INVALID", `"${name}" expected base64url characters only`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
    }
    acc &= (1 << bits) - 1;
  }
  if (acc !== 0) throw new SignetError("ENCODING_INVALID", `"${name}" has non-zero trailing bits`);
  return out;
}

/**
 * Encodes a string as UTF-8, refusing lone surrogates instead of replacing them with U+FFFD
 * (a replaced character would make a signature over different bytes than the caller meant).
 * @throws {SignetError} `ENCODING_INVALID` for a non-string or a lone surrogate.
 */
export function utf8Encode(text: string, name = "text"): Uint8Array {
  if (typeof text !== "string") {
    throw new SignetError("ENCODING_INVALID", `"${name}" expected a string, got ${typeof text}`);
  }
  const out = new Uint8Array(text.length * 3);
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[o++] = c;
    } else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 63);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (c > 0xdbff || next < 0xdc00 || next > 0xdfff) {
        throw new SignetError(
          "ENCODING_INVALID",
          `"${name}" contains a lone surrogate at index ${i}`,
        );
      }
      i++;
      c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      out[o++] = 0xf0 | (c >> 18);
      out[o++] = 0x80 | ((c >> 12) & 63);
      out[o++] = 0x80 | ((c >> 6) & 63);
      out[o++] = 0x80 | (c & 63);
    } else {
      out[o++] = 0xe0 | (c >> 12);
      out[o++] = 0x80 | ((c >> 6) & 63);
      out[o++] = 0x80 | (c & 63);
    }
  }
  return out.slice(0, o);
}

/**
 * Decodes strict UTF-8: overlong forms, surrogates, code points above U+10FFFF and truncated
 * sequences are refused (no U+FFFD replacement). Own code because Hermes has no `TextDecoder`.
 * @throws {SignetError} `ENCODING_INVALID`.
 */
export function utf8Decode(bytes: Uint8Array, name = "bytes"): string {
  const fail = (): never => {
    throw new SignetError("ENCODING_INVALID", `"${name}" is not valid UTF-8`);
  };
  const units: number[] = [];
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b0 = bytes[i]!;
    let cp: number;
    let need: number;
    let min: number;
    if (b0 < 0x80) {
      cp = b0;
      need = 0;
      min = 0;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      cp = b0 & 31;
      need = 1;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      cp = b0 & 15;
      need = 2;
      min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      cp = b0 & 7;
      need = 3;
      min = 0x10000;
    } else {
      return fail();
    }
    for (let k = 1; k <= need; k++) {
      const b = bytes[i + k];
      if (b === undefined || (b & 0xc0) !== 0x80) return fail();
      cp = (cp << 6) | (b & 63);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return fail();
    i += need + 1;
    if (cp >= 0x10000) {
      units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 1023));
    } else {
      units.push(cp);
    }
    if (units.length >= 4096) {
      out += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  return out + String.fromCharCode(...units);
}

/** Concatenates byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Byte equality in time independent of where the first difference is. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
