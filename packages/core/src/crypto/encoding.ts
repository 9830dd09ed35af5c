// docs/protocol.md §1 and §4: strict hex (either case in, lowercase out), base64url without padding
// (RFC 4648 §5), strict UTF-8 (RFC 3629) and base58 (Bitcoin alphabet) for base58check. The strict
// base64url decoder is ./base64url-decode.ts: only chunks read base64url, a page writes it.
import { SignetError } from "../errors/errors.js";

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

/** Encodes bytes as base64url without padding (RFC 4648 §5). */
export const base64UrlEncode: (bytes: Uint8Array) => string = encodeBase64Url;

// UTF-8 (RFC 3629) and the bytes of base64url come from "#codec": the platform's TextEncoder,
// TextDecoder, btoa and atob where they exist (browsers, Node), the portable codec of ./codec.ts
// in the React Native build, whose Hermes has none of them. The package's `imports` field picks
// one by export condition.
import { encodeBase64Url } from "#codec";

export { utf8Decode, utf8Encode } from "#codec";
