// docs/protocol.md §4 "Legacy encryptedSessionSigningKey": base58check(compressed enc ‖ ciphertext),
// HPKE-sealed session scalar. Deprecated by the service and opt-in here, so it loads on first use.
import { SignetError } from "../errors/errors.js";
import type { CryptoBackend, DecryptionKey } from "./backend.js";
import { base58CheckDecode } from "./base58.js";
import { malformed } from "./bundles.js";
import { assertDecryptionKey, openTurnkeyHpke } from "./open-bundle.js";
import { bytesToBigInt, decodePoint, encodePoint, N } from "./p256.js";

/** Parameters of {@link openSessionKeyBundle}. */
export type OpenSessionKeyBundleParameters = {
  /** The legacy `encryptedSessionSigningKey` (base58check). */
  bundle: string;
  /** The key whose uncompressed public key was sent as `clientPublicKey`. */
  key: DecryptionKey;
};

/**
 * Opens a legacy `encryptedSessionSigningKey` to its 32-byte session scalar.
 * @throws {SignetError} `ENCODING_INVALID`, `CHECKSUM_INVALID`, `BUNDLE_MALFORMED`, `POINT_INVALID`,
 * `DECRYPTION_FAILED`, `KEY_INVALID`.
 */
export async function openSessionKeyBundle(
  backend: CryptoBackend,
  { bundle, key }: OpenSessionKeyBundleParameters,
): Promise<Uint8Array> {
  assertDecryptionKey(key);
  const raw = await base58CheckDecode(bundle, backend.sha256, "bundle");
  // compressed enc (33) ‖ AES-256-GCM ciphertext of a 32-byte scalar with its 16-byte tag.
  if (raw.length !== 81)
    throw malformed("encryptedSessionSigningKey", `expected 81 bytes, got ${raw.length}`);
  const enc = encodePoint(decodePoint(raw.subarray(0, 33), "bundle.enc"), false);
  const scalar = await openTurnkeyHpke(key, enc, raw.subarray(33));
  const d = bytesToBigInt(scalar);
  if (scalar.length !== 32 || d === 0n || d >= N)
    throw new SignetError("KEY_INVALID", "bundle holds no valid P-256 scalar");
  return scalar;
}
