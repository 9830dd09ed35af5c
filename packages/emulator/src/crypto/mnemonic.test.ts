// docs/protocol.md §4 (export plaintext, a BIP-39 mnemonic), checked with @scure/bip39 and BIP-39 vectors.
import { entropyToMnemonic, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { describe, expect, it } from "vitest";
import { hex } from "../../../test/src/vectors.js";
import { generateMnemonic } from "./mnemonic.js";

describe("generateMnemonic", () => {
  it("matches the BIP-39 reference vectors (trezor/python-mnemonic) for 12 and 24 words", () => {
    expect(generateMnemonic(new Uint8Array(16))).toBe(
      "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
    );
    expect(generateMnemonic(hex("7f".repeat(16)))).toBe(
      "legal winner thank year wave sausage worth useful legal winner thank yellow",
    );
    expect(generateMnemonic(hex("ff".repeat(16)))).toBe(
      "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong",
    );
    expect(generateMnemonic(hex("ff".repeat(32)))).toBe(`${"zoo ".repeat(23)}vote`);
  });
  it("random mnemonics are 12 words with a valid checksum and differ", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const m = generateMnemonic();
      expect(m.split(" ")).toHaveLength(12);
      expect(validateMnemonic(m, wordlist)).toBe(true);
      seen.add(m);
    }
    expect(seen.size).toBe(200);
  });
  it("deterministic for given entropy, and equal to @scure/bip39's encoding for every length", () => {
    for (const length of [16, 20, 24, 28, 32]) {
      for (let i = 0; i < 20; i++) {
        const entropy = Uint8Array.from({ length }, (_, j) => (j * 31 + i * 17 + length) & 0xff);
        const m = generateMnemonic(entropy);
        expect(m).toBe(generateMnemonic(entropy));
        expect(m).toBe(entropyToMnemonic(entropy, wordlist));
        expect(validateMnemonic(m, wordlist)).toBe(true);
      }
    }
  });
  it("refuses other entropy lengths", () => {
    for (const n of [0, 15, 17, 33])
      expect(() => generateMnemonic(new Uint8Array(n))).toThrow('"entropy"');
  });
});
