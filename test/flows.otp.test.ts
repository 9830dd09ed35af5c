import { getSession, listCredentials, requestOtp, SignetError, verifyOtp } from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

describe("OTP sign-in: core → relay → emulator", () => {
  it("signs in with the email code and holds a session", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client, events } = stack.client(customerId);
    const credentials = await listCredentials(client, { accountId });
    expect(credentials.map((c) => c.id)).toContain(emailCredentialId);
    const otp = await requestOtp(client, { credentialId: emailCredentialId });
    const session = await verifyOtp(client, { ...otp, otpCode: "000000" });
    expect(session.id).toMatch(/^Session:/);
    expect(session.accountId).toBe(accountId);
    expect(await getSession(client, { accountId })).toMatchObject({ id: session.id });
    expect(JSON.stringify(events)).not.toContain("000000");
  });

  it("refuses a wrong code with a typed error", async () => {
    const { customerId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    const otp = await requestOtp(client, { credentialId: emailCredentialId });
    const error = await verifyOtp(client, { ...otp, otpCode: "123999" }).catch((e) => e);
    expect(error).toBeInstanceOf(SignetError);
    expect(error.status).toBe(401);
    expect(error.message).not.toContain("123999");
  });
});
