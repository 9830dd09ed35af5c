// docs/protocol.md §4 (OTP verification token, ES256 JWT) and §6 (sandbox OIDC tokens).
import { createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { base64urlEncode, utf8 } from "./encoding.js";
import { decodeJwt, signJwtEs256 } from "./jwt.js";
import { generateKeyPair } from "./p256.js";

describe("signJwtEs256", () => {
  const key = generateKeyPair();
  it("makes a compact JWS that OpenSSL verifies as ES256 (raw r ‖ s)", () => {
    const token = signJwtEs256({ sub: "abc", iat: 1763780000 }, key, "emulator");
    const [h, p, s] = token.split(".") as [string, string, string];
    expect(decodeJwt(token)).toEqual({
      header: { alg: "ES256", typ: "JWT", kid: "emulator" },
      payload: { sub: "abc", iat: 1763780000 },
    });
    const signature = Buffer.from(s, "base64url");
    expect(signature.length).toBe(64);
    const pub = createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: Buffer.from(key.publicKeyUncompressed.subarray(1, 33)).toString("base64url"),
        y: Buffer.from(key.publicKeyUncompressed.subarray(33)).toString("base64url"),
      },
      format: "jwk",
    });
    expect(
      verify("sha256", utf8(`${h}.${p}`), { key: pub, dsaEncoding: "ieee-p1363" }, signature),
    ).toBe(true);
  });
  it("omits kid when not given", () => {
    expect(decodeJwt(signJwtEs256({}, key))?.header).toEqual({ alg: "ES256", typ: "JWT" });
  });
});

describe("decodeJwt", () => {
  const part = (o: unknown) => base64urlEncode(JSON.stringify(o));
  it("decodes a JWT-shaped token without checking the signature", () => {
    const token = `${part({ alg: "RS256" })}.${part({ iss: "https://accounts.google.com", nonce: "ab" })}.c2ln`;
    expect(decodeJwt(token)).toEqual({
      header: { alg: "RS256" },
      payload: { iss: "https://accounts.google.com", nonce: "ab" },
    });
  });
  it("returns null for anything not JWT-shaped", () => {
    for (const bad of [
      "",
      "a.b",
      `${part({})}.${part({})}`,
      `${part({})}.${part({})}.c2ln.x`,
      `${part([1])}.${part({})}.c2ln`,
      `${part({})}.${part("str")}.c2ln`,
      `${part({})}.${base64urlEncode("not json")}.c2ln`,
      `${part({})}.${part({})}.c2ln=`,
      `${part({})}=.${part({})}.c2ln`,
    ]) {
      expect(decodeJwt(bad), bad).toBeNull();
    }
  });
});
