// The receiving side of the service's HPKE bundles (docs/protocol.md §4): opening with a
// decryption key. Only the rare paths use it (export, the legacy session key; the OTP bundle's
// opening is for tests and emulators), so it loads with them, not with the page.
import { SignetError } from "../errors/errors.js";
import type { DecryptionKey } from "./backend.js";
import { hexField, INFO, malformed, parseJsonObject } from "./bundles.js";
import { concatBytes } from "./bytes.js";
import { hexToBytes, utf8Decode } from "./encoding.js";

export function assertDecryptionKey(key: unknown): asserts key is DecryptionKey {
  const candidate = key as Partial<DecryptionKey> | null | undefined;
  if (
    typeof candidate?.hpkeOpen !== "function" ||
    typeof candidate.publicKeyUncompressed !== "string"
  ) {
    throw new SignetError("KEY_INVALID", `"key" expected a DecryptionKey`);
  }
}

export function openTurnkeyHpke(
  key: DecryptionKey,
  enc: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  const recipient = hexToBytes(key.publicKeyUncompressed, "key.publicKeyUncompressed");
  return key.hpkeOpen({ enc, ciphertext, info: INFO, aad: concatBytes(enc, recipient) });
}

/** Parameters of {@link openOtpBundle}. */
export type OpenOtpBundleParameters = {
  /** The `encryptedOtpBundle` JSON text. */
  encryptedOtpBundle: string;
  /** The enclave's target key. */
  key: DecryptionKey;
};

/**
 * The enclave's side of {@link sealOtpBundle}: opens an `encryptedOtpBundle`. For tests and emulators.
 * @throws {SignetError} `BUNDLE_MALFORMED`, `POINT_INVALID`, `DECRYPTION_FAILED`, `KEY_INVALID`.
 */
export async function openOtpBundle({
  encryptedOtpBundle,
  key,
}: OpenOtpBundleParameters): Promise<{ otpCode: string; publicKey: string }> {
  assertDecryptionKey(key);
  const kind = "encryptedOtpBundle";
  if (typeof encryptedOtpBundle !== "string") throw malformed(kind, "expected a string");
  const object = parseJsonObject(encryptedOtpBundle, kind);
  const enc = hexField(object, "encappedPublic", kind);
  const ciphertext = hexField(object, "ciphertext", kind);
  const plaintext = parseJsonObject(
    utf8Decode(await openTurnkeyHpke(key, enc, ciphertext), kind),
    `${kind} plaintext`,
  );
  const { otp_code: otpCode, public_key: publicKey } = plaintext;
  if (typeof otpCode !== "string" || typeof publicKey !== "string")
    throw malformed(kind, "plaintext lacks otp_code or public_key");
  return { otpCode, publicKey };
}
