// Bad input to every public crypto function gives a SignetError with a stable code (never a raw
// TypeError from a dependency), and no message carries an OTP code, key, mnemonic or stamp.
import { describe, expect, it } from "vitest";
import { expectDocumentedDetails } from "../../../test/src/errorDetails.js";
import { type InteropSamples, loadVector } from "../../../test/src/vectors.js";
import * as browser from "../../src/index.js";
import * as native from "../../src/index.native.js";

const samples = loadVector<InteropSamples>("interop-samples.json");
const SECRETS = [
  samples.stamps.privateKey,
  samples.otpBundle.targetPrivateKey,
  samples.otpBundle.tekPrivateKey,
  samples.exportBundleProduction.recipientPrivateKey,
  "424242",
  "leaf lady",
];

async function codeOf(run: () => unknown): Promise<string> {
  let error: unknown;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  if (!(error instanceof browser.SignetError)) {
    throw new Error(
      `expected a SignetError, got ${error === undefined ? "no error" : String(error)}`,
    );
  }
  for (const secret of SECRETS) {
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify(error.toJSON())).not.toContain(secret);
  }
  expect(error.name).toBe("SignetError");
  // Its details are what its code's type lists (POINT_INVALID, SIGNATURE_INVALID, the bundles'…).
  expectDocumentedDetails(error);
  return error.code;
}

const envelope = (fields: Record<string, unknown>) =>
  JSON.stringify({
    version: "v1.0.0",
    data: "7b7d",
    dataSignature: "",
    enclaveQuorumPublic: "",
    ...fields,
  });

describe.each([
  ["index.ts (WebCrypto)", browser],
  ["index.native.ts (noble)", native as unknown as typeof browser],
])("%s", (_name, api) => {
  const any = (value: unknown) => value as never;

  it("importSigningKey / importDecryptionKey: KEY_INVALID for every malformed scalar", async () => {
    for (const importKey of [api.importSigningKey, api.importDecryptionKey]) {
      for (const bad of [
        "",
        "zz".repeat(32),
        "ab".repeat(31),
        "00".repeat(32),
        "ff".repeat(32), // ≥ n
        "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", // = n
        ` ${samples.stamps.privateKey.slice(1)}`,
        `${samples.stamps.privateKey}00`,
        new Uint8Array(31),
        new Uint8Array(32),
        undefined,
        null,
        42,
        {},
      ]) {
        expect(await codeOf(() => importKey(any(bad)))).toBe("KEY_INVALID");
      }
    }
    // Uppercase hex is fine.
    const key = await api.importSigningKey(samples.stamps.privateKey.toUpperCase());
    expect(key.publicKey).toBe(samples.stamps.publicKeyCompressed);
  });

  it("stampPayload: ENCODING_INVALID for lone surrogates, INVALID_ARGUMENT for non-strings, KEY_INVALID for non-keys", async () => {
    const key = await api.importSigningKey(samples.stamps.privateKey);
    for (const payload of ["\ud800", "a\udc00b", "x\ud83d", "\udfff\ud800", '{"a":"\ud83d"}']) {
      expect(await codeOf(() => api.stampPayload(payload, key))).toBe("ENCODING_INVALID");
    }
    for (const payload of [undefined, null, 1, new Uint8Array(2), {}]) {
      expect(await codeOf(() => api.stampPayload(any(payload), key))).toBe("INVALID_ARGUMENT");
    }
    for (const bad of [undefined, null, {}, { publicKey: "02" }, { sign: () => 0 }]) {
      expect(await codeOf(() => api.stampPayload("x", any(bad)))).toBe("KEY_INVALID");
    }
    // A well-formed pair is fine, and the empty payload is a payload.
    await expect(api.stampPayload("😀", key)).resolves.toMatch(/^[A-Za-z0-9_-]+$/);
    await expect(api.stampPayload("", key)).resolves.toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("verifyStamp: ENCODING_INVALID, POINT_INVALID, SIGNATURE_INVALID", async () => {
    const sample = samples.stamps.samples[0]!;
    const json = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const good = JSON.parse(Buffer.from(sample.stampHeaderValue, "base64url").toString("utf8"));
    expect(await codeOf(() => api.verifyStamp({ payload: sample.payload, stamp: "%%%" }))).toBe(
      "ENCODING_INVALID",
    );
    expect(await codeOf(() => api.verifyStamp({ payload: sample.payload, stamp: json([1]) }))).toBe(
      "ENCODING_INVALID",
    );
    expect(
      await codeOf(() =>
        api.verifyStamp({ payload: sample.payload, stamp: json({ ...good, scheme: "X" }) }),
      ),
    ).toBe("ENCODING_INVALID");
    expect(
      await codeOf(() =>
        api.verifyStamp({
          payload: sample.payload,
          stamp: json({ ...good, publicKey: `05${"00".repeat(32)}` }),
        }),
      ),
    ).toBe("POINT_INVALID");
    expect(
      await codeOf(() =>
        api.verifyStamp({ payload: sample.payload, stamp: json({ ...good, signature: "3000" }) }),
      ),
    ).toBe("SIGNATURE_INVALID");
    const other = await api.generateSigningKey();
    expect(
      await codeOf(() =>
        api.verifyStamp({
          payload: sample.payload,
          stamp: sample.stampHeaderValue,
          publicKey: other.publicKey,
        }),
      ),
    ).toBe("SIGNATURE_INVALID");
  });

  it("sealOtpBundle: typed errors for every malformed input, and never the OTP in a message", async () => {
    const tek = await api.generateSigningKey();
    const good = {
      targetBundle: samples.targetBundle.otpEncryptionTargetBundle,
      otpCode: "424242",
      publicKey: tek.publicKeyUncompressed,
      trustedKeys: [samples.targetBundle.attestationPublicKey],
    };
    const bundle = JSON.parse(good.targetBundle) as Record<string, string>;
    const targetData = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("hex");
    const cases: [string, Partial<typeof good> & Record<string, unknown>][] = [
      ["INVALID_ARGUMENT", { otpCode: "" }],
      ["INVALID_ARGUMENT", { otpCode: any(424242) }],
      ["INVALID_ARGUMENT", { publicKey: any(undefined) }],
      ["ENCODING_INVALID", { publicKey: "xyz" }],
      ["POINT_INVALID", { publicKey: `04${"11".repeat(64)}` }],
      ["ENCODING_INVALID", { otpCode: "42\ud800" }],
      ["BUNDLE_MALFORMED", { targetBundle: "not json" }],
      ["BUNDLE_MALFORMED", { targetBundle: any(undefined) }],
      ["BUNDLE_MALFORMED", { targetBundle: "[]" }],
      ["BUNDLE_MALFORMED", { targetBundle: JSON.stringify({ ...bundle, version: "v2" }) }],
      ["BUNDLE_MALFORMED", { targetBundle: JSON.stringify({ ...bundle, data: "zz" }) }],
      ["BUNDLE_MALFORMED", { targetBundle: JSON.stringify({ ...bundle, data: 7 }) }],
      [
        "BUNDLE_SIGNATURE_INVALID",
        { targetBundle: JSON.stringify({ ...bundle, data: `${bundle.data}00` }) },
      ],
      [
        "BUNDLE_SIGNATURE_INVALID",
        { targetBundle: JSON.stringify({ ...bundle, dataSignature: "" }) },
      ],
      [
        "BUNDLE_SIGNATURE_INVALID",
        { targetBundle: JSON.stringify({ ...bundle, dataSignature: "30" }) },
      ],
      [
        "BUNDLE_SIGNATURE_INVALID",
        { targetBundle: JSON.stringify({ ...bundle, enclaveQuorumPublic: "04ab" }) },
      ],
      [
        "BUNDLE_SIGNER_UNTRUSTED",
        { trustedKeys: [samples.pinnedKeys.PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY!] },
      ],
      ["BUNDLE_SIGNER_UNTRUSTED", { trustedKeys: [] }],
      ["INVALID_ARGUMENT", { trustedKeys: any("04ab") }],
      ["ENCODING_INVALID", { trustedKeys: ["nothex"] }],
      [
        "BUNDLE_MALFORMED",
        {
          targetBundle: envelope({ data: targetData({ nope: 1 }) }),
          allowUnsigned: true,
          onWarning: () => {},
        },
      ],
      [
        "BUNDLE_MALFORMED",
        { targetBundle: envelope({ data: "ff" }), allowUnsigned: true, onWarning: () => {} },
      ],
      [
        "BUNDLE_MALFORMED",
        {
          targetBundle: envelope({ data: targetData({ targetPublic: "04ab" }) }),
          allowUnsigned: true,
          onWarning: () => {},
        },
      ],
      [
        "POINT_INVALID",
        {
          targetBundle: envelope({ data: targetData({ targetPublic: `04${"11".repeat(64)}` }) }),
          allowUnsigned: true,
          onWarning: () => {},
        },
      ],
    ];
    for (const [code, override] of cases) {
      expect([code, await codeOf(() => api.sealOtpBundle({ ...good, ...override }))]).toEqual([
        code,
        code,
      ]);
    }
    expect(await codeOf(() => api.sealOtpBundle(any(undefined)))).toBe("INVALID_ARGUMENT");
    // Quoted bundles (as in some spec examples) are fine.
    await expect(
      api.sealOtpBundle({ ...good, targetBundle: `'${good.targetBundle}'` }),
    ).resolves.toContain("encappedPublic");
  });

  it("sealOtpBundle with allowUnsigned: sandbox bundles pass with a warning, never silently", async () => {
    const tek = await api.generateSigningKey();
    const target = await api.generateDecryptionKey();
    const data = Buffer.from(
      JSON.stringify({ targetPublic: target.publicKeyUncompressed }),
    ).toString("hex");
    const warnings: browser.BundleWarning[] = [];
    const sealed = await api.sealOtpBundle({
      targetBundle: envelope({ data }),
      otpCode: "000000",
      publicKey: tek.publicKey,
      allowUnsigned: true,
      onWarning: (w) => warnings.push(w),
    });
    expect(JSON.parse(sealed)).toHaveProperty("encappedPublic");
    expect(warnings.map((w) => [w.code, w.bundle])).toEqual([
      ["BUNDLE_UNSIGNED", "otpEncryptionTargetBundle"],
    ]);
    // Signed by a key outside trustedKeys: accepted under allowUnsigned, reported as untrusted.
    warnings.length = 0;
    await api.sealOtpBundle({
      targetBundle: samples.targetBundle.otpEncryptionTargetBundle,
      otpCode: "000000",
      publicKey: tek.publicKey,
      allowUnsigned: true,
      onWarning: (w) => warnings.push(w),
    });
    expect(warnings.map((w) => w.code)).toEqual(["BUNDLE_SIGNER_UNTRUSTED"]);
    // Without onWarning it goes to console.warn.
    const logged: unknown[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => logged.push(args);
    try {
      await api.sealOtpBundle({
        targetBundle: envelope({ data }),
        otpCode: "000000",
        publicKey: tek.publicKey,
        allowUnsigned: true,
      });
    } finally {
      console.warn = original;
    }
    expect(String(logged[0])).toContain("BUNDLE_UNSIGNED");
    expect(String(logged[0])).not.toContain("000000");
    // A signature that is present but wrong is rejected even under allowUnsigned.
    const bundle = JSON.parse(samples.targetBundle.otpEncryptionTargetBundle) as Record<
      string,
      string
    >;
    expect(
      await codeOf(() =>
        api.sealOtpBundle({
          targetBundle: JSON.stringify({ ...bundle, data: `${bundle.data}00` }),
          otpCode: "000000",
          publicKey: tek.publicKey,
          allowUnsigned: true,
          onWarning: () => {},
        }),
      ),
    ).toBe("BUNDLE_SIGNATURE_INVALID");
  });

  it("openSessionKeyBundle: ENCODING_INVALID, CHECKSUM_INVALID, BUNDLE_MALFORMED, DECRYPTION_FAILED, KEY_INVALID", async () => {
    const legacy = loadVector<{ recipientPrivateKey: string; bundle: string }>(
      "legacy-session-key-bundle.json",
    );
    const key = await api.importDecryptionKey(legacy.recipientPrivateKey);
    const other = await api.generateDecryptionKey();
    const swap = legacy.bundle.slice(0, -1) + (legacy.bundle.endsWith("f") ? "g" : "f");
    expect(await codeOf(() => api.openSessionKeyBundle({ bundle: "0OIl", key }))).toBe(
      "ENCODING_INVALID",
    );
    expect(await codeOf(() => api.openSessionKeyBundle({ bundle: any(undefined), key }))).toBe(
      "ENCODING_INVALID",
    );
    expect(await codeOf(() => api.openSessionKeyBundle({ bundle: swap, key }))).toBe(
      "CHECKSUM_INVALID",
    );
    expect(await codeOf(() => api.openSessionKeyBundle({ bundle: "1111111", key }))).toBe(
      "CHECKSUM_INVALID",
    );
    expect(
      await codeOf(() => api.openSessionKeyBundle({ bundle: legacy.bundle, key: other })),
    ).toBe("DECRYPTION_FAILED");
    expect(
      await codeOf(() => api.openSessionKeyBundle({ bundle: legacy.bundle, key: any({}) })),
    ).toBe("KEY_INVALID");
    expect(await codeOf(() => api.openSessionKeyBundle(any(undefined)))).toBe("INVALID_ARGUMENT");
  });

  it("openExportBundle: typed errors, and the mnemonic never in a message", async () => {
    const { bundle, recipientPrivateKey } = samples.exportBundleProduction;
    const key = await api.importDecryptionKey(recipientPrivateKey);
    const parsed = JSON.parse(bundle) as Record<string, string>;
    const data = JSON.parse(Buffer.from(parsed.data!, "hex").toString("utf8")) as Record<
      string,
      string
    >;
    const withData = (o: unknown) =>
      JSON.stringify({ ...parsed, data: Buffer.from(JSON.stringify(o)).toString("hex") });
    const cases: [string, Record<string, unknown>][] = [
      ["BUNDLE_MALFORMED", { bundle: "{" }],
      ["BUNDLE_SIGNATURE_INVALID", { bundle: withData({ ...data, organizationId: "x" }) }],
      [
        "BUNDLE_SIGNER_UNTRUSTED",
        { trustedKeys: [samples.pinnedKeys.PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY] },
      ],
      ["KEY_INVALID", { key: undefined }],
      ["BUNDLE_ORGANIZATION_MISMATCH", { organizationId: "f9a31c64" }],
      // Unsigned sandbox-style bundles with broken contents, past the signature check.
      [
        "BUNDLE_MALFORMED",
        {
          bundle: envelope({ data: Buffer.from("{}").toString("hex") }),
          allowUnsigned: true,
          onWarning: () => {},
        },
      ],
      [
        "POINT_INVALID",
        {
          bundle: envelope({
            data: Buffer.from(JSON.stringify({ ...data, encappedPublic: "04ab" })).toString("hex"),
          }),
          allowUnsigned: true,
          onWarning: () => {},
        },
      ],
      [
        "DECRYPTION_FAILED",
        {
          bundle: envelope({
            data: Buffer.from(
              JSON.stringify({ ...data, ciphertext: `00${data.ciphertext!.slice(2)}` }),
            ).toString("hex"),
          }),
          allowUnsigned: true,
          onWarning: () => {},
        },
      ],
    ];
    for (const [code, override] of cases) {
      expect([
        code,
        await codeOf(() => api.openExportBundle({ bundle, key, ...override })),
      ]).toEqual([code, code]);
    }
  });

  it("oauthNonce: exact-string SHA-256; INVALID_ARGUMENT / ENCODING_INVALID otherwise", async () => {
    await expect(api.oauthNonce("abc")).resolves.toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    const key = await api.generateSigningKey();
    expect(await api.oauthNonce(key.publicKey)).not.toBe(
      await api.oauthNonce(key.publicKey.toUpperCase()),
    );
    expect(await codeOf(() => api.oauthNonce(any(undefined)))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(() => api.oauthNonce(""))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(() => api.oauthNonce("\ud800"))).toBe("ENCODING_INVALID");
  });

  it("createCryptoApi and object parameters: INVALID_ARGUMENT for non-objects", async () => {
    for (const bad of [undefined, null, {}, { generateSigningKey: () => 0 }]) {
      expect(await codeOf(() => api.createCryptoApi(any(bad)))).toBe("INVALID_ARGUMENT");
    }
    for (const run of [
      api.verifyStamp,
      api.sealOtpBundle,
      api.openSessionKeyBundle,
      api.openExportBundle,
    ]) {
      for (const bad of [undefined, null, "x", 1]) {
        expect(await codeOf(() => run(any(bad)))).toBe("INVALID_ARGUMENT");
      }
    }
  });

  it("restoreSigningKey: KEY_INVALID for malformed or mismatched records", async () => {
    const key = await api.importSigningKey(samples.stamps.privateKey);
    const other = await api.generateSigningKey();
    for (const bad of [
      undefined,
      null,
      "x",
      {},
      { type: "scalar", privateKey: "00", publicKey: key.publicKey },
    ]) {
      expect(await codeOf(() => api.restoreSigningKey(any(bad)))).toBe("KEY_INVALID");
    }
    expect(
      await codeOf(() =>
        api.restoreSigningKey({
          type: "scalar",
          privateKey: samples.stamps.privateKey,
          publicKey: other.publicKey,
        }),
      ),
    ).toBe("KEY_INVALID");
  });
});
