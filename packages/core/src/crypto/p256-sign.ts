// FIPS 186-5 §6.4.1 (ECDSA signature generation, P-256 / SHA-256) with RFC 6979 §3.2 (deterministic
// k), for the noble backend: k·G on the comb of ./p256-comb.ts, everything else noble's (HMAC-DRBG,
// arithmetic mod n, the hash-to-field map of the inversion blind). The steps are noble's own
// `sign` (its k2sig) in the same order, so signatures are equal to noble's byte for byte
// (test/crypto/p256-comb.test.ts holds that); it exists only because noble offers no way to give
// its ECDSA another multiplication of G short of subclassing its frozen Point (docs/architecture.md
// "Curve arithmetic").
import { Field, getMinHashLength, mapHashToField } from "@noble/curves/abstract/modular.js";
import { createHmacDrbg } from "@noble/curves/utils.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToBigInt, N } from "./p256.js";
import type { RandomBytes } from "./random.js";

const Fn = Field(N);
/** Bytes of the inversion blind: noble's length for n (48), mapped into [1, n−1] with a negligible bias. */
export const BLIND_LENGTH = getMinHashLength(N);
const hmacSha256 = (key: Uint8Array, data: Uint8Array) => hmac(sha256, key, data);

/**
 * Signs `message` (hashed with SHA-256 here) with the secret scalar `d` (1 ≤ d < n, checked by the
 * caller), returning `r ‖ s` (64 bytes, IEEE P1363), `s` not normalised to low-S.
 *
 * `mulG` multiplies G by the secret nonce. `blind`, when given, masks the nonce inversion as noble
 * does (s = (b·k)⁻¹ · (b·m + b·d·r), b uniform in [1, n−1]: the inversion, whose time depends on its
 * input, only ever sees b·k); without one the inversion is Fermat's, k^(n−2), whose steps depend
 * on the public n alone. Either way the signature is the same.
 * @throws {RangeError} for a scalar out of range.
 */
export function signP256(
  message: Uint8Array,
  d: bigint,
  mulG: (k: bigint) => { x: bigint },
  blind: RandomBytes | null,
): Uint8Array {
  if (d <= 0n || d >= N) throw new RangeError("invalid scalar: out of range");
  // bits2int of a 256-bit hash for a 256-bit n is the hash itself, reduced mod n (RFC 6979 §2.3.2).
  const m = Fn.create(bytesToBigInt(sha256(message)));
  const seed = new Uint8Array(64);
  seed.set(Fn.toBytes(d));
  seed.set(Fn.toBytes(m), 32);
  const drbg = createHmacDrbg<Uint8Array>(32, Fn.BYTES, hmacSha256);
  return drbg(seed, (kBytes: Uint8Array): Uint8Array | undefined => {
    const k = bytesToBigInt(kBytes);
    if (k === 0n || k >= N) return undefined;
    const r = Fn.create(mulG(k).x);
    if (r === 0n) return undefined;
    let s: bigint;
    if (blind) {
      const b = bytesToBigInt(mapHashToField(blind(BLIND_LENGTH), N));
      s = Fn.mul(Fn.inv(Fn.mul(b, k)), Fn.add(Fn.mul(b, m), Fn.mul(Fn.mul(b, d), r)));
    } else {
      s = Fn.mul(Fn.pow(k, N - 2n), Fn.add(m, Fn.mul(r, d)));
    }
    if (s === 0n) return undefined;
    const signature = new Uint8Array(64);
    signature.set(Fn.toBytes(r));
    signature.set(Fn.toBytes(s), 32);
    return signature;
  });
}
