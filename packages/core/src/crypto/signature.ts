// FIPS 186-5 §6.4.2 (ECDSA verification: 1 ≤ r, s < n), docs/protocol.md §4 (DER signatures, high-S
// accepted): one verification path over any backend, with typed failures.
import { SignetError } from "../errors/errors.js";
import type { CryptoBackend } from "./backend.js";
import { derToP1363 } from "./der-parse.js";
import { hexToBytes } from "./encoding.js";
import { bytesToBigInt, N, normalizePublicKey } from "./p256.js";

/** Parameters of {@link verifySignature}. */
export type VerifySignatureParameters = {
  /** Compressed or uncompressed public key, as bytes or hex. */
  publicKey: Uint8Array | string;
  message: Uint8Array;
  signature: Uint8Array;
  /** `"der"` (stamps, bundles) or `"p1363"` (raw `r ‖ s`, as WebCrypto makes). */
  format: "der" | "p1363";
};

/**
 * Verifies an ECDSA P-256 SHA-256 signature; high-S signatures are valid (the service and its key
 * custodian do not normalise S). Resolves when valid.
 * @throws {SignetError} `POINT_INVALID` / `ENCODING_INVALID` for a bad key, `SIGNATURE_INVALID`
 * for a malformed or non-matching signature.
 */
export async function verifySignature(
  backend: CryptoBackend,
  { publicKey, message, signature, format }: VerifySignatureParameters,
): Promise<void> {
  const key = hexToBytes(normalizePublicKey(publicKey).uncompressed);
  if (!(message instanceof Uint8Array)) {
    throw new SignetError("INVALID_ARGUMENT", `"message" expected bytes, got ${typeof message}`);
  }
  let raw: Uint8Array;
  if (format === "der") {
    raw = derToP1363(signature);
  } else {
    if (!(signature instanceof Uint8Array) || signature.length !== 64) {
      throw new SignetError(
        "SIGNATURE_INVALID",
        `"signature" expected 64 bytes, got ${signature?.length}`,
      );
    }
    raw = signature;
  }
  const r = bytesToBigInt(raw.subarray(0, 32));
  const s = bytesToBigInt(raw.subarray(32));
  if (r === 0n || s === 0n || r >= N || s >= N) {
    throw new SignetError("SIGNATURE_INVALID", "signature values out of range");
  }
  if (!(await backend.verify(key, message, raw))) {
    throw new SignetError("SIGNATURE_INVALID", "signature does not verify");
  }
}
