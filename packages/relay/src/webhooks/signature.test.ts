// X-Grid-Signature checks: DER (with and without the sign byte) and r‖s, SEC1 hex and SPKI PEM
// keys, and the malformed forms refused without throwing.
import { createPublicKey, generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  derToRaw,
  importWebhookKey,
  isP256Point,
  isWebhookKey,
  isWebhookKeyText,
  verifyWebhookSignature,
} from "./signature.js";

const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const pem = publicKey.export({ format: "pem", type: "spki" }).toString();
const jwk = createPublicKey(privateKey).export({ format: "jwk" });
const hex = `04${Buffer.from(jwk.x!, "base64url").toString("hex")}${Buffer.from(jwk.y!, "base64url").toString("hex")}`;
const body = new TextEncoder().encode('{"id":"Webhook:1"}') as Uint8Array<ArrayBuffer>;
const signed = (encoding: "der" | "ieee-p1363", bytes = body) =>
  sign("sha256", bytes, { key: privateKey, dsaEncoding: encoding });

describe("verifyWebhookSignature", () => {
  it("accepts DER and r‖s, in base64 or base64url, under a hex or PEM key", async () => {
    for (const text of [hex, pem]) {
      const key = await importWebhookKey(text);
      for (const encoding of ["der", "ieee-p1363"] as const) {
        const signature = signed(encoding);
        expect(await verifyWebhookSignature(key, signature.toString("base64"), body)).toBe(true);
        expect(await verifyWebhookSignature(key, signature.toString("base64url"), body)).toBe(true);
      }
    }
  });

  it("refuses another body, no header, and malformed signatures without throwing", async () => {
    const key = await importWebhookKey(hex);
    const other = new TextEncoder().encode("{}") as Uint8Array<ArrayBuffer>;
    expect(await verifyWebhookSignature(key, signed("der").toString("base64"), other)).toBe(false);
    for (const header of [
      null,
      "",
      "!!",
      "AAAA",
      "A".repeat(300),
      Buffer.alloc(63).toString("base64"),
    ])
      expect(await verifyWebhookSignature(key, header, body)).toBe(false);
  });
});

describe("derToRaw", () => {
  it("reads minimal DER, with the sign byte where the high bit is set", async () => {
    const key = await importWebhookKey(hex);
    let padded = 0;
    for (let i = 0; i < 24; i++) {
      const message = new TextEncoder().encode(`m${i}`) as Uint8Array<ArrayBuffer>;
      const der = Uint8Array.from(signed("der", message));
      if (der[3] === 33) padded++;
      const raw = derToRaw(der)!;
      expect(
        await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, raw, message),
      ).toBe(true);
    }
    // Half of all r values have the high bit set: 24 signatures all without it is 1 in 16 million.
    expect(padded).toBeGreaterThan(0);
  });

  it("refuses a wrong tag, a wrong length, a needless zero and trailing bytes", () => {
    const der = Uint8Array.from(signed("der"));
    expect(derToRaw(Uint8Array.from([0x31, ...der.subarray(1)]))).toBeUndefined();
    expect(derToRaw(Uint8Array.from([...der, 0]))).toBeUndefined();
    expect(derToRaw(Uint8Array.from([0x30, 6, 2, 1, 0, 2, 1, 1]))).toBeDefined();
    expect(derToRaw(Uint8Array.from([0x30, 7, 2, 2, 0, 1, 2, 1, 1]))).toBeUndefined();
    expect(derToRaw(Uint8Array.from([0x30, 6, 2, 1, 0x80, 2, 1, 1]))).toBeUndefined();
  });
});

describe("the key", () => {
  it("is read as SEC1 hex or an SPKI PEM, and refused otherwise", async () => {
    expect(isWebhookKeyText(hex)).toBe(true);
    expect(isWebhookKeyText(pem)).toBe(true);
    expect(isWebhookKeyText("04abc")).toBe(false);
    expect(isWebhookKeyText(42)).toBe(false);
    await expect(importWebhookKey(`04${"00".repeat(64)}`)).rejects.toThrow(TypeError);
  });
});

describe("the key's point", () => {
  const bytes = (text: string) => Uint8Array.from(Buffer.from(text, "hex"));
  const x = hex.slice(2, 66);
  const y = hex.slice(66);
  const compressed = `${(Number.parseInt(y.slice(-1), 16) & 1) === 1 ? "03" : "02"}${x}`;
  /** SPKI PEM around raw SEC1 bytes (a P-256 key's DER prefix), on the curve or not. */
  const spki = (sec1: string) => {
    const prefix =
      sec1.length === 130
        ? "3059301306072a8648ce3d020106082a8648ce3d030107034200"
        : "3039301306072a8648ce3d020106082a8648ce3d030107032200";
    const base64 = Buffer.from(prefix + sec1, "hex").toString("base64");
    return `-----BEGIN PUBLIC KEY-----\n${base64}\n-----END PUBLIC KEY-----`;
  };
  // x = 1: 1 − 3 + b has no square root modulo p, so no point has it (x = 5 has one).
  const offCurveX = `${"00".repeat(31)}01`;
  const onCurveX = `${"00".repeat(31)}05`;
  const p = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";

  it("accepts a real key in every form the receiver reads", () => {
    for (const text of [hex, compressed, pem, spki(hex.toLowerCase()), spki(compressed)])
      expect(isWebhookKey(text)).toBe(true);
    expect(isP256Point(bytes(`02${onCurveX}`))).toBe(true);
    expect(isP256Point(bytes(`03${onCurveX}`))).toBe(true);
  });

  it("refuses a point off the curve, a coordinate of p or more, and a key of another curve", () => {
    const yWrong = (BigInt(`0x${y}`) ^ 1n).toString(16).padStart(64, "0");
    for (const text of [
      `04${x}${yWrong}`,
      `02${offCurveX}`,
      `03${offCurveX}`,
      `02${p}`,
      `04${p}${y}`,
      `04${"00".repeat(64)}`,
      spki(`04${x}${yWrong}`),
      spki(`02${offCurveX}`),
      generateKeyPairSync("ec", { namedCurve: "secp256k1" })
        .publicKey.export({ format: "pem", type: "spki" })
        .toString(),
    ])
      expect(isWebhookKey(text)).toBe(false);
    expect(isP256Point(bytes(`05${x}`))).toBe(false);
    expect(isP256Point(bytes(x))).toBe(false);
  });
});
