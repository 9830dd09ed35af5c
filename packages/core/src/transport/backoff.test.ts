import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffCeiling, backoffDelay, defaultBackoff } from "./backoff.js";

describe("backoffCeiling", () => {
  it("doubles from 500 ms and caps at 8 s by default", () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffCeiling({ attempt }));
    expect(ceilings).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(defaultBackoff).toEqual({ baseMs: 500, factor: 2, maxMs: 8000 });
  });

  it("follows a custom schedule", () => {
    const schedule = { baseMs: 100, factor: 3, maxMs: 1000 };
    const ceilings = [1, 2, 3, 4].map((attempt) => backoffCeiling({ ...schedule, attempt }));
    expect(ceilings).toEqual([100, 300, 900, 1000]);
  });

  it("never returns a negative or non-finite ceiling", () => {
    expect(backoffCeiling({ attempt: 0 })).toBe(500);
    expect(backoffCeiling({ attempt: 10_000 })).toBe(8000);
    expect(backoffCeiling({ attempt: 3, baseMs: -1 })).toBe(0);
    expect(backoffCeiling({ attempt: 3, maxMs: Number.NaN })).toBe(0);
  });
});

describe("backoffDelay (full jitter)", () => {
  it("scales the ceiling by the random draw", () => {
    expect(backoffDelay({ attempt: 1, random: () => 0 })).toBe(0);
    expect(backoffDelay({ attempt: 2, random: () => 0.5 })).toBe(500);
    expect(backoffDelay({ attempt: 3, random: () => 0.999_999 })).toBe(1999);
  });

  it("clamps a misbehaving random source", () => {
    expect(backoffDelay({ attempt: 1, random: () => 7 })).toBe(500);
    expect(backoffDelay({ attempt: 1, random: () => -1 })).toBe(0);
    expect(backoffDelay({ attempt: 1, random: () => Number.NaN })).toBe(0);
  });

  it("always lies in [0, ceiling]", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, draw) => {
          const delay = backoffDelay({ attempt, random: () => draw });
          return Number.isInteger(delay) && delay >= 0 && delay <= backoffCeiling({ attempt });
        },
      ),
    );
  });
});
