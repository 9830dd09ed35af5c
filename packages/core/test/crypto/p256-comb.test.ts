// The comb behind the noble backend's multiplications of G (src/crypto/p256-comb.ts) against
// noble's own P-256: the same points for edge and random scalars, the same RFC 6979 signatures
// and public keys, and the same refusals.
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

  it("blinds only with a source that answers a probe with 16 bytes, as noble does", () => {
    expect(canBlind(random)).toBe(true);
    expect(canBlind(() => new Uint8Array(48))).toBe(false);
    expect(
      canBlind(() => {
        throw new Error("no crypto.getRandomValues");
      }),
    ).toBe(false);
  });

  it("refuses 0, n and non-bigints like noble, and a random source that returns garbage", () => {
    for (const k of [0n, N, N + 1n, -1n, 1 as unknown as bigint])
      expect(() => combMultiply(comb, k, random)).toThrow(RangeError);
    expect(() => combMultiply(comb, 5n, () => new Uint8Array(3))).toThrow();
  });

  it("the backend's curve multiplies G on the comb, and leaves the caller's random bytes alone", () => {
    const curve = createNobleP256(random);
    expect(curve.Point.BASE.multiply).not.toBe(p256.Point.BASE.multiply);
    expect(Object.isFrozen(curve.Point)).toBe(true);
    const given = new Uint8Array(16).fill(0xff);
    createNobleP256(() => given).getPublicKey(p256.utils.randomSecretKey());
    expect(given).toEqual(new Uint8Array(16).fill(0xff));
  });

  it("the backend's curve signs and derives keys exactly as noble's p256 (RFC 6979)", () => {
    const curve = createNobleP256(random);
    for (let i = 0; i < 20; i++) {
      const secret = p256.utils.randomSecretKey();
      const message = random(1 + i * 13);
      expect(curve.getPublicKey(secret, false)).toEqual(p256.getPublicKey(secret, false));
      const ours = curve.sign(message, secret, { lowS: false });
      expect(ours).toEqual(p256.sign(message, secret, { lowS: false }));
      expect(p256.verify(ours, message, p256.getPublicKey(secret), { lowS: false })).toBe(true);
    }
  });
});
