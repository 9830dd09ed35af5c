// RFC 4648 §5: base64url without padding, decoded strictly (docs/protocol.md §1). A module apart
// from ./encoding.ts: what reads base64url (a stamp's, a passkey's client data, a payload's parts)
// runs in lazy chunks, and a page that only writes it need not carry the decoder.
// The bytes come from "#codec", as in ./encoding.ts (the platform's atob, or the portable codec).
import { decodeBase64Url, encodeBase64Url } from "#codec";
import { SignetError } from "../errors/errors.js";

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
  if (!/^[\w-]*$/.test(text))
    throw new SignetError("ENCODING_INVALID", `"${name}" expected base64url characters only`);
  const bytes = decodeBase64Url(text);
  // One encoding per byte string: a last character with bits that no byte holds is refused.
  if (encodeBase64Url(bytes) !== text)
    throw new SignetError("ENCODING_INVALID", `"${name}" has non-zero trailing bits`);
  return bytes;
}
