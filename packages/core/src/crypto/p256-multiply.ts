// SEC 1 §2.2.1 point arithmetic on P-256: scalar multiplication, for the one place the browser
// build needs d·G of a bare scalar: importing a legacy session key (or a test's) into WebCrypto,
// whose JWK needs the public point. Not noble (its P-256 would add 15 KiB the browser build has no
// room for) and not WebCrypto (Chromium imports neither a PKCS #8 key without its public key nor a
// JWK whose point does not match). The React Native build computes d·G on noble's arithmetic
// (./p256-comb.ts), the `node` entry with OpenSSL (./node.ts). Kept apart from ./p256.ts so the
// browser loads it on first use, in the rare chunk.
import { SignetError } from "../errors/errors.js";
import { type AffinePoint, bytesToBigInt, mod, N, P, pow } from "./p256.js";
import { GX, GY } from "./p256-base.js";

// Jacobian coordinates (X, Y, Z) ↔ affine (X/Z², Y/Z³); Z = 0 is infinity.
type Jacobian = [bigint, bigint, bigint];

function double([x, y, z]: Jacobian): Jacobian {
  if (z === 0n || y === 0n) return [0n, 1n, 0n];
  // dbl-2001-b (a = -3).
  const delta = mod(z * z);
  const gamma = mod(y * y);
  const beta = mod(x * gamma);
  const alpha = mod(3n * (x - delta) * (x + delta));
  const x3 = mod(alpha * alpha - 8n * beta);
  const z3 = mod((y + z) * (y + z) - gamma - delta);
  const y3 = mod(alpha * (4n * beta - x3) - 8n * gamma * gamma);
  return [x3, y3, z3];
}

function add(p: Jacobian, q: Jacobian): Jacobian {
  // Copies: the ladder overwrites its registers in place.
  if (p[2] === 0n) return [...q];
  if (q[2] === 0n) return [...p];
  const z1z1 = mod(p[2] * p[2]);
  const z2z2 = mod(q[2] * q[2]);
  const u1 = mod(p[0] * z2z2);
  const u2 = mod(q[0] * z1z1);
  const s1 = mod(p[1] * q[2] * z2z2);
  const s2 = mod(q[1] * p[2] * z1z1);
  if (u1 === u2) return s1 === s2 ? double(p) : [0n, 1n, 0n];
  const h = mod(u2 - u1);
  const r = mod(s2 - s1);
  const hh = mod(h * h);
  const hhh = mod(h * hh);
  const v = mod(u1 * hh);
  const x3 = mod(r * r - hhh - 2n * v);
  const y3 = mod(r * (v - x3) - s1 * hhh);
  const z3 = mod(p[2] * q[2] * h);
  return [x3, y3, z3];
}

/** Swaps `a` and `b` when `bit` is 1, with masks instead of a branch on the bit. */
function conditionalSwap(bit: bigint, a: Jacobian, b: Jacobian): void {
  const mask = -bit; // 0n or -1n (all ones)
  for (let i = 0; i < 3; i++) {
    const t = mask & ((a[i] as bigint) ^ (b[i] as bigint));
    a[i] = (a[i] as bigint) ^ t;
    b[i] = (b[i] as bigint) ^ t;
  }
}

/**
 * Scalar multiplication k·P with a Montgomery ladder whose sequence of operations does not depend
 * on k: k is first recoded to k + n or k + 2n (the same point), whichever has bit 256 set, so every
 * scalar runs the same 256 steps from P, none through the point at infinity; each step swaps by
 * mask, adds and doubles. BigInt arithmetic itself is not constant-time in any JS engine: this runs
 * only where a key is imported from a scalar (legacy keys, tests), never per signature.
 * @throws {SignetError} `KEY_INVALID` when k is not in [1, n).
 */
export function multiply(k: bigint, point: AffinePoint = { x: GX, y: GY }): AffinePoint {
  if (k <= 0n || k >= N) throw new SignetError("KEY_INVALID", "scalar out of range");
  const once = k + N;
  const recoded = once + N * (1n - (once >> 256n)); // bit 256 set, below 2^257
  const r0: Jacobian = [point.x, point.y, 1n];
  const r1: Jacobian = double(r0);
  for (let i = 255n; i >= 0n; i--) {
    const bit = (recoded >> i) & 1n;
    conditionalSwap(bit, r0, r1);
    const sum = add(r0, r1);
    const doubled = double(r0);
    r0.splice(0, 3, ...doubled);
    r1.splice(0, 3, ...sum);
    conditionalSwap(bit, r0, r1);
  }
  if (r0[2] === 0n) throw new SignetError("KEY_INVALID", "scalar multiplication gave infinity");
  const zInv = pow(r0[2], P - 2n);
  const zInv2 = mod(zInv * zInv);
  return { x: mod(r0[0] * zInv2), y: mod(r0[1] * zInv2 * zInv) };
}

/** The public point d·G of a 32-byte scalar (already checked with {@link parseScalar}). */
export function publicKeyFromScalar(scalar: Uint8Array): AffinePoint {
  return multiply(bytesToBigInt(scalar));
}
