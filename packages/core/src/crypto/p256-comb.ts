// Fixed-base scalar multiplication k·G on P-256 for the noble backend: a Lim–Lee comb (Lim and
// Lee, "More Flexible Exponentiation with Precomputation", CRYPTO '94) over noble's point
// arithmetic, with the scalar blinded as noble blinds it (k + b·n, b a random 128-bit factor).
//
// Why not noble's own table for G (`Point.BASE.precompute(W)`): in Hermes the comb's 768 points
// build faster than any noble window with as fast a multiplication, and multiply faster than
// noble's default (W = 6, 2,080 points): three 8-tooth combs take 48 additions and 15 doublings,
// noble's W = 6 windows 65 additions. bench/src/hermes-curve.ts measures both in one run
// (BENCHMARKS.md, docs/architecture.md "Curve arithmetic"). It takes noble's points as they are:
// nothing here subclasses or patches noble.
import type { WeierstrassPoint } from "@noble/curves/abstract/weierstrass.js";
import { N } from "./p256.js";
import type { RandomBytes } from "./random.js";

type Point = WeierstrassPoint<bigint>;

const TEETH = 8; // bits read per addition: tables of 2^8 points
const COMBS = 3;
/** Bytes of the scalar blind: a 128-bit factor, as noble's. */
export const COMB_BLIND_BYTES = 16;
const BLIND_BYTES = COMB_BLIND_BYTES;
const BITS = 256 + 8 * BLIND_BYTES; // blinded scalars are below 2^384
const COLUMNS = BITS / TEETH; // 48
const SPAN = COLUMNS / COMBS; // 16 doubling steps (one is skipped)
/** The precomputed comb for G. */
export type Comb = {
  /** `tables[k][m]` = Q + Σ over the set bits r of m of 2^(r·COLUMNS + k·SPAN)·G. */
  tables: Point[][];
  /** −(2^SPAN − 1)·COMBS·Q: what the offsets add up to over one multiplication, negated. */
  correction: Point;
  ZERO: Point;
};

/** Builds the comb tables for G (768 points, one addition each). */
export function buildComb(G: Point, ZERO: Point): Comb {
  // bases[i] = 2^(i·SPAN)·G; tooth r of comb k is bases[r·COMBS + k].
  const bases: Point[] = [G];
  for (let i = 1; i < TEETH * COMBS; i++) {
    let p = bases[i - 1] as Point;
    for (let j = 0; j < SPAN; j++) p = p.double();
    bases.push(p);
  }
  // The offset of every entry, so that none is the identity (an all-zero column would otherwise
  // add the identity, which costs less than a real addition and would show in the timing). Any
  // fixed point does whose negation no comb entry reaches: −2G would need 2^256 − … − 2 as a sum
  // of at most 8 of the comb's powers of two. 2G costs one doubling (multiplying G here would
  // build noble's own table for it, which the comb exists to avoid).
  const Q = G.double();
  const tables: Point[][] = [];
  for (let k = 0; k < COMBS; k++) {
    const table: Point[] = [Q];
    for (let m = 1; m < 1 << TEETH; m++) {
      const top = 31 - Math.clz32(m);
      const entry = (table[m ^ (1 << top)] as Point).add(bases[top * COMBS + k] as Point);
      if (entry.is0()) throw new Error("comb offset collides with a table entry");
      table.push(entry);
    }
    tables.push(table);
  }
  // Public values only: a variable-time multiplication of a point without a table is fine here.
  const correction = Q.multiplyUnsafe(BigInt(COMBS * (2 ** SPAN - 1))).negate();
  return { tables, correction, ZERO };
}

/** The bits of `n` (< 2^BITS), least significant first. */
function bitsOf(n: bigint): Uint8Array {
  const hex = n.toString(16).padStart(BITS / 4, "0");
  const bits = new Uint8Array(BITS);
  for (let i = 0; i < BITS / 4; i++) {
    const nibble = parseInt(hex[BITS / 4 - 1 - i] as string, 16);
    for (let b = 0; b < 4; b++) bits[4 * i + b] = (nibble >> b) & 1;
  }
  return bits;
}

/**
 * Whether `randomBytes` can give blinds of `length` bytes: probed once, as noble probes its source
 * when a curve is made. Without one (no secure random source here, or one that answers with
 * another length), multiplications and inversions run unblinded, on the same fixed sequence of
 * operations, as noble's do; keys and signatures stay exactly the same (RFC 6979 needs no
 * randomness).
 */
export function canBlind(randomBytes: RandomBytes, length: number): boolean {
  try {
    const probe = randomBytes(length);
    return probe instanceof Uint8Array && probe.length === length;
  } catch {
    return false;
  }
}

/**
 * k·G for a secret 1 ≤ k < n, not yet normalized. The scalar is blinded with a fresh random factor
 * (when `randomBytes` is given: see {@link canBlind}); every step adds one table entry, never
 * the identity, and reads the whole table to pick it, so the sequence and the kind of point
 * operations do not depend on k.
 * @throws {RangeError} when k is out of range, as noble's `multiply` does.
 */
export function combMultiply(comb: Comb, k: bigint, randomBytes: RandomBytes | null): Point {
  if (typeof k !== "bigint" || k <= 0n || k >= N)
    throw new RangeError("invalid scalar: out of range");
  let b = 0n;
  if (randomBytes) {
    const blind = randomBytes(BLIND_BYTES);
    // A source that passed the probe and then misbehaves fails closed, as in noble.
    if (!(blind instanceof Uint8Array) || blind.length !== BLIND_BYTES)
      throw new Error("randomBytes returned invalid byte array");
    // Top bits 10: the blind is a full 128-bit factor, and k + b·n stays below 2^384.
    b = BigInt(((blind[0] as number) & 0x3f) | 0x80);
    for (let i = 1; i < BLIND_BYTES; i++) b = (b << 8n) | BigInt(blind[i] as number);
  }
  const bits = bitsOf(k + b * N);
  const size = 1 << TEETH;
  let acc = comb.ZERO;
  for (let p = SPAN - 1; p >= 0; p--) {
    if (p !== SPAN - 1) acc = acc.double();
    for (let c = 0; c < COMBS; c++) {
      let m = 0;
      for (let r = 0; r < TEETH; r++) m |= (bits[r * COLUMNS + c * SPAN + p] as number) << r;
      const table = comb.tables[c] as Point[];
      let selected = table[0] as Point;
      for (let i = 1; i < size; i++) selected = i === m ? (table[i] as Point) : selected;
      acc = acc.add(selected);
    }
  }
  bits.fill(0);
  return acc.add(comb.correction);
}
