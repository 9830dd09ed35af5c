// docs/architecture.md "One client carries every seam": the random source is resolved at call time, never at
// import, so server-side rendering and engines without WebCrypto (Hermes) can load this module.
import { SignetError } from "../errors/errors.js";

/** A cryptographically secure random source: `length` fresh bytes. */
export type RandomBytes = (length: number) => Uint8Array;

/**
 * Random bytes from `globalThis.crypto.getRandomValues` (browsers, Node ≥ 19, React Native with
 * `react-native-get-random-values`), looked up on each call.
 * @throws {SignetError} `CRYPTO_UNAVAILABLE` when the platform has no secure random source.
 */
export function defaultRandomBytes(length: number): Uint8Array {
  const source = (globalThis as { crypto?: Partial<Crypto> }).crypto;
  if (typeof source?.getRandomValues !== "function") {
    throw new SignetError(
      "CRYPTO_UNAVAILABLE",
      "no secure random source (crypto.getRandomValues); pass randomBytes",
    );
  }
  const out = new Uint8Array(length);
  // getRandomValues fills at most 65,536 bytes per call.
  for (let offset = 0; offset < length; offset += 65_536) {
    source.getRandomValues(out.subarray(offset, Math.min(length, offset + 65_536)));
  }
  return out;
}
