// The variants of the curve section that are Signet's own code rather than a noble setting: the
// comb of packages/core/src/crypto/p256-comb.ts, as createNobleP256 (the React Native backend's
// P-256) runs it.
import { createNobleP256 } from "../../packages/core/src/crypto/noble.js";

/** What the section times: a public key and a signature (SHA-256, RFC 6979, no low-S). */
export type BenchCurve = {
  getPublicKey(secret: Uint8Array, compressed: boolean): Uint8Array;
  sign(message: Uint8Array, secret: Uint8Array): Uint8Array;
};

/** The curve of a variant of Signet's own, or `undefined` for noble's `wN` variants. */
export function curveVariant(
  variant: string,
  randomBytes: (length?: number) => Uint8Array,
): BenchCurve | undefined {
  return variant === "comb" ? createNobleP256(randomBytes) : undefined;
}
