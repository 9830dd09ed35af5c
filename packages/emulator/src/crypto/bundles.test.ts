// docs/protocol.md §4 (target bundle, encryptedOtpBundle, export bundle): interop samples and round trips.
import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { describe, expect, it } from "vitest";
import { hex, type InteropSamples, loadVector } from "../../../test/src/vectors.js";
import { makeExportBundle, makeTargetBundle, openOtpBundle } from "./bundles.js";
import { concatBytes, fromHex, toHex, utf8 } from "./encoding.js";
import { hpkeOpen, hpkeSeal, TURNKEY_HPKE_INFO } from "./hpke.js";
import { generateMnemonic } from "./mnemonic.js";
import { generateKeyPair, keyPairFromPrivateKey, type P256KeyPair, verifyDer } from "./p256.js";

type Envelope = {
  version: string;
  data: string;
  dataSignature: string;
  enclaveQuorumPublic: string;
};
type ExportData = { encappedPublic: string; ciphertext: string; organizationId: string };

const FILE = "interop-samples.json";
const v = loadVector<InteropSamples>(FILE);
const decodeData = <T>(e: Envelope): T =>
  JSON.parse(Buffer.from(e.data, "hex").toString("utf8")) as T;

// The client side of an export, written here with hpkeOpen as the service's format requires.
function openExport(
  bundle: string,
  recipient: P256KeyPair,
): { data: ExportData; mnemonic: string } {
  const envelope = JSON.parse(bundle) as Envelope;
  const data = decodeData<ExportData>(envelope);
  const enc = hex(data.encappedPublic);
  const plaintext = hpkeOpen({
    enc,
    ciphertext: hex(data.ciphertext),
    recipient,
    info: TURNKEY_HPKE_INFO,
    aad: concatBytes(enc, recipient.publicKeyUncompressed),
  });
  return { data, mnemonic: new TextDecoder().decode(plaintext) };
}

function sealOtp(target: Uint8Array, plaintext: string): string {
  const ephemeral = generateKeyPair();
  const { enc, ciphertext } = hpkeSeal({
    plaintext: utf8(plaintext),
    recipientPublicKey: target,
    info: TURNKEY_HPKE_INFO,
    aad: concatBytes(ephemeral.publicKeyUncompressed, target),
    ephemeral,
  });
  return JSON.stringify({ encappedPublic: toHex(enc), ciphertext: toHex(ciphertext) });
}

describe(`${FILE} otpBundle (sealed by Turnkey hpkeEncrypt)`, () => {
  const target = keyPairFromPrivateKey(hex(v.otpBundle.targetPrivateKey));
  const expected = JSON.parse(v.otpBundle.expectedPlaintext) as {
    otp_code: string;
    public_key: string;
  };

  it(`${FILE} otpBundle: opens with the target key to the code and TEK public key`, () => {
    expect(toHex(target.publicKeyUncompressed)).toBe(v.otpBundle.targetPublic);
    expect(openOtpBundle(v.otpBundle.encryptedOtpBundle, target)).toEqual({
      ok: true,
      otpCode: expected.otp_code,
      publicKey: expected.public_key,
    });
    // The TEK key in the plaintext is the sample's TEK.
    const tek = keyPairFromPrivateKey(hex(v.otpBundle.tekPrivateKey));
    expect(toHex(tek.publicKeyUncompressed)).toBe(expected.public_key);
  });

  it(`${FILE} otpBundle: another target key, a flipped ciphertext bit or bad JSON fail without leaking`, () => {
    const results = [
      openOtpBundle(v.otpBundle.encryptedOtpBundle, generateKeyPair()),
      (() => {
        const b = JSON.parse(v.otpBundle.encryptedOtpBundle) as {
          encappedPublic: string;
          ciphertext: string;
        };
        const ct = hex(b.ciphertext);
        ct[5]! ^= 0x10;
        return openOtpBundle(JSON.stringify({ ...b, ciphertext: toHex(ct) }), target);
      })(),
      openOtpBundle("not json", target),
      openOtpBundle(JSON.stringify({ encappedPublic: "04", ciphertext: "00" }), target),
      openOtpBundle(
        JSON.stringify({
          encappedPublic: toHex(generateKeyPair().publicKeyUncompressed),
          ciphertext: "zz",
        }),
        target,
      ),
      // Double-encoded (a JSON string holding the JSON text) is not the wire format.
      openOtpBundle(JSON.stringify(v.otpBundle.encryptedOtpBundle), target),
    ];
    for (const r of results) {
      expect(r.ok).toBe(false);
      expect(JSON.stringify(r)).not.toContain(expected.otp_code);
    }
  });

  it("round trip: a bundle sealed here opens; bad plaintexts are refused", () => {
    const tek = generateKeyPair();
    const good = sealOtp(
      target.publicKeyUncompressed,
      JSON.stringify({ otp_code: "123456", public_key: toHex(tek.publicKeyUncompressed) }),
    );
    expect(openOtpBundle(good, target)).toEqual({
      ok: true,
      otpCode: "123456",
      publicKey: toHex(tek.publicKeyUncompressed),
    });
    for (const bad of [
      "not json",
      JSON.stringify({ public_key: toHex(tek.publicKeyUncompressed) }),
      JSON.stringify({ otp_code: "123456" }),
      JSON.stringify({ otp_code: "123456", public_key: `04${"00".repeat(64)}` }),
    ]) {
      const r = openOtpBundle(sealOtp(target.publicKeyUncompressed, bad), target);
      expect(r.ok).toBe(false);
      expect(JSON.stringify(r)).not.toContain("123456");
    }
  });
});

describe(`${FILE} targetBundle (signed envelope)`, () => {
  const envelope = JSON.parse(v.targetBundle.otpEncryptionTargetBundle) as Envelope;

  it(`${FILE} targetBundle: dataSignature verifies over the hex-decoded data against enclaveQuorumPublic`, () => {
    expect(envelope.version).toBe("v1.0.0");
    expect(envelope.enclaveQuorumPublic).toBe(v.targetBundle.attestationPublicKey);
    expect(
      verifyDer(hex(envelope.enclaveQuorumPublic), hex(envelope.data), hex(envelope.dataSignature)),
    ).toBe(true);
    // Over the hex text instead, it must not verify.
    expect(
      verifyDer(
        hex(envelope.enclaveQuorumPublic),
        utf8(envelope.data),
        hex(envelope.dataSignature),
      ),
    ).toBe(false);
    expect(decodeData<{ targetPublic: string }>(envelope).targetPublic).toBe(
      v.otpBundle.targetPublic,
    );
  });

  it(`${FILE} pinnedKeys: the TLS fetcher key is the pinned value (046b4f88…d201) and a valid point`, () => {
    const pinned = v.pinnedKeys.PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY!;
    expect(pinned.startsWith("046b4f88")).toBe(true);
    expect(pinned.endsWith("d201")).toBe(true);
    expect(pinned).toHaveLength(130);
    expect(fromHex(pinned)).not.toBeNull();
    // The sample envelope is signed by a test key standing in for the pinned key (vectors README),
    // so neither its enclaveQuorumPublic nor its signature match the pin.
    expect(envelope.enclaveQuorumPublic).not.toBe(pinned);
    expect(verifyDer(hex(pinned), hex(envelope.data), hex(envelope.dataSignature))).toBe(false);
  });

  it("makeTargetBundle matches the sample's shape and verifies the same way", () => {
    const attestationKey = generateKeyPair({ seed: "test", label: "attestation" });
    const target = keyPairFromPrivateKey(hex(v.otpBundle.targetPrivateKey));
    const made = makeTargetBundle({ targetPublic: target.publicKeyCompressed, attestationKey });
    const parsed = JSON.parse(made) as Envelope;
    expect(Object.keys(parsed)).toEqual(Object.keys(envelope));
    // Same target key, same data bytes as the Turnkey-made envelope.
    expect(parsed.data).toBe(envelope.data);
    expect(parsed.enclaveQuorumPublic).toBe(toHex(attestationKey.publicKeyUncompressed));
    expect(
      verifyDer(attestationKey.publicKeyUncompressed, hex(parsed.data), hex(parsed.dataSignature)),
    ).toBe(true);
    expect(() => makeTargetBundle({ targetPublic: new Uint8Array(65), attestationKey })).toThrow(
      '"targetPublic" is not a valid P-256 point',
    );
  });
});

describe(`${FILE} exportBundleProduction (real production bundle)`, () => {
  const e = v.exportBundleProduction;
  const recipient = keyPairFromPrivateKey(hex(e.recipientPrivateKey));
  const envelope = JSON.parse(e.bundle) as Envelope;

  it(`${FILE} exportBundleProduction: opens to the mnemonic with the recipient key`, () => {
    const { data, mnemonic } = openExport(e.bundle, recipient);
    expect(mnemonic).toBe(e.expectedMnemonic);
    expect(data.organizationId).toBe(e.organizationId);
    expect(validateMnemonic(mnemonic, wordlist)).toBe(true);
  });

  it(`${FILE} exportBundleProduction: its high-S signature verifies against the pinned signer key`, () => {
    const pinned = v.pinnedKeys.PRODUCTION_SIGNER_SIGN_PUBLIC_KEY!;
    expect(e.signerPublicKey).toBe(pinned);
    expect(envelope.enclaveQuorumPublic).toBe(pinned);
    expect(verifyDer(hex(pinned), hex(envelope.data), hex(envelope.dataSignature))).toBe(true);
    const other = v.pinnedKeys.PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY!;
    expect(verifyDer(hex(other), hex(envelope.data), hex(envelope.dataSignature))).toBe(false);
  });

  it("makeExportBundle (signed) has the production shape and round-trips", () => {
    const signer = generateKeyPair({ seed: "test", label: "signer" });
    const mnemonic = generateMnemonic();
    const bundle = makeExportBundle({
      mnemonic,
      recipientPublicKey: recipient.publicKeyUncompressed,
      organizationId: e.organizationId,
      signer,
    });
    const parsed = JSON.parse(bundle) as Envelope;
    expect(Object.keys(parsed)).toEqual(Object.keys(envelope));
    expect(Object.keys(decodeData<ExportData>(parsed))).toEqual(
      Object.keys(decodeData<ExportData>(envelope)),
    );
    expect(parsed.enclaveQuorumPublic).toBe(toHex(signer.publicKeyUncompressed));
    expect(
      verifyDer(signer.publicKeyUncompressed, hex(parsed.data), hex(parsed.dataSignature)),
    ).toBe(true);
    const opened = openExport(bundle, recipient);
    expect(opened.mnemonic).toBe(mnemonic);
    expect(opened.data.organizationId).toBe(e.organizationId);
    expect(opened.data.encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
  });

  it("makeExportBundle (sandbox style, signer null) leaves signature and key empty", () => {
    const bundle = makeExportBundle({
      mnemonic: e.expectedMnemonic,
      recipientPublicKey: recipient.publicKeyCompressed,
      organizationId: "org",
      signer: null,
    });
    const parsed = JSON.parse(bundle) as Envelope;
    expect(parsed.dataSignature).toBe("");
    expect(parsed.enclaveQuorumPublic).toBe("");
    expect(openExport(bundle, recipient).mnemonic).toBe(e.expectedMnemonic);
    expect(() => openExport(bundle, generateKeyPair())).toThrow("HPKE decryption failed");
  });
});
