// docs/protocol.md §4 "Export encryptedWalletCredentials": a signed envelope whose data holds an HPKE
// ciphertext of the mnemonic. An export happens about once in a wallet's life, so this loads on
// first use.
import { SignetError } from "../errors/errors.js";
import type { CryptoBackend, DecryptionKey } from "./backend.js";
import { type BundleTrustOptions, hexField, malformed, openSignedEnvelope } from "./bundles.js";
import { utf8Decode } from "./encoding.js";
import { assertDecryptionKey, openTurnkeyHpke } from "./open-bundle.js";
import { PRODUCTION_SIGNER_SIGN_PUBLIC_KEY } from "./pinned-keys.js";

/** Parameters of {@link openExportBundle}. */
export type OpenExportBundleParameters = BundleTrustOptions & {
  /** The `encryptedWalletCredentials` string. */
  bundle: string;
  /** The fresh key whose uncompressed public key was sent as `clientPublicKey`. */
  key: DecryptionKey;
  /** When known, the bundle's `organizationId` must equal it. */
  organizationId?: string | undefined;
};

/**
 * Verifies and opens a wallet export bundle to its BIP-39 mnemonic.
 * @throws {SignetError} `BUNDLE_MALFORMED`, `BUNDLE_SIGNATURE_INVALID`, `BUNDLE_SIGNER_UNTRUSTED`,
 * `BUNDLE_ORGANIZATION_MISMATCH`, `POINT_INVALID`, `DECRYPTION_FAILED`, `KEY_INVALID`.
 */
export async function openExportBundle(
  backend: CryptoBackend,
  parameters: OpenExportBundleParameters,
): Promise<string> {
  const { bundle, key, organizationId } = parameters ?? ({} as OpenExportBundleParameters);
  assertDecryptionKey(key);
  const kind = "encryptedWalletCredentials";
  const data = await openSignedEnvelope(
    backend,
    bundle,
    kind,
    PRODUCTION_SIGNER_SIGN_PUBLIC_KEY,
    parameters,
  );
  if (organizationId !== undefined && data.organizationId !== organizationId) {
    throw new SignetError("BUNDLE_ORGANIZATION_MISMATCH", `"${kind}" is for another organization`);
  }
  const enc = hexField(data, "encappedPublic", `${kind}.data`);
  const ciphertext = hexField(data, "ciphertext", `${kind}.data`);
  const plaintext = await openTurnkeyHpke(key, enc, ciphertext);
  try {
    return utf8Decode(plaintext, "mnemonic");
  } catch (cause) {
    throw malformed(kind, "plaintext is not UTF-8", cause);
  }
}
