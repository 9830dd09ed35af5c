// Customers and internal accounts, in process.
import { beforeEach, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../src/index.js";
import {
  call,
  otpSignIn,
  processTarget,
  SIGNATURE,
  signedCall,
  signUp,
  stamp,
  type Target,
} from "./testClient.js";

let emulator: Emulator;
let t: Target;
beforeEach(() => {
  emulator = createEmulator();
  t = processTarget(emulator);
});

describe("customers", () => {
  it("creates a KYC-approved customer with a USDB EMBEDDED_WALLET", async () => {
    const r = await call(t, "POST", "/customers", {
      customerType: "INDIVIDUAL",
      platformCustomerId: "p-1",
      email: "ada@example.com",
      fullName: "Ada Lovelace",
      birthDate: "1815-12-10",
      address: { line1: "1 St", city: "London", postalCode: "EC1A 1BB", country: "GB" },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      customerType: "INDIVIDUAL",
      kycStatus: "APPROVED",
      email: "ada@example.com",
    });
    expect(r.body.id).toMatch(/^Customer:[0-9a-f-]{36}$/);
    expect((await call(t, "GET", `/customers/${r.body.id}`)).body).toEqual(r.body);
    const accounts = await call(
      t,
      "GET",
      `/customers/internal-accounts?customerId=${r.body.id}&type=EMBEDDED_WALLET`,
    );
    expect(accounts.body).toMatchObject({ hasMore: false, totalCount: 1 });
    const account = accounts.body.data[0];
    expect(account).toMatchObject({
      customerId: r.body.id,
      type: "EMBEDDED_WALLET",
      status: "ACTIVE",
      balance: { amount: 0, currency: { code: "USDB", decimals: 6 } },
    });
    const same = await call(
      t,
      "GET",
      `/internal-accounts?customerId=${r.body.id}&type=EMBEDDED_WALLET`,
    );
    expect(same.body.data).toEqual(accounts.body.data);
  });

  it("names every invalid field at once", async () => {
    const r = await call(t, "POST", "/customers", {
      customerType: "ROBOT",
      email: "nope",
      phoneNumber: "555",
      birthDate: "1815-13-40",
      nickname: "x",
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("INVALID_INPUT");
    const fields = r.body.details.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(["birthDate", "customerType", "email", "nickname", "phoneNumber"]);
    const email = r.body.details.errors.find((e: { field: string }) => e.field === "email");
    expect(email.constraint.format).toBe("email");
    expect((await call(t, "GET", "/customers")).body.data).toEqual([]);
  });

  it("lists with filters and pages", async () => {
    for (let i = 0; i < 3; i++) {
      await call(t, "POST", "/customers", {
        customerType: "INDIVIDUAL",
        email: `u${i}@example.com`,
      });
    }
    const page = await call(t, "GET", "/customers?limit=2");
    expect(page.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(page.body.data).toHaveLength(2);
    const rest = await call(t, "GET", `/customers?limit=2&cursor=${page.body.nextCursor}`);
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.hasMore).toBe(false);
    const byEmail = await call(t, "GET", "/customers?email=U1@example.com");
    expect(byEmail.body.data.map((c: { email: string }) => c.email)).toEqual(["u1@example.com"]);
    expect((await call(t, "GET", "/customers?limit=0")).status).toBe(400);
  });

  it("updates ordinary fields synchronously", async () => {
    const user = await signUp(t);
    const r = await call(t, "PATCH", `/customers/${user.customer.id}`, {
      customerType: "INDIVIDUAL",
      fullName: "Ada King",
    });
    expect(r.status).toBe(200);
    expect(r.body.fullName).toBe("Ada King");
    expect(
      (await call(t, "PATCH", `/customers/${user.customer.id}`, { fullName: "x" })).status,
    ).toBe(400);
    expect(
      (
        await call(t, "PATCH", "/customers/Customer:00000000-0000-4000-8000-000000000000", {
          customerType: "INDIVIDUAL",
          fullName: "x",
        })
      ).status,
    ).toBe(404);
  });

  it("changes the email by signed retry; the EMAIL_OTP nickname follows", async () => {
    const user = await signUp(t, "old@example.com");
    const path = `/customers/${user.customer.id}`;
    const { challenge, result } = await signedCall(
      t,
      "PATCH",
      path,
      { customerType: "INDIVIDUAL", email: "new@example.com" },
      user.sessionKey,
    );
    expect(challenge.status).toBe(202);
    expect(challenge.body.type).toBeUndefined();
    expect(result.status).toBe(200);
    expect(result.body.email).toBe("new@example.com");
    const creds = await call(t, "GET", `/auth/credentials?accountId=${user.account.id}`);
    expect(creds.body.data[0].nickname).toBe("new@example.com");
    // A session signing in after the change still works with the same credential.
    await otpSignIn(t, user.credential.id, user.attestationPublicKey);
  });

  it("refuses both contacts at once, an email taken by another wallet, and a stamp from another customer", async () => {
    const a = await signUp(t, "a@example.com");
    const b = await signUp(t, "b@example.com");
    const both = await call(t, "PATCH", `/customers/${a.customer.id}`, {
      customerType: "INDIVIDUAL",
      email: "c@example.com",
      phoneNumber: "+14155550100",
    });
    expect(both.status).toBe(400);
    const taken = await call(t, "PATCH", `/customers/${a.customer.id}`, {
      customerType: "INDIVIDUAL",
      email: "B@example.com",
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("EMAIL_OTP_EMAIL_ALREADY_EXISTS");
    const { result } = await signedCall(
      t,
      "PATCH",
      `/customers/${a.customer.id}`,
      { customerType: "INDIVIDUAL", email: "c@example.com" },
      b.sessionKey,
    );
    expect(result.body.code).toBe("WALLET_SIGNATURE_INVALID");
    expect((await call(t, "GET", `/customers/${a.customer.id}`)).body.email).toBe("a@example.com");
  });

  it("changes a phone number synchronously when no SMS_OTP credential is tied", async () => {
    const user = await signUp(t);
    const r = await call(t, "PATCH", `/customers/${user.customer.id}`, {
      customerType: "INDIVIDUAL",
      phoneNumber: "+14155550101",
    });
    expect(r.status).toBe(200);
    expect(r.body.phoneNumber).toBe("+14155550101");
  });

  it("is all or nothing: a failed retry changes neither contact nor nickname", async () => {
    const user = await signUp(t, "keep@example.com");
    const path = `/customers/${user.customer.id}`;
    const body = JSON.stringify({ customerType: "INDIVIDUAL", email: "next@example.com" });
    const leg1 = await call(t, "PATCH", path, body);
    // Another customer takes the email between the legs.
    await call(t, "POST", "/customers", { customerType: "INDIVIDUAL", email: "next@example.com" });
    const retry = await call(t, "PATCH", path, body, {
      [SIGNATURE]: stamp(leg1.body.payloadToSign, user.sessionKey),
      "Request-Id": leg1.body.requestId,
    });
    expect(retry.status).toBe(409);
    expect((await call(t, "GET", path)).body.email).toBe("keep@example.com");
    const creds = await call(t, "GET", `/auth/credentials?accountId=${user.account.id}`);
    expect(creds.body.data[0].nickname).toBe("keep@example.com");
  });
});

describe("sandbox funding", () => {
  it("credits the balance and refuses bad amounts", async () => {
    const user = await signUp(t);
    const path = `/sandbox/internal-accounts/${user.account.id}/fund`;
    expect((await call(t, "POST", path, { amount: 1_500_000 })).body.balance.amount).toBe(
      1_500_000,
    );
    expect((await call(t, "POST", path, { amount: 500_000 })).body.balance.amount).toBe(2_000_000);
    const bad = await call(t, "POST", path, { amount: 1.5 });
    expect(bad.body.details.errors[0].field).toBe("amount");
    expect((await call(t, "POST", path, { amount: 0 })).status).toBe(400);
    expect((await call(t, "POST", path, { amount: "10" })).status).toBe(400);
    const unknown = await call(
      t,
      "POST",
      "/sandbox/internal-accounts/InternalAccount:00000000-0000-4000-8000-000000000000/fund",
      {
        amount: 1,
      },
    );
    expect(unknown.status).toBe(404);
  });
});
