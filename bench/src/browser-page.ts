// Runs inside Chromium (bundled by browser.ts): the contenders of the browser benchmarks. Exposed
// on `window.signetBench` for the Node driver.
import * as core from "@signet/core";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import {
  decryptCredentialBundle,
  decryptExportBundle,
  encryptOtpCodeToBundle,
} from "@turnkey/crypto";
import { compareThroughput, latencies } from "./stats.js";
import type { Inputs } from "./vectors.js";

const api = {
  async keyGeneration(count: number) {
    return latencies(() => core.generateSigningKey(), count);
  },
  async stamps(inputs: Inputs, payload: string, runs: number, timeMs: number) {
    const held = await core.generateSigningKey(); // non-extractable, held
    const { privateKey, publicKeyCompressed } = inputs.stampKey;
    const reimport = new ApiKeyStamper({
      apiPublicKey: publicKeyCompressed,
      apiPrivateKey: privateKey,
    });
    return compareThroughput(
      [
        {
          name: "Turnkey ApiKeyStamper (WebCrypto, imports the key per stamp)",
          run: () => reimport.stamp(payload),
        },
        {
          name: "Signet, held non-extractable CryptoKey",
          run: () => core.stampPayload(payload, held),
        },
      ],
      { runs, timeMs },
    );
  },
  async hpke(inputs: Inputs, runs: number, timeMs: number) {
    const { targetBundle, exportBundle, legacy } = inputs;
    const tek = await core.generateSigningKey();
    const exportKey = await core.importDecryptionKey(exportBundle.recipientPrivateKey);
    const legacyKey = await core.importDecryptionKey(legacy.recipientPrivateKey);
    const pairs = [
      [
        "sealOtpBundle",
        () =>
          core.sealOtpBundle({
            targetBundle: targetBundle.otpEncryptionTargetBundle,
            otpCode: "000000",
            publicKey: tek.publicKeyUncompressed,
            trustedKeys: [targetBundle.attestationPublicKey],
          }),
        "encryptOtpCodeToBundle",
        () =>
          encryptOtpCodeToBundle(
            "000000",
            targetBundle.otpEncryptionTargetBundle,
            tek.publicKeyUncompressed,
            targetBundle.attestationPublicKey,
          ),
      ],
      [
        "openSessionKeyBundle",
        () => core.openSessionKeyBundle({ bundle: legacy.bundle, key: legacyKey }),
        "decryptCredentialBundle",
        async () => decryptCredentialBundle(legacy.bundle, legacy.recipientPrivateKey),
      ],
      [
        "openExportBundle",
        () =>
          core.openExportBundle({
            bundle: exportBundle.bundle,
            key: exportKey,
            organizationId: exportBundle.organizationId,
          }),
        "decryptExportBundle",
        () =>
          decryptExportBundle({
            exportBundle: exportBundle.bundle,
            embeddedKey: exportBundle.recipientPrivateKey,
            organizationId: exportBundle.organizationId,
            returnMnemonic: true,
          }),
      ],
    ] as const;
    // Known answers on both sides before timing.
    if ((await pairs[2][1]()) !== exportBundle.expectedMnemonic) throw new Error("export (Signet)");
    if ((await pairs[2][3]()) !== exportBundle.expectedMnemonic)
      throw new Error("export (Turnkey)");
    const out = [];
    for (const [ours, runOurs, theirs, runTheirs] of pairs) {
      out.push(
        await compareThroughput(
          [
            { name: ours, run: runOurs },
            { name: theirs, run: runTheirs },
          ],
          { runs, timeMs },
        ),
      );
    }
    return out;
  },
};

(globalThis as unknown as { signetBench: typeof api }).signetBench = api;
export type BrowserBenchApi = typeof api;
