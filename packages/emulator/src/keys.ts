// The emulator's long-lived keys: what a client must trust (attestation for OTP target bundles,
// signer for export bundles) and the key that signs OTP verification tokens.
import { generateKeyPair, type P256KeyPair, sha256, toHex } from "./crypto/index.js";

/** The emulator's own keys. */
export type EmulatorKeys = {
  /** Signs `otpEncryptionTargetBundle`s (the enclave quorum key of OTP bundles). */
  attestation: P256KeyPair;
  /** Signs export bundles. */
  signer: P256KeyPair;
  /** Signs the OTP verification token (the OTP 202 `payloadToSign`). */
  token: P256KeyPair;
  /** Signs webhooks (`X-Grid-Signature`); its public half is what a platform verifies them with. */
  webhook: P256KeyPair;
  /** The organization id written into export bundles. */
  organizationId: string;
};

/** The public halves a client pins, as uncompressed hex. */
export type EmulatorPublicKeys = {
  attestationPublicKey: string;
  signerPublicKey: string;
  /** Verifies the emulator's webhooks (`X-Grid-Signature`): give it to the relay's `webhooks.publicKey`. */
  webhookPublicKey: string;
};

/** Creates the keys, derived from the seed when there is one. */
export function createEmulatorKeys(
  seed: string | undefined,
  organizationId?: string,
): EmulatorKeys {
  const key = (label: string) =>
    seed === undefined ? generateKeyPair() : generateKeyPair({ seed, label: `emulator:${label}` });
  const orgBytes =
    seed === undefined ? crypto.getRandomValues(new Uint8Array(16)) : sha256(`org:${seed}`);
  const hex = toHex(orgBytes.subarray(0, 16));
  return {
    attestation: key("attestation"),
    signer: key("signer"),
    token: key("token"),
    webhook: key("webhook"),
    organizationId:
      organizationId ??
      `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`,
  };
}

/** The public keys of `keys`. */
export function publicKeysOf(keys: EmulatorKeys): EmulatorPublicKeys {
  return {
    attestationPublicKey: toHex(keys.attestation.publicKeyUncompressed),
    signerPublicKey: toHex(keys.signer.publicKeyUncompressed),
    webhookPublicKey: toHex(keys.webhook.publicKeyUncompressed),
  };
}
