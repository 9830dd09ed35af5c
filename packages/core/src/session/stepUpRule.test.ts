// The step-up rule at its edges (docs/security.md "Step-up"): a verification counts from its own
// moment up to, not including, `maxAgeMs` later; none, an unreadable one or one dated after now
// never counts; an action the policy does not name, or no policy, is never refused.
import { describe, expect, it } from "vitest";
import { type StepUpPolicy, stepUpRequired } from "./stepUpRule.js";

const MAX_AGE_MS = 15 * 60_000;
const policy: StepUpPolicy = { actions: new Set(["exportWallet"]), maxAgeMs: MAX_AGE_MS };
const verifiedAt = "2026-08-21T10:00:00.000Z";
const at = Date.parse(verifiedAt);

describe("stepUpRequired", () => {
  it("counts a verification from its moment until just before the maximum age", () => {
    expect(stepUpRequired(policy, "exportWallet", verifiedAt, at)).toBe(false);
    expect(stepUpRequired(policy, "exportWallet", verifiedAt, at + 1)).toBe(false);
    expect(stepUpRequired(policy, "exportWallet", verifiedAt, at + MAX_AGE_MS - 1)).toBe(false);
  });

  it("refuses exactly at the maximum age and after it", () => {
    expect(stepUpRequired(policy, "exportWallet", verifiedAt, at + MAX_AGE_MS)).toBe(true);
    expect(stepUpRequired(policy, "exportWallet", verifiedAt, at + MAX_AGE_MS + 1)).toBe(true);
    expect(stepUpRequired(policy, "exportWallet", verifiedAt, at + 24 * 3_600_000)).toBe(true);
  });

  it("never counts a verification dated after now (a clock set back), by a millisecond or a day", () => {
    expect(stepUpRequired(policy, "exportWallet", verifiedAt, at - 1)).toBe(true);
    expect(stepUpRequired(policy, "exportWallet", verifiedAt, at - 24 * 3_600_000)).toBe(true);
  });

  it("refuses without a verification, or with one that is no time", () => {
    expect(stepUpRequired(policy, "exportWallet", undefined, at)).toBe(true);
    expect(stepUpRequired(policy, "exportWallet", "", at)).toBe(true);
    expect(stepUpRequired(policy, "exportWallet", "yesterday", at)).toBe(true);
    expect(stepUpRequired(policy, "exportWallet", verifiedAt, Number.NaN)).toBe(true);
  });

  it("never refuses an action the policy does not name, or without a policy, whatever the verification", () => {
    for (const verification of [undefined, verifiedAt, "yesterday"])
      for (const now of [at, at + MAX_AGE_MS, at - 1]) {
        expect(stepUpRequired(policy, "listCredentials", verification, now)).toBe(false);
        expect(stepUpRequired(policy, "", verification, now)).toBe(false);
        expect(stepUpRequired(undefined, "exportWallet", verification, now)).toBe(false);
      }
  });

  it("a maximum age of one millisecond counts only the verification's own moment", () => {
    const tight: StepUpPolicy = { actions: policy.actions, maxAgeMs: 1 };
    expect(stepUpRequired(tight, "exportWallet", verifiedAt, at)).toBe(false);
    expect(stepUpRequired(tight, "exportWallet", verifiedAt, at + 1)).toBe(true);
  });
});
