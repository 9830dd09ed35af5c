// The comb behind the noble backend's multiplications of G (src/crypto/p256-comb.ts) and the
// signing on it (src/crypto/p256-sign.ts) against noble's own P-256: the same points for edge and
// random scalars, the same RFC 6979 signatures (blinded or not) and public keys, the same refusals,
// and noble's Point left as noble made it.
import { randomBytes } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { describe, expect, it } from "vitest";
import { createNobleP256 } from "../../src/crypto/noble.js";
import { N } from "../../src/crypto/p256.js";
import { buildComb, canBlind, combMultiply } from "../../src/crypto/p256-comb.js";

const random = (length: number) => new Uint8Array(randomBytes(length));
const scalarOf = (bytes: Uint8Array) =>
  (BigInt(`0x${Buffer.from(bytes).toString("hex")}`) % (N - 1n)) + 1n;

describe("P-256 comb", () => {
  const comb = buildComb(p256.Point.BASE, p256.Point.ZERO);
  const { tables } = comb;

  it("holds 3 tables of 256 points, all offset by one Q, so none is the identity", () => {
    expect(tables.map((t) => t.length)).toEqual([256, 256, 256]);
    const Q = tables[0]![0]!;
    for (const table of tables) {
      expect(table[0]?.equals(Q)).toBe(true);
      for (const entry of table) expect(entry.is0()).toBe(false);
    }
    expect(tables[0]?.[1]?.subtract(Q).equals(p256.Point.BASE)).toBe(true);
    // The correction takes back what 16 steps of 3 offsets add.
    expect(
      Q.multiply(3n * 65_535n)
        .add(comb.correction)
        .is0(),
    ).toBe(true);
  });

  it("k·G equals noble's for edge and random scalars, whatever the blind", () => {
    const scalars = [1n, 2n, 3n, N - 1n, N - 2n, (N - 1n) / 2n, 1n << 255n, (1n << 128n) - 1n];
    for (let i = 0; i < 40; i++) scalars.push(scalarOf(random(48)));
    for (const k of scalars) {
      const expected = p256.Point.BASE.multiply(k);
      for (const blind of [
        random,
        () => new Uint8Array(16),
        () => new Uint8Array(16).fill(0xff),
        null,
      ])
        expect(combMultiply(comb, k, blind).equals(expected), `k=${k}`).toBe(true);
    }
  });

  it("blinds only with a source that answers a probe with the length asked, as noble does", () => {
    expect(canBlind(random, 16)).toBe(true);
    expect(canBlind(random, 48)).toBe(true);
    expect(canBlind(() => new Uint8Array(48), 16)).toBe(false);
    expect(
      canBlind(() => {
        throw new Error("no crypto.getRandomValues");
      }, 16),
    ).toBe(false);
  });

  it("refuses 0, n and non-bigints like noble, and a random source that returns garbage", () => {
    for (const k of [0n, N, N + 1n, -1n, 1 as unknown as bigint])
      expect(() => combMultiply(comb, k, random)).toThrow(RangeError);
    expect(() => combMultiply(comb, 5n, () => new Uint8Array(3))).toThrow();
  });

  it("the backend's P-256 is a plain noble Point: nothing subclassed or patched", () => {
    const curve = createNobleP256(random);
    const { Point } = curve.ecdsa;
    expect(Object.isFrozen(Point)).toBe(true);
    expect(Object.getPrototypeOf(Point.BASE)).toBe(Point.prototype);
    // A class of its own, not derived from another, whose G has noble's methods only.
    expect(Object.getPrototypeOf(Point)).toBe(Function.prototype);
    expect(Object.hasOwn(Point.BASE, "multiply")).toBe(false);
    const given = new Uint8Array(16).fill(0xff);
    createNobleP256(() => given).getPublicKey(p256.utils.randomSecretKey(), true);
    expect(given).toEqual(new Uint8Array(16).fill(0xff));
  });

  it("signs and derives keys exactly as noble's p256 (RFC 6979), blinded or not", () => {
    const noSource = () => {
      throw new Error("no crypto.getRandomValues");
    };
    for (const curve of [createNobleP256(random), createNobleP256(noSource)]) {
      for (let i = 0; i < 20; i++) {
        const secret = p256.utils.randomSecretKey();
        const message = random(1 + i * 13);
        expect(curve.getPublicKey(secret, false)).toEqual(p256.getPublicKey(secret, false));
        expect(curve.getPublicKey(secret, true)).toEqual(p256.getPublicKey(secret, true));
        const ours = curve.sign(message, secret);
        expect(ours).toEqual(p256.sign(message, secret, { lowS: false }));
        expect(p256.verify(ours, message, p256.getPublicKey(secret), { lowS: false })).toBe(true);
      }
    }
  });

  it("signs RFC 6979 A.2.5's P-256 / SHA-256 vectors", () => {
    // RFC 6979 A.2.5: private key x, messages "sample" and "test", signatures (r, s).
    const x = Buffer.from(
      "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
      "hex",
    );
    const vectors = [
      [
        "sample",
        "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716",
        "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
      ],
      [
        "test",
        "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367",
        "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083",
      ],
    ];
    const curve = createNobleP256(random);
    for (const [message, r, s] of vectors)
      expect(Buffer.from(curve.sign(new TextEncoder().encode(message), x)).toString("hex")).toBe(
        `${r}${s}`,
      );
    expect(Buffer.from(curve.getPublicKey(x, false)).toString("hex")).toBe(
      "0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
    );
  });

  it("refuses scalars out of range when signing", () => {
    const curve = createNobleP256(random);
    for (const secret of [new Uint8Array(32), Buffer.from(N.toString(16), "hex")])
      expect(() => curve.sign(random(8), secret)).toThrow(RangeError);
  });
});
