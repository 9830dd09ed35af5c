// docs/protocol.md §4: the verifier's side of a stamp (high-S accepted), for tests, emulators and
// diagnostics. Separate from ./stamp.ts so the browser entry loads it only when used.
import { SignetError } from "../errors/errors.js";
import type { CryptoBackend } from "./backend.js";
import { base64UrlDecode } from "./base64url-decode.js";
import { hexToBytes, utf8Decode, utf8Encode } from "./encoding.js";
import { normalizePublicKey } from "./p256.js";
import { verifySignature } from "./signature.js";
import type { StampJson, VerifyStampParameters } from "./stamp.js";

// `STAMP_SCHEME`, its value checked against its type: importing the value would split ./stamp.ts,
// which every stamp needs, out of the page's chunk into one shared with this rare one.
const STAMP_SCHEME: StampJson["scheme"] = "SIGNATURE_SCHEME_TK_API_P256";

/**
 * Decodes a stamp header value without verifying it.
 * @throws {SignetError} `ENCODING_INVALID` when it is not base64url JSON of the stamp shape.
 */
export function parseStamp(stamp: string): StampJson {
  let json: unknown;
  try {
    json = JSON.parse(utf8Decode(base64UrlDecode(stamp, "stamp"), "stamp"));
  } catch (cause) {
    throw new SignetError("ENCODING_INVALID", `"stamp" expected base64url of JSON`, { cause });
  }
  const value = json as Partial<StampJson> | null;
  if (
    typeof value !== "object" ||
    value === null ||
    typeof value.publicKey !== "string" ||
    value.scheme !== STAMP_SCHEME ||
    typeof value.signature !== "string"
  ) {
    throw new SignetError("ENCODING_INVALID", `"stamp" expected {publicKey, scheme, signature}`);
  }
  return { publicKey: value.publicKey, scheme: value.scheme, signature: value.signature };
}

/**
 * Verifies a stamp over `payload` (high-S accepted) and returns the signer's compressed key.
 * @throws {SignetError} `ENCODING_INVALID` (malformed stamp), `POINT_INVALID` (bad key),
 * `SIGNATURE_INVALID` (wrong signer or signature).
 */
export async function verifyStamp(
  backend: CryptoBackend,
  { payload, stamp, publicKey }: VerifyStampParameters,
): Promise<{ publicKey: string }> {
  const parsed = parseStamp(stamp);
  const signer = normalizePublicKey(parsed.publicKey, "stamp.publicKey");
  if (publicKey !== undefined && normalizePublicKey(publicKey).compressed !== signer.compressed) {
    throw new SignetError("SIGNATURE_INVALID", "stamp is by a different key");
  }
  await verifySignature(backend, {
    publicKey: signer.uncompressed,
    message: utf8Encode(payload, "payload"),
    signature: hexToBytes(parsed.signature, "stamp.signature"),
    format: "der",
  });
  return { publicKey: signer.compressed };
}
