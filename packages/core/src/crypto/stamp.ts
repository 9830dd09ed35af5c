// docs/protocol.md §2 (stamp payloadToSign byte for byte) and §4 (the Grid-Wallet-Signature value):
// base64url(JSON {publicKey, scheme, signature}) with an ECDSA P-256 SHA-256 DER signature.
import { SignetError } from "../errors/errors.js";
import type { SigningKey } from "./backend.js";
import { base64UrlEncode, bytesToHex, utf8Encode } from "./encoding.js";

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

/** Parameters of `verifyStamp` (./verify-stamp.ts). */
export type VerifyStampParameters = {
  /** The exact string that was stamped. */
  payload: string;
  /** The `Grid-Wallet-Signature` value. */
  stamp: string;
  /** When given, the stamp must name this key (compressed or uncompressed hex). */
  publicKey?: string | undefined;
};
