// The React Native build of @signet/core in Hermes: bundled like an app bundles it (react-native
// condition, @react-native/babel-preset), run in hermes-engine-cli's `hermes`, and every output
// checked in Node with OpenSSL (node:crypto) and an HPKE open independent of core.
import { createECDH, createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import { openOtpBundleNode } from "../../test/src/nodeHpke.js";
import {
  assertStrictDer,
  compressNode,
  p256PublicKeyNode,
  verifyDerNode,
} from "../../test/src/nodeStamp.js";
import { interopSamples, legacySessionKeyBundle } from "../../test/src/vectors.js";
import {
  bundleForHermes,
  hermesScript,
  PRELUDE_PATH,
  parseHermesResult,
  randomHex,
  runHermes,
} from "./hermes/build.js";
import type { HermesInput } from "./hermes/input.js";

const samples = interopSamples();
const legacy = legacySessionKeyBundle();

const PAYLOADS = [
  ...samples.stamps.samples.map((s) => s.payload),
  '{"type":"EMBEDDED_WALLET_PAYMENT","amount":"12.50","memo":"Grüße aus Köln — 東京 🚀"}',
  "",
  "x".repeat(10_000),
  "line\r\nbreaks\u0000and NUL\u2028",
];

/** A target bundle for a key Node holds, unsigned as the sandbox and emulator send it. */
const unsignedTargetKey = createECDH("prime256v1");
unsignedTargetKey.generateKeys();
const unsignedTargetBundle = JSON.stringify({
  version: "v1.0.0",
  data: Buffer.from(
    JSON.stringify({
      targetPublic: unsignedTargetKey.getPublicKey("hex", "uncompressed"),
      organizationId: "org",
    }),
  ).toString("hex"),
  dataSignature: "",
  enclaveQuorumPublic: "",
});

/** The signed vector envelope with one hex digit of `data` changed. */
function tamper(envelopeText: string): string {
  const envelope = JSON.parse(envelopeText) as { data: string };
  const i = envelope.data.length - 20;
  const flipped = envelope.data[i] === "a" ? "b" : "a";
  return JSON.stringify({
    ...envelope,
    data: envelope.data.slice(0, i) + flipped + envelope.data.slice(i + 1),
  });
}

const input: HermesInput = {
  mode: "default",
  randomHex: randomHex(4096),
  injectedRandomHex: randomHex(4096),
  payloads: PAYLOADS,
  knownKey: { privateKey: samples.stamps.privateKey },
  signedTarget: {
    bundle: samples.targetBundle.otpEncryptionTargetBundle,
    tampered: tamper(samples.targetBundle.otpEncryptionTargetBundle),
    trustedKey: samples.targetBundle.attestationPublicKey,
  },
  unsignedTarget: { bundle: unsignedTargetBundle },
  otpCode: "000000",
  legacy: { bundle: legacy.bundle, recipientPrivateKey: legacy.recipientPrivateKey },
  exportBundle: {
    bundle: samples.exportBundleProduction.bundle,
    recipientPrivateKey: samples.exportBundleProduction.recipientPrivateKey,
    organizationId: samples.exportBundleProduction.organizationId,
  },
  nonceInput: "04ABCDEF-not-normalised ✓",
};

type Stamped = { publicKey: string; publicKeyUncompressed: string; stamps: string[] };
type Warning = { code: string; bundle: string };
type DefaultResult = {
  generated: Stamped;
  imported: Stamped & { fromBytesPublicKey: string };
  otp: {
    signed: { bundle: string; tek: string; warnings: Warning[] };
    unsigned: { bundle: string; tek: string; warnings: Warning[] };
  };
  legacy: { recipientPublicKey: string; sessionScalarHex: string };
  export: { recipientPublicKey: string; mnemonic: string };
  freshDecryptionKey: string;
  nonces: { clientPublicKey: string; nonce: string }[];
  rejections: Record<string, string>;
};
type InjectedResult = Stamped & {
  withoutGlobalCrypto: string;
  sealed: string;
  mnemonic: string;
  decryptionKey: string;
  randomBytesUsed: number;
};
type HermesResult<K extends "default" | "injected"> = {
  mode: K;
  engine: { hermes: boolean; bigint: boolean; globalCrypto: string };
  shims: { textEncoder: number; textDecoder: number; getRandomValues: number; randomBytes: number };
  console: { level: string; message: string }[];
  ms: number;
} & (K extends "default" ? { default: DefaultResult } : { injected: InjectedResult });

let withGlobal: HermesResult<"default">;
let withInjected: HermesResult<"injected">;
let result: DefaultResult;
let injected: InjectedResult;

beforeAll(async () => {
  const bundle = await bundleForHermes();
  const t0 = performance.now();
  const [a, b] = await Promise.all([
    runHermes(hermesScript(bundle, input), { timeoutMs: 45_000 }),
    runHermes(hermesScript(bundle, { ...input, mode: "injected", randomHex: "" }), {
      timeoutMs: 45_000,
    }),
  ]);
  withGlobal = parseHermesResult<HermesResult<"default">>(a);
  withInjected = parseHermesResult<HermesResult<"injected">>(b);
  result = withGlobal.default;
  injected = withInjected.injected;
  console.info(
    `hermes: bundle ${(bundle.code.length / 1024).toFixed(0)} KiB, esbuild ${bundle.esbuildMs.toFixed(0)} ms, ` +
      `babel ${bundle.babelMs.toFixed(0)} ms, two hermes runs ${(performance.now() - t0).toFixed(0)} ms ` +
      `(in-VM work ${withGlobal.ms} ms + ${withInjected.ms} ms); shims used: ${JSON.stringify(withGlobal.shims)}`,
  );
}, 90_000);

/** Checks a stamp's exact form (docs/protocol.md §4) and its signature with OpenSSL over the UTF-8 payload. */
function checkStamp(
  stamp: string,
  payload: string,
  key: Pick<Stamped, "publicKey" | "publicKeyUncompressed">,
) {
  expect(stamp).toMatch(/^[A-Za-z0-9_-]+$/);
  const json = Buffer.from(stamp, "base64url").toString("utf8");
  expect(Buffer.from(json, "utf8").toString("base64url")).toBe(stamp);
  const parsed = JSON.parse(json) as { publicKey: string; scheme: string; signature: string };
  expect(json).toBe(
    `{"publicKey":"${key.publicKey}","scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":"${parsed.signature}"}`,
  );
  expect(parsed.signature).toMatch(/^30([0-9a-f]{2})+$/);
  const der = Buffer.from(parsed.signature, "hex");
  assertStrictDer(der);
  const publicKey = p256PublicKeyNode(key.publicKeyUncompressed);
  const bytes = Buffer.from(payload, "utf8");
  expect(
    verifyDerNode(publicKey, bytes, der),
    `stamp of ${JSON.stringify(payload.slice(0, 40))}`,
  ).toBe(true);
  expect(verifyDerNode(publicKey, Buffer.concat([bytes, Buffer.of(0x20)]), der)).toBe(false);
}

function checkKeyPair(key: Pick<Stamped, "publicKey" | "publicKeyUncompressed">) {
  expect(key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
  expect(key.publicKeyUncompressed).toMatch(/^04[0-9a-f]{128}$/);
  expect(compressNode(key.publicKeyUncompressed)).toBe(key.publicKey);
}

const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const publicOf = (privateKey: string) => {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(privateKey, "hex"));
  return ecdh.getPublicKey("hex", "uncompressed");
};

describe("hermes: the react-native build of @signet/core", () => {
  it("ran in Hermes with BigInt, through @react-native/babel-preset, quietly", () => {
    expect(withGlobal).toMatchObject({
      mode: "default",
      engine: { hermes: true, bigint: true, globalCrypto: "object" },
    });
    expect(withInjected).toMatchObject({
      mode: "injected",
      engine: { hermes: true, bigint: true, globalCrypto: "undefined" },
    });
    expect(withGlobal.console).toEqual([]);
    expect(withInjected.console).toEqual([]);
  });

  it("generates a signing key whose stamps verify in OpenSSL, non-ASCII payloads included", () => {
    checkKeyPair(result.generated);
    expect(result.generated.stamps).toHaveLength(PAYLOADS.length);
    for (const [i, payload] of PAYLOADS.entries())
      checkStamp(result.generated.stamps[i]!, payload, result.generated);
  });

  it("imports the vector key (hex and bytes) and stamps with it", () => {
    expect(result.imported.publicKey).toBe(samples.stamps.publicKeyCompressed);
    expect(result.imported.fromBytesPublicKey).toBe(samples.stamps.publicKeyCompressed);
    expect(result.imported.publicKeyUncompressed).toBe(publicOf(samples.stamps.privateKey));
    for (const [i, payload] of PAYLOADS.entries())
      checkStamp(result.imported.stamps[i]!, payload, result.imported);
  });

  it("seals an OTP bundle to the signed vector target, opened by Node", () => {
    const { bundle, tek, warnings } = result.otp.signed;
    expect(warnings).toEqual([]);
    const parsed = JSON.parse(bundle) as Record<string, string>;
    expect(Object.keys(parsed)).toEqual(["encappedPublic", "ciphertext"]);
    expect(parsed.encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
    expect(openOtpBundleNode(bundle, samples.otpBundle.targetPrivateKey)).toBe(
      `{"otp_code":"000000","public_key":"${tek}"}`,
    );
    expect(tek).toBe(result.generated.publicKeyUncompressed);
  });

  it("seals to an unsigned target only with allowUnsigned, reporting it, with a fresh sender key", () => {
    const { bundle, warnings } = result.otp.unsigned;
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      code: "BUNDLE_UNSIGNED",
      bundle: "otpEncryptionTargetBundle",
    });
    // The TEK was passed compressed; the bundle carries it uncompressed (docs/protocol.md §4 decision).
    expect(openOtpBundleNode(bundle, unsignedTargetKey.getPrivateKey("hex"))).toBe(
      `{"otp_code":"000000","public_key":"${result.generated.publicKeyUncompressed}"}`,
    );
    const enc = (text: string) => (JSON.parse(text) as { encappedPublic: string }).encappedPublic;
    expect(new Set([enc(bundle), enc(result.otp.signed.bundle), enc(injected.sealed)]).size).toBe(
      3,
    );
  });

  it("opens the legacy session-key bundle to the vector scalar", () => {
    expect(result.legacy.recipientPublicKey).toBe(publicOf(legacy.recipientPrivateKey));
    expect(result.legacy.sessionScalarHex).toBe(legacy.expectedPlaintextHex);
  });

  it("opens the production export bundle (pinned signer, high-S) to the vector mnemonic", () => {
    expect(result.export.recipientPublicKey).toBe(
      publicOf(samples.exportBundleProduction.recipientPrivateKey),
    );
    expect(result.export.mnemonic).toBe(samples.exportBundleProduction.expectedMnemonic);
    expect(result.freshDecryptionKey).toMatch(/^04[0-9a-f]{128}$/);
  });

  it("computes OAuth nonces as SHA-256 of the exact string", () => {
    expect(result.nonces.map((n) => n.clientPublicKey)).toEqual([
      result.generated.publicKey,
      result.generated.publicKeyUncompressed,
      input.nonceInput,
    ]);
    for (const { clientPublicKey, nonce } of result.nonces)
      expect(nonce).toBe(sha256Hex(clientPublicKey));
  });

  it("rejects untrusted, tampered and unsigned bundles, wrong organizations and wrong keys with typed codes", () => {
    expect(result.rejections).toMatchObject({
      signedTargetUnpinned: "BUNDLE_SIGNER_UNTRUSTED",
      signedTargetTampered: "BUNDLE_SIGNATURE_INVALID",
    });
    expect(result.rejections.unsignedTargetRefused).toMatch(/^BUNDLE_/);
    expect(result.rejections.exportWrongOrganization).toMatch(/^BUNDLE_/);
    expect(result.rejections.exportWrongKey).toMatch(/^DECRYPTION_FAILED$/);
    expect(result.rejections.legacyWrongKey).toMatch(/^DECRYPTION_FAILED$/);
  });

  it("runs on an injected random source without any global crypto", () => {
    expect(injected.withoutGlobalCrypto).toBe("CRYPTO_UNAVAILABLE");
    checkKeyPair(injected);
    for (const [i, payload] of PAYLOADS.entries())
      checkStamp(injected.stamps[i]!, payload, injected);
    expect(openOtpBundleNode(injected.sealed, unsignedTargetKey.getPrivateKey("hex"))).toBe(
      `{"otp_code":"000000","public_key":"${injected.publicKeyUncompressed}"}`,
    );
    expect(injected.mnemonic).toBe(samples.exportBundleProduction.expectedMnemonic);
    expect(injected.decryptionKey).toMatch(/^04[0-9a-f]{128}$/);
    // Two signing/decryption scalars and one HPKE ephemeral key, from the injected source only.
    expect(injected.randomBytesUsed).toBeGreaterThanOrEqual(3 * 32);
  });

  it("took its randomness from crypto.getRandomValues, and needed no TextDecoder (React Native's Hermes has none)", () => {
    expect(withGlobal.shims.getRandomValues).toBeGreaterThan(0);
    expect(withGlobal.shims.randomBytes).toBeGreaterThanOrEqual(3 * 32);
    expect(withGlobal.shims.textDecoder).toBe(0);
    expect(withInjected.shims.textDecoder).toBe(0);
  });
});

describe("hermes: the Node-side checker and the prelude", () => {
  it("the prelude's TextEncoder/TextDecoder agree with Node's UTF-8, and its random pool runs out loudly", () => {
    const context: Record<string, unknown> = {
      __SIGNET_HERMES_INPUT__: { mode: "default", randomHex: "00ff10" },
    };
    context.globalThis = context;
    runInNewContext(readFileSync(PRELUDE_PATH, "utf8"), context);
    type Codec = { encode(text: string): Uint8Array; decode(bytes: Uint8Array): string };
    const encoder = new (context.TextEncoder as new () => Codec)();
    const decoder = new (context.TextDecoder as new () => Codec)();
    for (const text of [...PAYLOADS, "\u{10ffff}\u0080\u07ff\u0800\uffff"]) {
      const bytes = encoder.encode(text);
      expect(Buffer.from(bytes)).toEqual(Buffer.from(text, "utf8"));
      expect(decoder.decode(bytes)).toBe(text);
    }
    const { getRandomValues } = context.crypto as { getRandomValues(a: Uint8Array): Uint8Array };
    expect([...getRandomValues(new Uint8Array(3))]).toEqual([0x00, 0xff, 0x10]);
    expect(() => getRandomValues(new Uint8Array(1))).toThrow(/ran out/);
  });

  it("opens the interop encryptedOtpBundle vector (made by Turnkey's hpkeEncrypt)", () => {
    expect(
      openOtpBundleNode(samples.otpBundle.encryptedOtpBundle, samples.otpBundle.targetPrivateKey),
    ).toBe(samples.otpBundle.expectedPlaintext);
  });

  it("accepts short strict DER signatures and rejects non-minimal or negative integers", () => {
    expect(() => assertStrictDer(Buffer.from("3006020101020101", "hex"))).not.toThrow();
    expect(() => assertStrictDer(Buffer.from("30080202008102020081", "hex"))).not.toThrow();
    expect(() => assertStrictDer(Buffer.from("300702020001020101", "hex"))).toThrow(/not minimal/);
    expect(() => assertStrictDer(Buffer.from("3006020181020101", "hex"))).toThrow(/negative/);
    expect(() => assertStrictDer(Buffer.from("300702010102010100", "hex"))).toThrow(/trailing/);
    expect(() => assertStrictDer(Buffer.from("3007020101020101", "hex"))).toThrow(/SEQUENCE/);
  });

  it("rejects a flipped ciphertext bit", () => {
    const parsed = JSON.parse(samples.otpBundle.encryptedOtpBundle) as { ciphertext: string };
    const last = parsed.ciphertext.at(-1) === "0" ? "1" : "0";
    const flipped = JSON.stringify({
      ...parsed,
      ciphertext: parsed.ciphertext.slice(0, -1) + last,
    });
    expect(() => openOtpBundleNode(flipped, samples.otpBundle.targetPrivateKey)).toThrow();
  });
});
