// Cross-checks against independent implementations: stamps verified by OpenSSL (node:crypto) over
// 1,000 varied payloads per backend; HPKE sealed here and opened by node:crypto / @hpke/core, and
// the other way round.
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nodeHpkeOpen, nodeHpkeSeal } from "../../../test/src/nodeHpke.js";
import { p256PublicKeyNode, verifyDerNode } from "../../../test/src/nodeStamp.js";
import { type InteropSamples, loadVector } from "../../../test/src/vectors.js";
import { createCryptoApi } from "../../src/crypto/api.js";
import type { CryptoBackend } from "../../src/crypto/backend.js";
import { base58CheckEncode } from "../../src/crypto/base58.js";
import { createNobleBackend } from "../../src/crypto/noble.js";
import { openOtpBundle } from "../../src/crypto/open-bundle.js";
import { createWebCryptoBackend } from "../../src/crypto/webcrypto.js";

const samples = loadVector<InteropSamples>("interop-samples.json");
const backends: [string, CryptoBackend][] = [
  ["webcrypto", createWebCryptoBackend()],
  ["noble", createNobleBackend()],
];

// Payloads like the service's: JSON in any key order and spacing, JWT-like strings, and free text
// with non-ASCII, emoji, whitespace and escapes.
const payloadArbitrary = fc.oneof(
  fc
    .tuple(
      fc.dictionary(fc.string({ unit: "grapheme" }), fc.jsonValue(), { maxKeys: 6 }),
      fc.constantFrom(0, 1, 2, "\t"),
    )
    .map(([object, indent]) => JSON.stringify(object, null, indent)),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc
    .array(
      fc.constantFrom(
        "{",
        "}",
        '"',
        "\\",
        "\\n",
        "\n",
        "\t",
        " ",
        "café",
        "—",
        "💸",
        "👩‍👩‍👧",
        "\u0000",
        "\u2028",
        "é",
      ),
      {
        maxLength: 40,
      },
    )
    .map((parts) => parts.join("")),
  fc.base64String().map((s) => `eyJhbGciOiJFUzI1NiJ9.${s.replace(/=/g, "")}.c2ln`),
);

describe.each(backends)("stamps on %s", (_name, backend) => {
  const api = createCryptoApi(backend);

  it("1,000 random payloads: every stamp verifies with OpenSSL (dsaEncoding der) over the UTF-8 bytes", async () => {
    const key = await api.generateSigningKey();
    const publicKey = p256PublicKeyNode(key.publicKeyUncompressed);
    const payloads = fc.sample(payloadArbitrary, { numRuns: 1000, seed: 20_251_122 });
    expect(payloads).toHaveLength(1000);
    for (const payload of payloads) {
      const stamp = await api.stampPayload(payload, key);
      expect(stamp).toMatch(/^[A-Za-z0-9_-]+$/);
      const json = Buffer.from(stamp, "base64url").toString("utf8");
      const match =
        /^\{"publicKey":"(0[23][0-9a-f]{64})","scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":"((?:[0-9a-f]{2})+)"\}$/.exec(
          json,
        );
      expect(match?.[1]).toBe(key.publicKey);
      const der = Buffer.from(match![2]!, "hex");
      expect(der.length).toBeLessThanOrEqual(72);
      const ok = verifyDerNode(publicKey, Buffer.from(payload, "utf8"), der);
      if (!ok) throw new Error(`OpenSSL rejected the stamp of payload ${JSON.stringify(payload)}`);
    }
  });
});

describe.each(backends)("HPKE on %s against independent implementations", (_name, backend) => {
  const api = createCryptoApi(backend);
  const info = Buffer.from("turnkey_hpke");

  it("sealOtpBundle → opened by node:crypto HPKE with the target key", async () => {
    const tek = await api.generateSigningKey();
    const sealed = await api.sealOtpBundle({
      targetBundle: samples.targetBundle.otpEncryptionTargetBundle,
      otpCode: "123 456 ✓",
      publicKey: tek.publicKey, // compressed in, uncompressed in the bundle
      trustedKeys: [samples.targetBundle.attestationPublicKey],
    });
    const { encappedPublic, ciphertext } = JSON.parse(sealed) as {
      encappedPublic: string;
      ciphertext: string;
    };
    expect(Object.keys(JSON.parse(sealed))).toEqual(["encappedPublic", "ciphertext"]);
    expect(encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
    const enc = Buffer.from(encappedPublic, "hex");
    const plaintext = nodeHpkeOpen({
      recipientPrivateKey: samples.otpBundle.targetPrivateKey,
      enc,
      ciphertext: Buffer.from(ciphertext, "hex"),
      info,
      aad: Buffer.concat([enc, Buffer.from(samples.otpBundle.targetPublic, "hex")]),
    });
    expect(plaintext.toString("utf8")).toBe(
      `{"otp_code":"123 456 ✓","public_key":"${tek.publicKeyUncompressed}"}`,
    );
  });

  it("sealOtpBundle → opened by @hpke/core", async () => {
    const suite = new CipherSuite({
      kem: new DhkemP256HkdfSha256(),
      kdf: new HkdfSha256(),
      aead: new Aes256Gcm(),
    });
    const tek = await api.generateSigningKey();
    const sealed = JSON.parse(
      await api.sealOtpBundle({
        targetBundle: samples.targetBundle.otpEncryptionTargetBundle,
        otpCode: "000000",
        publicKey: tek.publicKeyUncompressed,
        trustedKeys: [samples.targetBundle.attestationPublicKey],
      }),
    ) as { encappedPublic: string; ciphertext: string };
    const enc = Buffer.from(sealed.encappedPublic, "hex");
    const recipientKey = await suite.kem.importKey(
      "raw",
      new Uint8Array(Buffer.from(samples.otpBundle.targetPrivateKey, "hex")).buffer,
      false,
    );
    const plaintext = await suite.open(
      { recipientKey, enc: new Uint8Array(enc).buffer, info: new Uint8Array(info).buffer },
      new Uint8Array(Buffer.from(sealed.ciphertext, "hex")),
      new Uint8Array(Buffer.concat([enc, Buffer.from(samples.otpBundle.targetPublic, "hex")])),
    );
    expect(new TextDecoder().decode(plaintext)).toBe(
      `{"otp_code":"000000","public_key":"${tek.publicKeyUncompressed}"}`,
    );
  });

  it("node:crypto seals an OTP bundle → openOtpBundle opens it", async () => {
    const target = await api.generateDecryptionKey();
    const recipientPublicKey = Buffer.from(target.publicKeyUncompressed, "hex");
    const { enc, ciphertext } = nodeHpkeSeal({
      recipientPublicKey,
      plaintext: Buffer.from('{"otp_code":"999999","public_key":"04ab"}'),
      info,
      aad: (e) => Buffer.concat([e, recipientPublicKey]),
    });
    const encryptedOtpBundle = JSON.stringify({
      encappedPublic: enc.toString("hex"),
      ciphertext: ciphertext.toString("hex"),
    });
    await expect(openOtpBundle({ encryptedOtpBundle, key: target })).resolves.toEqual({
      otpCode: "999999",
      publicKey: "04ab",
    });
  });

  it("node:crypto seals a legacy session key → openSessionKeyBundle opens it", async () => {
    const key = await api.generateDecryptionKey();
    const recipientPublicKey = Buffer.from(key.publicKeyUncompressed, "hex");
    const scalar = Buffer.from(
      "67ee05fc3bdf4161bc70701c221d8d77180294cefcfcea64ba83c4d4c732fcb9",
      "hex",
    );
    const { enc, ciphertext } = nodeHpkeSeal({
      recipientPublicKey,
      plaintext: scalar,
      info,
      aad: (e) => Buffer.concat([e, recipientPublicKey]),
    });
    const compressed = Buffer.concat([Buffer.of(2 + (enc[64]! & 1)), enc.subarray(1, 33)]);
    const bundle = await base58CheckEncode(
      new Uint8Array(Buffer.concat([compressed, ciphertext])),
      backend.sha256,
    );
    expect(Buffer.from(await api.openSessionKeyBundle({ bundle, key })).equals(scalar)).toBe(true);
  });

  it("node:crypto seals an export bundle (unsigned, sandbox style) → openExportBundle opens it with a warning", async () => {
    const key = await api.generateDecryptionKey();
    const recipientPublicKey = Buffer.from(key.publicKeyUncompressed, "hex");
    const mnemonic =
      "abandon ability able about above absent absorb abstract absurd abuse access accident";
    const { enc, ciphertext } = nodeHpkeSeal({
      recipientPublicKey,
      plaintext: Buffer.from(mnemonic),
      info,
      aad: (e) => Buffer.concat([e, recipientPublicKey]),
    });
    const data = Buffer.from(
      JSON.stringify({
        encappedPublic: enc.toString("hex"),
        ciphertext: ciphertext.toString("hex"),
        organizationId: "org",
      }),
    ).toString("hex");
    const bundle = JSON.stringify({
      version: "v1.0.0",
      data,
      dataSignature: "",
      enclaveQuorumPublic: "",
    });
    await expect(api.openExportBundle({ bundle, key })).rejects.toMatchObject({
      code: "BUNDLE_SIGNATURE_INVALID",
    });
    const warnings: unknown[] = [];
    await expect(
      api.openExportBundle({
        bundle,
        key,
        organizationId: "org",
        allowUnsigned: true,
        onWarning: (w) => warnings.push(w),
      }),
    ).resolves.toBe(mnemonic);
    expect(warnings).toEqual([
      {
        code: "BUNDLE_UNSIGNED",
        bundle: "encryptedWalletCredentials",
        message: expect.any(String),
      },
    ]);
  });
});
