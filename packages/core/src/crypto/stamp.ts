// PROTOCOL.md §2 (stamp payloadToSign byte for byte) and §4 (the Grid-Wallet-Signature value):
// base64url(JSON {publicKey, scheme, signature}) with an ECDSA P-256 SHA-256 DER signature.
import { SignetError } from "../errors.js";
import type { CryptoBackend, SigningKey } from "./backend.js";
import {
  base64UrlDecode,
  base64UrlEncode,
  bytesToHex,
  hexToBytes,
  utf8Decode,
  utf8Encode,
} from "./encoding.js";
import { normalizePublicKey } from "./p256.js";
import { verifySignature } from "./signature.js";

/** The only stamp scheme the service accepts for wallet keys. */
export const STAMP_SCHEME = "SIGNATURE_SCHEME_TK_API_P256";

/** The decoded JSON of a stamp. */
export type StampJson = { publicKey: string; scheme: typeof STAMP_SCHEME; signature: string };

export function assertSigningKey(key: unknown): asserts key is SigningKey {
  const candidate = key as Partial<SigningKey> | null | undefined;
  if (typeof candidate?.sign !== "function" || typeof candidate.publicKey !== "string") {
    throw new SignetError("KEY_INVALID", `"key" expected a SigningKey`);
  }
}

/**
 * Stamps `payload`: signs its exact UTF-8 bytes (no parse, trim or normalisation) and returns the
 * `Grid-Wallet-Signature` header value.
 * @throws {SignetError} `INVALID_ARGUMENT` for a non-string payload, `ENCODING_INVALID` for a lone
 * surrogate, `KEY_INVALID` for something that is not a `SigningKey`.
 */
export async function stampPayload(payload: string, key: SigningKey): Promise<string> {
  if (typeof payload !== "string") {
    throw new SignetError("INVALID_ARGUMENT", `"payload" expected a string, got ${typeof payload}`);
  }
  assertSigningKey(key);
  const signature = await key.sign(utf8Encode(payload, "payload"));
  const stamp: StampJson = {
    publicKey: key.publicKey,
    scheme: STAMP_SCHEME,
    signature: bytesToHex(signature),
  };
  return base64UrlEncode(utf8Encode(JSON.stringify(stamp)));
}

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

/** Parameters of {@link verifyStamp}. */
export type VerifyStampParameters = {
  /** The exact string that was stamped. */
  payload: string;
  /** The `Grid-Wallet-Signature` value. */
  stamp: string;
  /** When given, the stamp must name this key (compressed or uncompressed hex). */
  publicKey?: string | undefined;
};

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
