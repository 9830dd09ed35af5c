// Test-only: loads the independent vectors kept in packages/test/vectors (provenance in its README).
import { readFileSync } from "node:fs";

const VECTORS = new URL("../../../../test/vectors/", import.meta.url);

/** Parses a vector file by its path under `packages/test/vectors`. */
export function readVector<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, VECTORS), "utf8")) as T;
}

/** Hex that the vectors guarantee to be well formed. */
export function hex(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, "hex"));
}

/** A Wycheproof `result` accounted for: an unknown value fails the test that reads it. */
export type WycheproofResult = "valid" | "invalid" | "acceptable";

export function assertKnownResult(result: string): asserts result is WycheproofResult {
  if (result !== "valid" && result !== "invalid" && result !== "acceptable") {
    throw new Error(`unknown Wycheproof result "${result}"`);
  }
}
