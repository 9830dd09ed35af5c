// The independent vectors the benchmarks use as inputs (packages/test/vectors, with provenance).
import { readFileSync } from "node:fs";

const DIR = new URL("../../packages/test/vectors/", import.meta.url);

export type Inputs = {
  /** A signed otpEncryptionTargetBundle and the key that signed it. */
  targetBundle: { otpEncryptionTargetBundle: string; attestationPublicKey: string };
  /** A production export bundle, its recipient key, organization and mnemonic. */
  exportBundle: {
    bundle: string;
    recipientPrivateKey: string;
    organizationId: string;
    signerPublicKey: string;
    expectedMnemonic: string;
  };
  /** A legacy base58check session-key bundle, its recipient key and the 32-byte scalar. */
  legacy: { bundle: string; recipientPrivateKey: string; expectedPlaintextHex: string };
  /** A P-256 key pair (Turnkey's stamper sample key). */
  stampKey: { privateKey: string; publicKeyCompressed: string };
};

export function loadInputs(): Inputs {
  const read = (name: string) => JSON.parse(readFileSync(new URL(name, DIR), "utf8"));
  const interop = read("interop-samples.json");
  return {
    targetBundle: interop.targetBundle,
    exportBundle: interop.exportBundleProduction,
    legacy: read("legacy-session-key-bundle.json"),
    stampKey: interop.stamps,
  };
}
