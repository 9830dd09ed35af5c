// UTF-8 (RFC 3629) and base64url (RFC 4648 §5) without TextEncoder, TextDecoder, btoa or atob,
// for the React Native build (Hermes has none of them): UTF-8 strict in both directions, as a
// fatal TextDecoder is. The browser and Node build use ./codec-web.ts instead; properties.test.ts
// holds both to the same behaviour, and ./encoding.ts checks base64url input before decoding.
import { SignetError } from "../errors/errors.js";

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

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** base64url without padding. */
export function encodeBase64Url(bytes: Uint8Array): string {
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

/** Decodes base64url that ./encoding.ts checked (alphabet and length); trailing bits are dropped. */
export function decodeBase64Url(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    acc = ((acc << 6) | B64URL.indexOf(text[i]!)) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
    }
  }
  return out;
}
