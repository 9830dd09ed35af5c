// Test-only: the independent vectors in ../shared/vectors (next to the repository checkout).
import { readFileSync } from "node:fs";

const VECTORS = process.env.SIGNET_VECTORS_DIR
  ? new URL(`file://${process.env.SIGNET_VECTORS_DIR.replace(/\/?$/, "/")}`)
  : new URL("../../../../../shared/vectors/", import.meta.url);

export type InteropSamples = {
  stamps: {
    privateKey: string;
    publicKeyCompressed: string;
    samples: { payload: string; stampHeaderValue: string }[];
  };
  otpBundle: {
    targetPrivateKey: string;
    targetPublic: string;
    encryptedOtpBundle: string;
    expectedPlaintext: string;
  };
  targetBundle: { attestationPublicKey: string; otpEncryptionTargetBundle: string };
  exportBundleProduction: {
    signerPublicKey: string;
    recipientPrivateKey: string;
    organizationId: string;
    expectedMnemonic: string;
    bundle: string;
  };
  pinnedKeys: Record<string, string>;
};

export type LegacySessionKeyBundle = {
  recipientPrivateKey: string;
  bundle: string;
  expectedPlaintextHex: string;
};

function read<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, VECTORS), "utf8")) as T;
}

export const interopSamples = (): InteropSamples => read("interop-samples.json");
export const legacySessionKeyBundle = (): LegacySessionKeyBundle =>
  read("legacy-session-key-bundle.json");
