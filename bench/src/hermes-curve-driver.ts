// Runs inside Hermes (bundled like a React Native app): P-256 fixed-base multiplication k·G as the
// `react-native` build needs it (key generation, signing), one variant per fresh VM. Variants:
// `comb`, Signet's own comb (the React Native backend's path), and `wN`, noble's own precomputation of G with
// signed windows of N bits (`Point.BASE.precompute(N)`; 6 is noble's default). Prints one
// `SIGNET_CURVE <json>` line. `Date.now()` is the only clock Hermes 0.12 has here.
import { ecdsa, weierstrass } from "@noble/curves/abstract/weierstrass.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { B, N, P } from "../../packages/core/src/crypto/p256.js";
import { GX, GY } from "../../packages/core/src/crypto/p256-base.js";
import { type BenchCurve, curveVariant } from "./hermes-curve-variant.js";

declare const print: (line: string) => void;
type Input = { variant: string; warm: number; secrets: string[]; message: string };
const input = (globalThis as unknown as { __SIGNET_CURVE_INPUT__: Input }).__SIGNET_CURVE_INPUT__;

const bytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
const randomBytes = (length = 32) => {
  const out = new Uint8Array(length);
  (globalThis as unknown as { crypto: Crypto }).crypto.getRandomValues(out);
  return out;
};

function curve(variant: string): BenchCurve {
  const custom = curveVariant(variant, randomBytes);
  if (custom) return custom;
  const window = Number(/^w(\d+)$/.exec(variant)?.[1]);
  if (!window) throw new Error(`unknown variant ${variant}`);
  const Point = weierstrass(
    { p: P, n: N, h: 1n, a: P - 3n, b: B, Gx: GX, Gy: GY },
    { randomBytes },
  );
  Point.BASE.precompute(window);
  const p256 = ecdsa(Point, sha256, { randomBytes });
  return {
    getPublicKey: (secret, compressed) => p256.getPublicKey(secret, compressed),
    // As the backend signs: SHA-256 here, RFC 6979, no low-S normalisation.
    sign: (message, secret) => p256.sign(message, secret, { lowS: false, prehash: true }),
  };
}

function main() {
  const secrets = input.secrets.map(bytes);
  const message = bytes(input.message);
  const out: Record<string, number> = {};
  let t = Date.now();
  const p256 = curve(input.variant);
  // Cold: the first public key of a fresh VM builds the table for G; then the first signature.
  p256.getPublicKey(secrets[0] as Uint8Array, false);
  out.firstKeyMs = Date.now() - t;
  t = Date.now();
  p256.sign(message, secrets[0] as Uint8Array);
  out.firstSignMs = Date.now() - t;
  t = Date.now();
  for (let i = 0; i < input.warm; i++)
    p256.getPublicKey(secrets[(i % (secrets.length - 1)) + 1] as Uint8Array, false);
  out.keyMs = (Date.now() - t) / input.warm;
  t = Date.now();
  for (let i = 0; i < input.warm; i++)
    p256.sign(message, secrets[i % secrets.length] as Uint8Array);
  out.signMs = (Date.now() - t) / input.warm;
  // The public keys, so the runner checks every variant computes the same points.
  out.check = parseInt(
    Array.from(p256.getPublicKey(secrets[0] as Uint8Array, true).slice(1, 5))
      .map((b) => b.toString(16).padStart(2, "0"))
      .join(""),
    16,
  );
  return out;
}

try {
  print(`SIGNET_CURVE ${JSON.stringify(main())}`);
} catch (error) {
  print(`SIGNET_CURVE_ERROR ${String(error)}`);
}
