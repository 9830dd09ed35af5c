import { describe, expect, it } from "vitest";
import { hotp, totp, verifyTotp } from "./totp.js";

// RFC 6238 Appendix B (SHA-1 rows: the 8-digit codes, whose last 6 digits are the 6-digit code)
// and RFC 4226 Appendix D.
const SECRET = new TextEncoder().encode("12345678901234567890");

describe("RFC 6238 TOTP", () => {
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ])("T = %i s → %s", (seconds, code) => {
    expect(totp(SECRET, seconds * 1000, 8)).toBe(code);
    expect(totp(SECRET, seconds * 1000)).toBe(code.slice(2));
  });

  it("RFC 4226 HOTP rows", () => {
    expect([0, 1, 2, 9].map((c) => hotp(SECRET, c))).toEqual([
      "755224",
      "287082",
      "359152",
      "520489",
    ]);
  });

  it("accepts the step before and after, and nothing further or malformed", () => {
    const now = 1_700_000_000_000;
    expect(verifyTotp(SECRET, totp(SECRET, now), now)).toBe(true);
    expect(verifyTotp(SECRET, totp(SECRET, now - 30_000), now)).toBe(true);
    expect(verifyTotp(SECRET, totp(SECRET, now + 30_000), now)).toBe(true);
    expect(verifyTotp(SECRET, totp(SECRET, now - 90_000), now)).toBe(false);
    expect(verifyTotp(SECRET, "12345", now)).toBe(false);
    expect(verifyTotp(SECRET, ` ${totp(SECRET, now)}`, now)).toBe(false);
  });
});
