// Test-only, independent of @signet/core (node:fs only): loads the independent vectors kept in
// packages/test/vectors (provenance in its README; override with SIGNET_VECTORS_DIR), with
// their types, the one loader of the workspace. Shared by the core and emulator tests, the Hermes
// test and e2e.
import { readFileSync } from "node:fs";

const DIR = process.env.SIGNET_VECTORS_DIR
  ? new URL(`file://${process.env.SIGNET_VECTORS_DIR.replace(/\/?$/, "/")}`)
  : new URL("../vectors/", import.meta.url);

/** Reads and parses one vector file (a path relative to the vectors directory). */
export function loadVector<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, DIR), "utf8")) as T;
}

export type InteropSamples = {
  stamps: {
    privateKey: string;
    publicKeyCompressed: string;
    samples: { payload: string; stampHeaderValue: string; turnkeyHeaderName: string }[];
  };
  otpBundle: {
    targetPrivateKey: string;
    targetPublic: string;
    encryptedOtpBundle: string;
    expectedPlaintext: string;
    tekPrivateKey: string;
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

export type Rfc9180Vector = {
  mode: number;
  kem_id: number;
  kdf_id: number;
  aead_id: number;
  info: string;
  pkEm: string;
  skEm: string;
  pkRm: string;
  skRm: string;
  enc: string;
  shared_secret: string;
  key: string;
  base_nonce: string;
  encryptions: { sequence: number; pt: string; aad: string; nonce: string; ct: string }[];
};

export type WycheproofEcdsa = {
  numberOfTests: number;
  testGroups: {
    publicKey: { uncompressed: string };
    tests: {
      tcId: number;
      comment: string;
      flags: string[];
      msg: string;
      sig: string;
      result: string;
    }[];
  }[];
};

export type WycheproofEcdh = {
  numberOfTests: number;
  testGroups: {
    curve: string;
    tests: {
      tcId: number;
      comment: string;
      flags: string[];
      public: string;
      private: string;
      shared: string;
      result: string;
    }[];
  }[];
};

export const interopSamples = (): InteropSamples => loadVector("interop-samples.json");
export const legacySessionKeyBundle = (): LegacySessionKeyBundle =>
  loadVector("legacy-session-key-bundle.json");

/** Hex that the vectors guarantee to be well formed. */
export function hex(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, "hex"));
}

/** A Wycheproof `result` accounted for: an unknown value fails the test that reads it. */
export type WycheproofResult = "valid" | "invalid" | "acceptable";

export function assertKnownResult(result: string): asserts result is WycheproofResult {
  if (result !== "valid" && result !== "invalid" && result !== "acceptable") {
    throw new Error(`unknown Wycheproof result "${result}"`);
  }
}
