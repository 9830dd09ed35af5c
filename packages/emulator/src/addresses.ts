// Address checks for the crypto wallets an external account can name (the service's
// `*_WALLET` account types): Solana base58 of a 32-byte key, EVM chains `0x` + 40 hex, Tron
// base58check of `0x41` + 20 bytes (`T…`), Spark `spark…1`/`sprt…1` text.
import { createHash } from "node:crypto";

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Decodes base58 (Bitcoin alphabet); `undefined` for a character outside it. */
export function base58Decode(text: string): Uint8Array | undefined {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) return undefined;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  for (const char of text) {
    if (char !== "1") break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/** A Solana address: base58 text of a 32-byte public key (32 to 44 characters). */
export function isSolanaAddress(address: string): boolean {
  if (address.length < 32 || address.length > 44) return false;
  return base58Decode(address)?.length === 32;
}

/** An EVM address (Ethereum, Base, Polygon, Plasma): `0x` and 40 hex digits, any case. */
export function isEvmAddress(address: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(address);
}

/** A Tron address: base58check of `0x41` + 20 bytes, which always reads `T…` (34 characters). */
export function isTronAddress(address: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return false;
  const bytes = base58Decode(address);
  if (bytes?.length !== 25 || bytes[0] !== 0x41) return false;
  const payload = bytes.subarray(0, 21);
  const once = createHash("sha256").update(payload).digest();
  const twice = createHash("sha256").update(once).digest();
  return twice.subarray(0, 4).equals(Buffer.from(bytes.subarray(21)));
}

/**
 * A Spark address: a `spark…1`/`sprt…1` human-readable part and lowercase letters and digits (the
 * emulator's own funding addresses, `sprt1emu…`, are not bech32 proper and must pass too).
 */
export function isSparkAddress(address: string): boolean {
  return /^(spark|sprt)[a-z]*1[0-9a-z]{20,200}$/.test(address);
}
