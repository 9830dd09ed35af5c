// UTF-8 (RFC 3629) and base64url (RFC 4648 §5) on the platform's TextEncoder, TextDecoder, btoa
// and atob, for browsers and Node. The React Native build uses ./codec.ts (the package's "#codec"
// import picks one); both refuse what a fatal decoder refuses and strings with lone surrogates,
// with ENCODING_INVALID.
import { SignetError } from "../errors/errors.js";

/**
 * Encodes a string as UTF-8.
 * @throws {SignetError} `ENCODING_INVALID` for a non-string or a lone surrogate (TextEncoder
 * would silently write U+FFFD in its place).
 */
export function utf8Encode(text: string, name = "text"): Uint8Array {
  // With the u flag a surrogate pair is one code point: only lone surrogates match.
  if (typeof text !== "string" || /\p{Surrogate}/u.test(text))
    throw new SignetError(
      "ENCODING_INVALID",
      `"${name}" expected a string without lone surrogates`,
    );
  return new TextEncoder().encode(text);
}

/**
 * Decodes UTF-8, keeping a leading byte-order mark as U+FEFF.
 * @throws {SignetError} `ENCODING_INVALID` for anything a fatal decoder refuses.
 */
export function utf8Decode(bytes: Uint8Array, name = "bytes"): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (cause) {
    throw new SignetError("ENCODING_INVALID", `"${name}" is not valid UTF-8`, { cause });
  }
}

/** base64url without padding. */
export function encodeBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decodes base64url that ./encoding.ts checked (alphabet and length); trailing bits are dropped. */
export function decodeBase64Url(text: string): Uint8Array {
  return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
}
