// docs/protocol.md §4 (export: the plaintext is a BIP-39 mnemonic); BIP-39 entropy → words with SHA-256 checksum.
import { randomBytes } from "node:crypto";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { sha256 } from "./encoding.js";

/**
 * A BIP-39 English mnemonic with a correct checksum: 12 words from 16 bytes of entropy (random
 * by default; deterministic when `entropy` is given; 16, 20, 24, 28 or 32 bytes give 12–24 words).
 * @throws Error when `entropy` has another length.
 * @example generateMnemonic(new Uint8Array(16)) // "abandon abandon … about"
 */
export function generateMnemonic(entropy: Uint8Array = new Uint8Array(randomBytes(16))): string {
  if (entropy.length < 16 || entropy.length > 32 || entropy.length % 4 !== 0) {
    throw new Error(`"entropy" expected 16, 20, 24, 28 or 32 bytes, got ${entropy.length}`);
  }
  const checksumBits = entropy.length / 4;
  const checksum = BigInt(sha256(entropy)[0]! >> (8 - checksumBits));
  let bits = 0n;
  for (const byte of entropy) bits = (bits << 8n) | BigInt(byte);
  bits = (bits << BigInt(checksumBits)) | checksum;
  const count = ((entropy.length * 8 + checksumBits) / 11) | 0;
  const words: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    words.push(wordlist[Number((bits >> BigInt(i * 11)) & 0x7ffn)]!);
  }
  return words.join(" ");
}
