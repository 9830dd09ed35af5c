// docs/protocol.md §10: the service's field rules and answers, as its OpenAPI has them, no stricter
// and no looser.
import { randomBytes, randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../src/index.js";
import { createSoftAuthenticator } from "../src/testing/index.js";
import { call, oidcToken, processTarget, signedCall, signUp, type Target } from "./testClient.js";

let emulator: Emulator;
let t: Target;
beforeEach(() => {
  emulator = createEmulator();
  t = processTarget(emulator);
});

const b64u = (b: Uint8Array | string) => Buffer.from(b).toString("base64url");
const unknown = (kind: string) => `${kind}:${randomUUID()}`;

/** A PASSKEY add body for `accountId`, from a software authenticator's real registration. */
async function passkeyBody(
  authenticator: ReturnType<typeof createSoftAuthenticator>,
  accountId: string,
  fields: Record<string, unknown> = {},
) {
  const challenge = b64u(randomBytes(32));
  const reg = await authenticator.createCredential({
    rp: { id: "localhost", name: "Signet" },
    user: { id: b64u(randomBytes(16)), name: "zoe", displayName: "Zoë" },
    challenge,
    pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    authenticatorSelection: { userVerification: "required", residentKey: "required" },
  });
  return {
    type: "PASSKEY",
    accountId,
    nickname: "Laptop",
    challenge,
    attestation: {
      credentialId: reg.rawId,
      clientDataJson: reg.response.clientDataJSON,
      attestationObject: reg.response.attestationObject,
    },
    ...fields,
  };
}

describe("lists", () => {
  it("list credentials and sessions of an account that matches nothing as 200 with empty data", async () => {
    const accountId = unknown("InternalAccount");
    for (const path of [
      `/auth/credentials?accountId=${accountId}`,
      `/auth/sessions?accountId=${accountId}`,
    ]) {
      const reply = await call(t, "GET", path);
      expect(reply.status, path).toBe(200);
      expect(reply.body).toEqual({ data: [] });
    }
  });
});

describe("passkeys", () => {
  it("take a Unicode nickname, trimmed, and refuse other characters", async () => {
    const user = await signUp(t);
    const authenticator = createSoftAuthenticator({
      rpId: "localhost",
      origin: "http://localhost:5173",
    });
    const body = await passkeyBody(authenticator, user.account.id, {
      nickname: "  Téléphone de Zoë (2)  ",
    });
    const { result } = await signedCall(t, "POST", "/auth/credentials", body, user.sessionKey);
    expect(result.status).toBe(201);
    expect(result.body.nickname).toBe("Téléphone de Zoë (2)");
    for (const nickname of ["", "   ", "Laptop 💻", "a/b", "x".repeat(101)]) {
      const refused = await call(t, "POST", "/auth/credentials", { ...body, nickname });
      expect(refused.status, nickname).toBe(400);
      expect(refused.body.details.errors[0].field).toBe("nickname");
    }
  });

  it("accept only the service's transports", async () => {
    const user = await signUp(t);
    const authenticator = createSoftAuthenticator({
      rpId: "localhost",
      origin: "http://localhost:5173",
    });
    const body = await passkeyBody(authenticator, user.account.id);
    for (const transports of [["smart-card"], ["internal", "cable"]]) {
      const refused = await call(t, "POST", "/auth/credentials", {
        ...body,
        attestation: { ...body.attestation, transports },
      });
      expect(refused.status).toBe(400);
    }
    const ok = await call(t, "POST", "/auth/credentials", {
      ...body,
      attestation: { ...body.attestation, transports: ["usb", "nfc", "ble", "internal", "hybrid"] },
    });
    expect(ok.status).toBe(202);
  });

  it("refuse a passkey already attached to the same account, not one attached to another", async () => {
    const [ada, bob] = [await signUp(t), await signUp(t)];
    const authenticator = createSoftAuthenticator({
      rpId: "localhost",
      origin: "http://localhost:5173",
    });
    const body = await passkeyBody(authenticator, ada.account.id);
    const first = await signedCall(t, "POST", "/auth/credentials", body, ada.sessionKey);
    expect(first.result.status).toBe(201);
    const again = await signedCall(t, "POST", "/auth/credentials", body, ada.sessionKey);
    expect(again.result.status).toBe(400);
    expect(again.result.body.code).toBe("PASSKEY_CREDENTIAL_ALREADY_EXISTS");
    const elsewhere = await signedCall(
      t,
      "POST",
      "/auth/credentials",
      { ...body, accountId: bob.account.id },
      bob.sessionKey,
    );
    expect(elsewhere.result.status).toBe(201);
  });
});

describe("OAuth credentials", () => {
  it("need numeric iat and exp (400), iat under 60 s old (401: authentication fails)", async () => {
    const user = await signUp(t);
    const now = Math.floor(emulator.clock.now() / 1000);
    const claims = { iss: "https://accounts.google.com", aud: "app", sub: "zoe-1" };
    const add = (token: Record<string, unknown>) =>
      signedCall(
        t,
        "POST",
        "/auth/credentials",
        {
          type: "OAUTH",
          accountId: user.account.id,
          oidcToken: oidcToken({ ...claims, ...token }),
        },
        user.sessionKey,
      );
    for (const bad of [
      { iat: now, exp: undefined },
      { iat: String(now), exp: now + 3600 },
      { iat: now, exp: "later" },
    ]) {
      const { result } = await add(bad);
      expect(result.status, JSON.stringify(bad)).toBe(400);
      expect(result.body.code).toBe("INVALID_INPUT");
    }
    const stale = (await add({ iat: now - 61, exp: now + 3600 })).result;
    expect(stale.status).toBe(401);
    expect(stale.body.details.reason).toBe("OIDC_TOKEN_STALE");
    expect((await add({ iat: now - 30, exp: now + 3600 })).result.status).toBe(201);
  });
});

describe("requests the emulator accepts as the service does", () => {
  it("ignores the body of an OTP challenge, whatever it holds", async () => {
    const user = await signUp(t);
    const reply = await call(t, "POST", `/auth/credentials/${user.credential.id}/challenge`, {
      anything: ["goes", 1],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.otpEncryptionTargetBundle).toBeTypeOf("string");
  });

  it("accepts the optional QuoteRequest fields, and refuses TOTP for SCA", async () => {
    const [ada, bob] = [await signUp(t), await signUp(t)];
    const base = {
      source: { sourceType: "ACCOUNT", accountId: ada.account.id },
      destination: { destinationType: "ACCOUNT", accountId: bob.account.id, currency: "USDB" },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000,
    };
    const full = await call(t, "POST", "/quotes", {
      ...base,
      lookupId: "Lookup:019542f5-b3e7-1d02-0000-000000000009",
      remittanceInformation: "Invoice 12345",
      platformFeeOverride: {
        platformFixedFee: { amount: 50, currency: "USD" },
        platformVariableFeeBps: 30,
      },
      scaFactor: "PASSKEY",
      purposeOfPayment: "GIFT",
    });
    expect(full.status).toBe(201);
    const totp = await call(t, "POST", "/quotes", { ...base, scaFactor: "TOTP" });
    expect(totp.status).toBe(400);
    expect(totp.body.details.errors[0].field).toBe("scaFactor");
  });
});

describe("404 codes", () => {
  it("name what was not found with the service's codes", async () => {
    const cases: [string, string, string][] = [
      ["GET", `/customers/${unknown("Customer")}`, "USER_NOT_FOUND"],
      ["GET", `/quotes/${unknown("Quote")}`, "QUOTE_NOT_FOUND"],
      ["POST", `/quotes/${unknown("Quote")}/authorize`, "QUOTE_NOT_FOUND"],
      ["GET", `/transactions/${unknown("Transaction")}`, "TRANSACTION_NOT_FOUND"],
      ["GET", `/auth/delegated-keys/${unknown("DelegatedKey")}`, "REFERENCE_NOT_FOUND"],
    ];
    for (const [method, path, code] of cases) {
      const reply = await call(t, method, path, method === "POST" ? { code: "123456" } : undefined);
      expect(reply.status, path).toBe(404);
      expect(reply.body.code, path).toBe(code);
    }
  });
});
