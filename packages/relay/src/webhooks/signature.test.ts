// X-Grid-Signature checks: DER (with and without the sign byte) and r‖s, SEC1 hex and SPKI PEM
// keys, and the malformed forms refused without throwing.
import { createPublicKey, generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  derToRaw,
  importWebhookKey,
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
