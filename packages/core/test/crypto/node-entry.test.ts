// The `node` export condition: the default entry's API, with keys that sign through Node's own
// crypto (KeyObject). Its stamps verify with OpenSSL like every other, and its records are the
// default entry's (WebCrypto CryptoKeys), so key stores are shared.
import { verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as browser from "../../src/index.js";
import * as node from "../../src/index.node.js";

const STAMP_PAYLOAD = '{"requestId":"Request:1","type":"EXECUTE_QUOTE","amount":1}';

describe("the node entry", () => {
  it("exports the default entry's API, plus createNodeCryptoBackend", () => {
    expect(Object.keys(node).sort()).toEqual(
      [...Object.keys(browser), "createNodeCryptoBackend"].sort(),
    );
  });

  it("signs through a KeyObject: stamps verify with OpenSSL, and the record is a CryptoKey", async () => {
    const key = await node.generateSigningKey();
    expect(key.toRecord()).toMatchObject({ type: "webcrypto", publicKey: key.publicKey });
    for (let i = 0; i < 20; i++) {
      const stamp = JSON.parse(
        Buffer.from(await node.stampPayload(`${STAMP_PAYLOAD}${i}`, key), "base64url").toString(),
      );
      expect(stamp.publicKey).toBe(key.publicKey);
      const ok = verify(
        "sha256",
        Buffer.from(`${STAMP_PAYLOAD}${i}`),
        {
          key: await spki(key.publicKeyUncompressed),
          format: "der",
          type: "spki",
          dsaEncoding: "der",
        },
        Buffer.from(stamp.signature, "hex"),
      );
      expect(ok).toBe(true);
    }
    // A record stored by either entry restores in the other.
    const restored = await browser.restoreSigningKey(key.toRecord());
    expect(restored.publicKey).toBe(key.publicKey);
    const back = await node.restoreSigningKey((await browser.generateSigningKey()).toRecord());
    expect(back.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
  });
});

/** The SPKI DER of an uncompressed P-256 public key. */
function spki(uncompressedHex: string): Buffer {
  const prefix = "3059301306072a8648ce3d020106082a8648ce3d030107034200";
  return Buffer.from(prefix + uncompressedHex, "hex");
}
