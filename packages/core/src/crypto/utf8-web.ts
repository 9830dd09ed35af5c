// UTF-8 (RFC 3629) on the platform's TextEncoder and TextDecoder, for browsers and Node. The
// React Native build uses ./utf8.ts (the package's "#utf8" import picks one); both refuse what a
// fatal decoder refuses and strings with lone surrogates, with ENCODING_INVALID.
import { SignetError } from "../errors.js";

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
