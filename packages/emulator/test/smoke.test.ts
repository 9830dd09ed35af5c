import { describe, expect, it } from "vitest";
import { createEmulator } from "../src/index.js";
import { call, processTarget, signUp } from "./testClient.js";

describe("smoke", () => {
  it("signs up and signs in with email OTP", async () => {
    const t = processTarget(createEmulator());
    const r = await signUp(t, "ada@example.com");
    expect(r.session.id).toMatch(/^Session:/);
    expect(r.verifyChallenge.body.type).toBe("EMAIL_OTP");
    const sessions = await call(t, "GET", `/auth/sessions?accountId=${r.account.id}`);
    expect(sessions.body.data).toHaveLength(1);
  });
});
