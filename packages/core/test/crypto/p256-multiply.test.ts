// d·G of an imported scalar, as each build computes it for WebCrypto's JWK: the browser's ladder
// (src/crypto/p256-multiply.ts, which takes the same steps for every scalar) and the `node`
// entry's OpenSSL, against noble for edge and random scalars, and the keys they import.
import { randomBytes } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { describe, expect, it } from "vitest";
import { createNodeCryptoBackend } from "../../src/crypto/node.js";
import { bigIntToBytes32, N } from "../../src/crypto/p256.js";
import { multiply } from "../../src/crypto/p256-multiply.js";
import { createWebCryptoBackend } from "../../src/crypto/webcrypto.js";

// Scalars whose recoding (k + n or k + 2n) sits at its edges, and random ones.
const scalars = [
  1n,
  2n,
  3n,
  N - 1n,
  N - 2n,
  N - 3n,
  (1n << 256n) - N - 1n,
  (1n << 256n) - N,
  (1n << 256n) - N + 1n,
  1n << 255n,
  (N - 1n) / 2n,
];
for (let i = 0; i < 40; i++)
  scalars.push((BigInt(`0x${randomBytes(40).toString("hex")}`) % (N - 1n)) + 1n);

describe("d·G for an imported scalar", () => {
  it("the ladder gives noble's point, for G and for another point", () => {
    const other = p256.Point.BASE.multiply(0x5167n).toAffine();
    for (const k of scalars) {
      const expected = p256.Point.BASE.multiply(k).toAffine();
      expect(multiply(k), `k=${k}`).toEqual({ x: expected.x, y: expected.y });
      const onOther = p256.Point.fromAffine(other).multiply(k).toAffine();
      expect(multiply(k, other), `k=${k}`).toEqual({ x: onOther.x, y: onOther.y });
    }
  });

  it("refuses 0 and n with KEY_INVALID", () => {
    for (const k of [0n, N, N + 1n]) expect(() => multiply(k)).toThrow(/scalar out of range/);
  });

  it("the browser and node backends import scalars to noble's public keys", async () => {
    for (const backend of [createWebCryptoBackend(), createNodeCryptoBackend()]) {
      for (const k of scalars.slice(0, 12)) {
        const scalar = bigIntToBytes32(k);
        const key = await backend.importSigningKey(scalar);
        expect(key.publicKeyUncompressed, `${backend.name} k=${k}`).toBe(
          Buffer.from(p256.getPublicKey(scalar, false)).toString("hex"),
        );
        const decryption = await backend.importDecryptionKey(scalar);
        expect(decryption.publicKeyUncompressed).toBe(key.publicKeyUncompressed);
      }
    }
  });
});
