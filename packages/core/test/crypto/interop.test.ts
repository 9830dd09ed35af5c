// Every sample of interop-samples.json (made by Turnkey's own packages) and the legacy session-key
// bundle, on both backends.
import { describe, expect, it } from "vitest";
import {
  type InteropSamples,
  type LegacySessionKeyBundle,
  loadVector,
} from "../../../test/src/vectors.js";
import { createCryptoApi } from "../../src/crypto/api.js";
import { bytesToHex, hexToBytes } from "../../src/crypto/encoding.js";
import { createNobleBackend } from "../../src/crypto/noble.js";
import { openOtpBundle } from "../../src/crypto/open-bundle.js";
import {
  PRODUCTION_SIGNER_SIGN_PUBLIC_KEY,
  PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY,
} from "../../src/crypto/pinned-keys.js";
import { createWebCryptoBackend } from "../../src/crypto/webcrypto.js";
import { isSignetError } from "../../src/errors/errors.js";

const samples = loadVector<InteropSamples>("interop-samples.json");
const legacy = loadVector<LegacySessionKeyBundle>("legacy-session-key-bundle.json");

it("interop-samples.json pinnedKeys: the source constants equal the file", () => {
  expect(PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY).toBe(
    samples.pinnedKeys.PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY,
  );
  expect(PRODUCTION_SIGNER_SIGN_PUBLIC_KEY).toBe(
    samples.pinnedKeys.PRODUCTION_SIGNER_SIGN_PUBLIC_KEY,
  );
  // The production export sample is signed by the pinned signer key.
  expect(samples.exportBundleProduction.signerPublicKey).toBe(PRODUCTION_SIGNER_SIGN_PUBLIC_KEY);
});

describe.each([
  ["webcrypto", createWebCryptoBackend()],
  ["noble", createNobleBackend()],
])("%s backend", (_name, backend) => {
  const api = createCryptoApi(backend);

  it.each(samples.stamps.samples.map((sample, i) => [i, sample] as const))(
    "interop-samples.json stamps.samples[%i]: Turnkey's stamp verifies",
    async (_i, sample) => {
      const { publicKey } = await api.verifyStamp({
        payload: sample.payload,
        stamp: sample.stampHeaderValue,
      });
      expect(publicKey).toBe(samples.stamps.publicKeyCompressed);
      // …and fails for a payload one byte off.
      await expect(
        api.verifyStamp({ payload: `${sample.payload} `, stamp: sample.stampHeaderValue }),
      ).rejects.toMatchObject({
        code: "SIGNATURE_INVALID",
      });
    },
  );

  it("interop-samples.json stamps.privateKey: imports to publicKeyCompressed; our stamps of each payload verify", async () => {
    const key = await api.importSigningKey(samples.stamps.privateKey);
    expect(key.publicKey).toBe(samples.stamps.publicKeyCompressed);
    for (const sample of samples.stamps.samples) {
      const stamp = await api.stampPayload(sample.payload, key);
      await api.verifyStamp({
        payload: sample.payload,
        stamp,
        publicKey: samples.stamps.publicKeyCompressed,
      });
      // Same JSON prefix as Turnkey's stamp: only the (randomised) signature differs.
      const ours = JSON.parse(Buffer.from(stamp, "base64url").toString("utf8"));
      const theirs = JSON.parse(Buffer.from(sample.stampHeaderValue, "base64url").toString("utf8"));
      expect(Object.keys(ours)).toEqual(Object.keys(theirs));
      expect(ours.publicKey).toBe(theirs.publicKey);
      expect(ours.scheme).toBe(theirs.scheme);
    }
  });

  it("interop-samples.json otpBundle: Turnkey's sealed encryptedOtpBundle opens with targetPrivateKey", async () => {
    const key = await api.importDecryptionKey(samples.otpBundle.targetPrivateKey);
    expect(key.publicKeyUncompressed).toBe(samples.otpBundle.targetPublic);
    const opened = await openOtpBundle({
      encryptedOtpBundle: samples.otpBundle.encryptedOtpBundle,
      key,
    });
    expect(JSON.stringify({ otp_code: opened.otpCode, public_key: opened.publicKey })).toBe(
      samples.otpBundle.expectedPlaintext,
    );
    // The TEK named inside is the one whose private key the sample gives.
    const tek = await api.importSigningKey(samples.otpBundle.tekPrivateKey);
    expect(tek.publicKeyUncompressed).toBe(opened.publicKey);
  });

  it("interop-samples.json targetBundle: the envelope verifies against the attestation key and seals to its targetPublic", async () => {
    const warnings: unknown[] = [];
    const tek = await api.importSigningKey(samples.otpBundle.tekPrivateKey);
    const sealed = await api.sealOtpBundle({
      targetBundle: samples.targetBundle.otpEncryptionTargetBundle,
      otpCode: "000000",
      publicKey: tek.publicKeyUncompressed,
      trustedKeys: [samples.targetBundle.attestationPublicKey],
      onWarning: (w) => warnings.push(w),
    });
    expect(warnings).toEqual([]);
    const target = await api.importDecryptionKey(samples.otpBundle.targetPrivateKey);
    const opened = await openOtpBundle({ encryptedOtpBundle: sealed, key: target });
    expect(JSON.stringify({ otp_code: opened.otpCode, public_key: opened.publicKey })).toBe(
      samples.otpBundle.expectedPlaintext,
    );
    // With the default (pinned production) keys the test attestation key is not trusted.
    await expect(
      api.sealOtpBundle({
        targetBundle: samples.targetBundle.otpEncryptionTargetBundle,
        otpCode: "000000",
        publicKey: tek.publicKeyUncompressed,
      }),
    ).rejects.toMatchObject({ code: "BUNDLE_SIGNER_UNTRUSTED" });
  });

  it("interop-samples.json exportBundleProduction: verifies against the pinned signer key (high-S) and opens to the mnemonic", async () => {
    const { bundle, recipientPrivateKey, organizationId, expectedMnemonic } =
      samples.exportBundleProduction;
    const key = await api.importDecryptionKey(recipientPrivateKey);
    await expect(api.openExportBundle({ bundle, key })).resolves.toBe(expectedMnemonic);
    await expect(api.openExportBundle({ bundle, key, organizationId })).resolves.toBe(
      expectedMnemonic,
    );
    await expect(
      api.openExportBundle({ bundle, key, organizationId: "other" }),
    ).rejects.toMatchObject({
      code: "BUNDLE_ORGANIZATION_MISMATCH",
    });
    const wrong = await api.generateDecryptionKey();
    const error = await api.openExportBundle({ bundle, key: wrong }).catch((e: unknown) => e);
    expect(isSignetError(error, "DECRYPTION_FAILED")).toBe(true);
    expect(String((error as Error).message)).not.toContain(expectedMnemonic.split(" ")[0]);
  });

  it("legacy-session-key-bundle.json: opens to expectedPlaintextHex", async () => {
    const key = await api.importDecryptionKey(legacy.recipientPrivateKey);
    const scalar = await api.openSessionKeyBundle({ bundle: legacy.bundle, key });
    expect(bytesToHex(scalar)).toBe(legacy.expectedPlaintextHex);
    // The scalar is a usable signing key.
    const session = await api.importSigningKey(scalar);
    expect(session.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(hexToBytes(legacy.expectedPlaintextHex)).toEqual(scalar);
  });
});
