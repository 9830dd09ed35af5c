// docs/protocol.md §4 (Stamp): Turnkey-made stamps from interop-samples.json, and fresh stamps.
import { describe, expect, it } from "vitest";
import { hex, type InteropSamples, loadVector } from "../../../test/src/vectors.js";
import { base64urlEncode, toHex, utf8 } from "./encoding.js";
import { generateKeyPair, keyPairFromPrivateKey, signDer } from "./p256.js";
import { STAMP_SCHEME, verifyStamp } from "./stamp.js";

const FILE = "interop-samples.json";
const { stamps } = loadVector<InteropSamples>(FILE);

function flipFirstBit(s: string): string {
  const bytes = utf8(s).slice();
  bytes[0]! ^= 0x01;
  return new TextDecoder().decode(bytes);
}

function stampJson(fields: Record<string, unknown>): string {
  return base64urlEncode(JSON.stringify(fields));
}

describe(`${FILE} stamps (Turnkey ApiKeyStamper)`, () => {
  it(`${FILE}: the sample key pair is the one named`, () => {
    const pair = keyPairFromPrivateKey(hex(stamps.privateKey));
    expect(toHex(pair.publicKeyCompressed)).toBe(stamps.publicKeyCompressed);
  });
  stamps.samples.forEach((sample, i) => {
    it(`${FILE} stamps.samples[${i}] verifies with the sample key (compressed or uncompressed in the list)`, () => {
      const check = verifyStamp(sample.stampHeaderValue, sample.payload, [
        stamps.publicKeyCompressed,
      ]);
      expect(check).toEqual({ ok: true, publicKey: stamps.publicKeyCompressed });
      const uncompressed = toHex(
        keyPairFromPrivateKey(hex(stamps.privateKey)).publicKeyUncompressed,
      );
      const other = toHex(generateKeyPair().publicKeyCompressed);
      expect(
        verifyStamp(sample.stampHeaderValue, sample.payload, [other, uncompressed.toUpperCase()])
          .ok,
      ).toBe(true);
    });
    it(`${FILE} stamps.samples[${i}] fails with a flipped payload bit`, () => {
      const check = verifyStamp(sample.stampHeaderValue, flipFirstBit(sample.payload), [
        stamps.publicKeyCompressed,
      ]);
      expect(check).toMatchObject({ ok: false, code: "WALLET_SIGNATURE_INVALID" });
    });
    it(`${FILE} stamps.samples[${i}] fails when only another key is allowed`, () => {
      const other = toHex(generateKeyPair().publicKeyCompressed);
      expect(verifyStamp(sample.stampHeaderValue, sample.payload, [other])).toMatchObject({
        ok: false,
        code: "WALLET_SIGNATURE_INVALID",
      });
      expect(verifyStamp(sample.stampHeaderValue, sample.payload, [])).toMatchObject({
        ok: false,
        code: "WALLET_SIGNATURE_INVALID",
      });
    });
    it(`${FILE} stamps.samples[${i}] is not re-serialised: trimmed payload fails`, () => {
      const trimmed =
        sample.payload.trim() === sample.payload ? `${sample.payload} ` : sample.payload.trim();
      expect(verifyStamp(sample.stampHeaderValue, trimmed, [stamps.publicKeyCompressed]).ok).toBe(
        false,
      );
    });
  });
});

describe("verifyStamp with fresh keys", () => {
  const key = generateKeyPair();
  const publicKey = toHex(key.publicKeyCompressed);
  const payload = '{"b":1,"a":"ü"}';
  const signature = toHex(signDer(key.privateKey, utf8(payload)));
  const good = stampJson({ publicKey, scheme: STAMP_SCHEME, signature });

  it("accepts a stamp made here, and uppercase hex on input", () => {
    expect(verifyStamp(good, payload, [publicKey])).toEqual({ ok: true, publicKey });
    const upper = stampJson({
      publicKey: publicKey.toUpperCase(),
      scheme: STAMP_SCHEME,
      signature: signature.toUpperCase(),
    });
    expect(verifyStamp(upper, payload, [toHex(key.publicKeyUncompressed)])).toEqual({
      ok: true,
      publicKey,
    });
  });

  it("any flipped bit of the payload fails", () => {
    const bytes = utf8(payload);
    for (let bit = 0; bit < bytes.length * 8; bit++) {
      const flipped = bytes.slice();
      flipped[bit >> 3]! ^= 1 << (bit & 7);
      const text = Buffer.from(flipped).toString("latin1");
      expect(verifyStamp(good, text, [publicKey]).ok, `bit ${bit}`).toBe(false);
    }
  });

  const malformedCases: [string, string][] = [
    ["empty", ""],
    ["not base64url", "@@@"],
    ["padded base64", `${base64urlEncode('{"a":1}')}=`],
    ["standard base64 alphabet", Buffer.from('{"publicKey":"??>"}').toString("base64")],
    ["not JSON", base64urlEncode("not json")],
    ["JSON array", base64urlEncode("[1,2]")],
    ["missing publicKey", stampJson({ scheme: STAMP_SCHEME, signature })],
    ["missing scheme", stampJson({ publicKey, signature })],
    ["missing signature", stampJson({ publicKey, scheme: STAMP_SCHEME })],
    [
      "wrong scheme",
      stampJson({ publicKey, scheme: "SIGNATURE_SCHEME_TK_API_ED25519", signature }),
    ],
    [
      "publicKey uncompressed",
      stampJson({ publicKey: toHex(key.publicKeyUncompressed), scheme: STAMP_SCHEME, signature }),
    ],
    [
      "publicKey off curve",
      stampJson({ publicKey: `02${"00".repeat(31)}01`, scheme: STAMP_SCHEME, signature }),
    ],
    [
      "publicKey not hex",
      stampJson({ publicKey: `02${"zz".repeat(32)}`, scheme: STAMP_SCHEME, signature }),
    ],
    ["signature not hex", stampJson({ publicKey, scheme: STAMP_SCHEME, signature: "xyz" })],
    [
      "signature raw r‖s, not DER",
      stampJson({ publicKey, scheme: STAMP_SCHEME, signature: "ab".repeat(64) }),
    ],
    [
      "signature with trailing byte",
      stampJson({ publicKey, scheme: STAMP_SCHEME, signature: `${signature}00` }),
    ],
    ["signature field is a number", stampJson({ publicKey, scheme: STAMP_SCHEME, signature: 1 })],
  ];
  for (const [name, value] of malformedCases) {
    it(`MALFORMED: ${name}`, () => {
      const check = verifyStamp(value, payload, [publicKey]);
      expect(check).toMatchObject({ ok: false, code: "WALLET_SIGNATURE_MALFORMED" });
    });
  }

  it("INVALID: another key's valid signature", () => {
    const other = generateKeyPair();
    const stamp = stampJson({
      publicKey: toHex(other.publicKeyCompressed),
      scheme: STAMP_SCHEME,
      signature: toHex(signDer(other.privateKey, utf8(payload))),
    });
    expect(verifyStamp(stamp, payload, [publicKey])).toMatchObject({
      code: "WALLET_SIGNATURE_INVALID",
    });
    // The stamp's own key does not vouch for itself: claiming `publicKey` with another's signature fails.
    const forged = stampJson({
      publicKey,
      scheme: STAMP_SCHEME,
      signature: toHex(signDer(other.privateKey, utf8(payload))),
    });
    expect(verifyStamp(forged, payload, [publicKey])).toMatchObject({
      code: "WALLET_SIGNATURE_INVALID",
    });
  });

  it("ignores invalid entries in the allowed list and never leaks the payload in a reason", () => {
    expect(verifyStamp(good, payload, ["nonsense", "", publicKey]).ok).toBe(true);
    const check = verifyStamp(good, "secret-otp-123456", [publicKey]);
    expect(check.ok).toBe(false);
    expect(JSON.stringify(check)).not.toContain("123456");
    expect(JSON.stringify(check)).not.toContain(signature);
  });
});
