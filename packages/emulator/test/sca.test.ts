// EU payments as the service runs them (issue #27): the execute's scaFactor, SCA factors, the SCA
// login and session that authorize needs, security events and the lock, and the opaque passkey
// options; then wallet privacy, contact verification and the paged lists.
import { beforeEach, describe, expect, it } from "vitest";
import { createEmulator, type Emulator, type EmulatorOptions } from "../src/index.js";
import { createSoftAuthenticator } from "../src/testing/index.js";
import {
  call,
  otpSignIn,
  processTarget,
  SIGNATURE,
  signedCall,
  stamp,
  type Target,
} from "./testClient.js";

const ORIGIN = "http://localhost:5173";
const IP = "203.0.113.42";
let emulator: Emulator;
let t: Target;

function start(options: EmulatorOptions = {}) {
  // A still clock (advanced by the test) so that lifetimes compare exactly.
  const frozen = Date.parse("2026-11-25T12:00:00Z");
  emulator = createEmulator({ settlementDelayMs: 10_000, now: () => frozen, ...options });
  t = processTarget(emulator);
}
beforeEach(() => start());

let phoneSeq = 100;
/** A customer of `region` with an email, a phone and a signed-in wallet holding funds. */
async function customer(region = "DE", options: { phone?: boolean } = {}) {
  const keys = (await call(t, "GET", "/_emulator/keys")).body;
  const email = `eu-${phoneSeq}@example.com`;
  const created = await call(t, "POST", "/customers", {
    customerType: "INDIVIDUAL",
    email,
    region,
    ...(options.phone === false ? {} : { phoneNumber: `+4915155550${phoneSeq++}` }),
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const accounts = await call(t, "GET", `/customers/internal-accounts?customerId=${id}`);
  const account = accounts.body.data[0];
  const credential = (await call(t, "GET", `/auth/credentials?accountId=${account.id}`)).body
    .data[0];
  const { sessionKey } = await otpSignIn(t, credential.id, keys.attestationPublicKey);
  await call(t, "POST", `/sandbox/internal-accounts/${account.id}/fund`, { amount: 5_000_000 });
  return { id, customer: created.body, account, sessionKey };
}

type User = Awaited<ReturnType<typeof customer>>;

/** A USDB wallet → USDB wallet quote (one authorization). */
async function quote(from: User, to: User) {
  const q = await call(t, "POST", "/quotes", {
    source: { sourceType: "ACCOUNT", accountId: from.account.id },
    destination: { destinationType: "ACCOUNT", accountId: to.account.id },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: 1_000_000,
  });
  expect(q.status).toBe(201);
  const entry = q.body.paymentInstructions.find(
    (p: { accountOrWalletInfo: { accountType: string } }) =>
      p.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
  );
  return { id: q.body.id as string, payload: entry.accountOrWalletInfo.payloadToSign as string };
}

function execute(user: User, q: { id: string; payload: string }, body?: unknown, key?: string) {
  return call(t, "POST", `/quotes/${q.id}/execute`, body, {
    [SIGNATURE]: stamp(q.payload, user.sessionKey),
    ...(key ? { "Idempotency-Key": key } : {}),
  });
}

async function smsLogin(user: User) {
  const started = await call(t, "POST", `/sca/login/start?customerId=${user.id}`, {
    factor: "SMS_OTP",
  });
  expect(started.status).toBe(200);
  const done = await call(t, "POST", `/sca/login/complete?customerId=${user.id}`, {
    factor: "SMS_OTP",
    challengeId: started.body.challengeId,
    code: "123456",
    endUserIpAddress: IP,
  });
  expect(done.status).toBe(200);
  return done.body;
}

async function enrolPasskey(user: User, authenticator = createSoftAuthenticator()) {
  const begun = await call(t, "POST", `/sca/factors?customerId=${user.id}`, { type: "PASSKEY" });
  expect(begun.status).toBe(200);
  const options = begun.body.options.publicKey ?? begun.body.options;
  const credential = await authenticator.createCredential(options);
  const confirmed = await call(t, "POST", `/sca/factors/confirm?customerId=${user.id}`, {
    type: "PASSKEY",
    origin: ORIGIN,
    credential,
  });
  return { begun, confirmed, credential, authenticator };
}

describe("execute's ExecuteQuoteRequest", () => {
  it("defaults to SMS_OTP, refuses TOTP, and PASSKEY without an SCA passkey", async () => {
    const [a, b] = [await customer(), await customer()];
    const q = await quote(a, b);
    const totp = await execute(a, q, { scaFactor: "TOTP" });
    expect(totp.status).toBe(400);
    expect(totp.body.details.errors[0].field).toBe("scaFactor");
    const passkey = await execute(a, q, { scaFactor: "PASSKEY" });
    expect(passkey.status).toBe(400);
    expect(passkey.body.code).toBe("INVALID_INPUT");
    expect(passkey.body.details.reason).toBe("SCA_FACTOR_NOT_ENROLLED");
    expect((await call(t, "GET", `/quotes/${q.id}`)).body.status).toBe("PENDING");
    const ok = await execute(a, q);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("PENDING_AUTHORIZATION");
    expect(ok.body.scaChallenge).toMatchObject({
      factor: "SMS_OTP",
      availableFactors: ["SMS_OTP"],
    });
    expect(ok.body.scaChallenge.passkeyAssertionOptions).toBeUndefined();
  });

  it("replays under an Idempotency-Key only with the same body", async () => {
    const [a, b] = [await customer(), await customer()];
    const q = await quote(a, b);
    const first = await execute(a, q, { scaFactor: "SMS_OTP" }, "key-1");
    expect(first.status).toBe(200);
    const again = await execute(a, q, { scaFactor: "SMS_OTP" }, "key-1");
    expect(again.text).toBe(first.text);
    // Omitted means SMS_OTP: the same request.
    expect((await execute(a, q, undefined, "key-1")).text).toBe(first.text);
    const other = await execute(a, q, { scaFactor: "PASSKEY" }, "key-1");
    expect(other.status).toBe(409);
    expect(other.body.details.reason).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("ignores scaFactor outside SCA regions, and at quote creation for a wallet", async () => {
    const [a, b] = [await customer("US"), await customer("US")];
    const created = await call(t, "POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: a.account.id },
      destination: { destinationType: "ACCOUNT", accountId: b.account.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000,
      scaFactor: "PASSKEY",
    });
    expect(created.status).toBe(201);
    const q = await quote(a, b);
    const ok = await execute(a, q, { scaFactor: "PASSKEY" });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("PROCESSING");
  });
});

describe("SCA factors", () => {
  it("every /sca route needs customerId and answers 409 outside an SCA region", async () => {
    const us = await customer("US");
    // GET and DELETE document no 400: a missing customerId is not found; the POSTs say 400.
    expect((await call(t, "GET", "/sca/factors")).status).toBe(404);
    expect((await call(t, "POST", "/sca/login/start", { factor: "SMS_OTP" })).status).toBe(400);
    for (const [method, path, body] of [
      ["GET", "/sca/factors", undefined],
      ["POST", "/sca/factors", { type: "PASSKEY" }],
      ["POST", "/sca/login/start", { factor: "SMS_OTP" }],
      ["POST", "/sca/record-event", { eventType: "FAILED_LOGIN_ATTEMPT" }],
    ] as const) {
      const r = await call(t, method, `${path}?customerId=${us.id}`, body);
      expect(r.status, path).toBe(409);
      expect(r.body.code).toBe("CONFLICT");
    }
    const unknown = "Customer:00000000-0000-4000-8000-000000000000";
    expect((await call(t, "GET", `/sca/factors?customerId=${unknown}`)).status).toBe(404);
  });

  it("lists SMS_OTP for a customer with a phone; enrols one passkey, refuses a second, deletes it", async () => {
    const eu = await customer();
    expect((await call(t, "GET", `/sca/factors?customerId=${eu.id}`)).body).toEqual({
      factors: [{ factor: "SMS_OTP" }],
    });
    const { begun, confirmed, credential } = await enrolPasskey(eu);
    expect(begun.body).toMatchObject({
      type: "PASSKEY",
      allowedOrigins: [ORIGIN],
      relyingPartyId: "localhost",
    });
    expect(begun.body.options).toMatchObject({
      rp: { id: "localhost" },
      challenge: expect.any(String),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({
      type: "PASSKEY",
      factor: { factor: "PASSKEY", credentialId: credential.id, name: "Passkey" },
    });
    const list = await call(t, "GET", `/sca/factors?customerId=${eu.id}`);
    expect(list.body.factors.map((f: { factor: string }) => f.factor)).toEqual([
      "SMS_OTP",
      "PASSKEY",
    ]);
    const second = await call(t, "POST", `/sca/factors?customerId=${eu.id}`, { type: "PASSKEY" });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe("PASSKEY_ALREADY_ENROLLED");
    const del = await call(t, "DELETE", `/sca/factors/${credential.id}?customerId=${eu.id}`);
    expect(del.status).toBe(204);
    expect(
      (await call(t, "DELETE", `/sca/factors/${credential.id}?customerId=${eu.id}`)).status,
    ).toBe(404);
  });

  it("refuses a registration for another challenge, origin or nothing started", async () => {
    const eu = await customer();
    const notStarted = await call(t, "POST", `/sca/factors/confirm?customerId=${eu.id}`, {
      type: "PASSKEY",
      origin: ORIGIN,
      credential: {},
    });
    expect(notStarted.status).toBe(400);
    expect(notStarted.body.details.reason).toBe("SCA_ENROLLMENT_NOT_STARTED");
    const begun = await call(t, "POST", `/sca/factors?customerId=${eu.id}`, { type: "PASSKEY" });
    const authenticator = createSoftAuthenticator();
    const forged = await authenticator.createCredential({
      ...begun.body.options,
      challenge: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    });
    const wrong = await call(t, "POST", `/sca/factors/confirm?customerId=${eu.id}`, {
      type: "PASSKEY",
      origin: ORIGIN,
      credential: forged,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.reason).toBe("PASSKEY_REGISTRATION_INVALID");
    const good = await authenticator.createCredential(begun.body.options);
    const otherOrigin = await call(t, "POST", `/sca/factors/confirm?customerId=${eu.id}`, {
      type: "PASSKEY",
      origin: "https://evil.example",
      credential: good,
    });
    expect(otherOrigin.status).toBe(400);
  });

  it("enrols TOTP with the sandbox code and logs in with it", async () => {
    const eu = await customer();
    const begun = await call(t, "POST", `/sca/factors?customerId=${eu.id}`, { type: "TOTP" });
    expect(begun.status).toBe(200);
    expect(begun.body.totpUri).toMatch(/^otpauth:\/\/totp\//);
    const confirmed = await call(t, "POST", `/sca/factors/confirm?customerId=${eu.id}`, {
      type: "TOTP",
      secret: begun.body.secret,
      code: "123456",
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes.length).toBeGreaterThan(0);
    const login = await call(t, "POST", `/sca/login/start?customerId=${eu.id}`, { factor: "TOTP" });
    expect(login.body).toEqual({ factor: "TOTP" });
    const done = await call(t, "POST", `/sca/login/complete?customerId=${eu.id}`, {
      factor: "TOTP",
      code: "123456",
      endUserIpAddress: IP,
    });
    expect(done.body.status).toBe("SUCCESS");
  });
});

describe("SCA login and session", () => {
  it("authorize needs an SCA session: 409 SCA_SESSION_REQUIRED, the same proof after the login", async () => {
    const [a, b] = [await customer(), await customer()];
    const q = await quote(a, b);
    expect((await execute(a, q)).status).toBe(200);
    const early = await call(t, "POST", `/quotes/${q.id}/authorize`, { code: "000001" });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("SCA_SESSION_REQUIRED");
    const session = await smsLogin(a);
    expect(session.status).toBe("SUCCESS");
    expect(Date.parse(session.sessionExpiresAt) - emulator.clock.now()).toBe(15 * 60_000);
    const ok = await call(t, "POST", `/quotes/${q.id}/authorize`, {
      code: "123456",
      endUserIpAddress: IP,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("PROCESSING");
  });

  it("the session lapses after scaSessionTtlMs; RESET_PASSWORD_COMPLETED revokes it", async () => {
    start({ scaSessionTtlMs: 60_000 });
    const [a, b] = [await customer(), await customer()];
    await smsLogin(a);
    const q = await quote(a, b);
    await execute(a, q);
    emulator.advanceClock(61_000);
    expect((await call(t, "POST", `/quotes/${q.id}/authorize`, { code: "123456" })).body.code).toBe(
      "SCA_SESSION_REQUIRED",
    );
    await smsLogin(a);
    const reset = await call(t, "POST", `/sca/record-event?customerId=${a.id}`, {
      eventType: "RESET_PASSWORD_COMPLETED",
    });
    expect(reset.body).toEqual({
      eventType: "RESET_PASSWORD_COMPLETED",
      suspended: false,
      lockedUntil: null,
      failedAttempts: 0,
    });
    expect((await call(t, "POST", `/quotes/${q.id}/authorize`, { code: "123456" })).body.code).toBe(
      "SCA_SESSION_REQUIRED",
    );
  });

  it("requireScaSessionAtExecute: execute without a session is 409 SCA_SESSION_REQUIRED, nothing executed or remembered under the key", async () => {
    start({ requireScaSessionAtExecute: true });
    const [a, b] = [await customer(), await customer()];
    const us = await customer("US");
    const q = await quote(a, b);
    const refused = await execute(a, q, undefined, "key-1");
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("SCA_SESSION_REQUIRED");
    // Nothing moved: the quote still waits to be executed, the wallet keeps its balance.
    expect((await call(t, "GET", `/quotes/${q.id}`)).body.status).toBe("PENDING");
    const balance = async () =>
      (await call(t, "GET", `/customers/internal-accounts?customerId=${a.id}`)).body.data[0].balance
        .amount;
    expect(await balance()).toBe(5_000_000);
    // After a login, the same execute under the same key goes through, once.
    await smsLogin(a);
    const paid = await execute(a, q, undefined, "key-1");
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe("PENDING_AUTHORIZATION");
    expect((await execute(a, q, undefined, "key-1")).body).toEqual(paid.body);
    expect(await balance()).toBe(4_000_000);
    // Customers outside SCA regions are never asked for it.
    const usQuote = await quote(us, b);
    expect((await execute(us, usQuote)).status).toBe(200);
  });

  it("requireScaLogin: false restores authorize without a login", async () => {
    start({ requireScaLogin: false });
    const [a, b] = [await customer(), await customer()];
    const q = await quote(a, b);
    await execute(a, q);
    expect((await call(t, "POST", `/quotes/${q.id}/authorize`, { code: "123456" })).status).toBe(
      200,
    );
  });

  it("SMS login: no phone, another factor, a wrong challengeId; wrong codes lock at 5 (423)", async () => {
    const noPhone = await customer("FR", { phone: false });
    const r = await call(t, "POST", `/sca/login/start?customerId=${noPhone.id}`, {
      factor: "SMS_OTP",
    });
    expect(r.body.details.reason).toBe("SCA_FACTOR_NOT_ENROLLED");
    const eu = await customer();
    const passkey = await call(t, "POST", `/sca/login/start?customerId=${eu.id}`, {
      factor: "PASSKEY",
    });
    expect(passkey.body.details.reason).toBe("SCA_FACTOR_NOT_ENROLLED");
    const started = await call(t, "POST", `/sca/login/start?customerId=${eu.id}`, {
      factor: "SMS_OTP",
    });
    expect(started.body).toMatchObject({ factor: "SMS_OTP", challengeId: expect.any(String) });
    const complete = (code: string, extra: Record<string, unknown> = {}) =>
      call(t, "POST", `/sca/login/complete?customerId=${eu.id}`, {
        factor: "SMS_OTP",
        challengeId: started.body.challengeId,
        code,
        endUserIpAddress: IP,
        ...extra,
      });
    expect((await complete("123456", { endUserIpAddress: undefined })).status).toBe(400);
    expect((await complete("123456", { challengeId: "other" })).status).toBe(400);
    for (let i = 1; i <= 4; i++) {
      const wrong = await complete("000000");
      expect(wrong.status).toBe(400);
      expect(wrong.body.details.failedAttempts).toBe(i);
    }
    const locked = await complete("000000");
    expect(locked.status).toBe(423);
    expect(locked.body.code).toBe("ACCOUNT_LOCKED");
    expect(locked.body.details).toMatchObject({ failedAttempts: 5, suspended: false });
    expect(Date.parse(locked.body.details.lockedUntil) - emulator.clock.now()).toBe(15 * 60_000);
    // Locked: even the right code is 423, judged first.
    expect((await complete("123456")).status).toBe(423);
  });

  it("FAILED_LOGIN_ATTEMPT escalates 15 min, 30 min, 1 h, 24 h, then suspends", async () => {
    const eu = await customer();
    const event = () =>
      call(t, "POST", `/sca/record-event?customerId=${eu.id}`, {
        eventType: "FAILED_LOGIN_ATTEMPT",
      });
    for (let i = 1; i <= 4; i++) expect((await event()).body.lockedUntil).toBeNull();
    const minutes = [15, 30, 60, 24 * 60];
    for (const [i, m] of minutes.entries()) {
      const r = await event();
      expect(r.status).toBe(200);
      expect(r.body.failedAttempts).toBe(5 + i);
      expect(Date.parse(r.body.lockedUntil) - emulator.clock.now()).toBe(m * 60_000);
    }
    const suspended = await event();
    expect(suspended.body).toMatchObject({ suspended: true, lockedUntil: null, failedAttempts: 9 });
    emulator.advanceClock(48 * 3600_000);
    const login = await call(t, "POST", `/sca/login/complete?customerId=${eu.id}`, {
      factor: "SMS_OTP",
      code: "123456",
      endUserIpAddress: IP,
    });
    expect(login.status).toBe(423);
    expect(login.body.details.suspended).toBe(true);
    const reset = await call(t, "POST", `/sca/record-event?customerId=${eu.id}`, {
      eventType: "RESET_PASSWORD_COMPLETED",
    });
    expect(reset.body).toMatchObject({ suspended: false, failedAttempts: 0 });
    await smsLogin(eu);
  });
});

describe("passkeys for SCA", () => {
  for (const shape of ["json", "publicKey"] as const) {
    it(`logs in and authorizes with the SCA passkey (options shape ${shape})`, async () => {
      start({ passkeyOptionsShape: shape });
      const [a, b] = [await customer(), await customer()];
      const { authenticator } = await enrolPasskey(a);
      const unwrap = (o: Record<string, unknown>) =>
        (shape === "publicKey" ? o.publicKey : o) as Parameters<
          typeof authenticator.getAssertion
        >[0];
      const login = await call(t, "POST", `/sca/login/start?customerId=${a.id}`, {
        factor: "PASSKEY",
      });
      expect(login.body).toMatchObject({ allowedOrigins: [ORIGIN], relyingPartyId: "localhost" });
      if (shape === "publicKey")
        expect(Object.keys(login.body.passkeyOptions)).toEqual(["publicKey"]);
      const assertion = await authenticator.getAssertion(unwrap(login.body.passkeyOptions));
      const done = await call(t, "POST", `/sca/login/complete?customerId=${a.id}`, {
        factor: "PASSKEY",
        passkeyAssertion: assertion,
        origin: ORIGIN,
        endUserIpAddress: IP,
      });
      expect(done.body.status).toBe("SUCCESS");
      const q = await quote(a, b);
      const executed = await execute(a, q, { scaFactor: "PASSKEY" });
      const challenge = executed.body.scaChallenge;
      expect(challenge).toMatchObject({
        factor: "PASSKEY",
        availableFactors: ["SMS_OTP", "PASSKEY"],
      });
      const options = unwrap(challenge.passkeyAssertionOptions);
      expect(options).toMatchObject({
        rpId: "localhost",
        userVerification: "required",
        allowCredentials: [{ id: authenticator.credentials[0]!.id, type: "public-key" }],
      });
      const proof = await authenticator.getAssertion(options);
      const ok = await call(t, "POST", `/quotes/${q.id}/authorize`, {
        passkeyAssertion: proof,
        origin: ORIGIN,
      });
      expect(ok.status).toBe(200);
      expect(ok.body.status).toBe("PROCESSING");
    });
  }

  it("a wallet sign-in passkey is no SCA passkey", async () => {
    const [a, b] = [await customer(), await customer()];
    const { authenticator, credential } = await enrolPasskey(a);
    await smsLogin(a);
    // Deleted as an SCA factor, the passkey no longer authorizes and PASSKEY is refused.
    await call(t, "DELETE", `/sca/factors/${credential.id}?customerId=${a.id}`);
    const q = await quote(a, b);
    expect((await execute(a, q, { scaFactor: "PASSKEY" })).body.details.reason).toBe(
      "SCA_FACTOR_NOT_ENROLLED",
    );
    expect(authenticator.credentials).toHaveLength(1);
  });
});

describe("wallet privacy: PATCH /internal-accounts/{id}", () => {
  it("is a signed retry over a SIGN_RAW_PAYLOAD_V2 naming the change", async () => {
    const a = await customer("US");
    const path = `/internal-accounts/${a.account.id}`;
    expect(a.account.privateEnabled).toBe(false);
    const { challenge, result } = await signedCall(
      t,
      "PATCH",
      path,
      { privateEnabled: true },
      a.sessionKey,
    );
    expect(challenge.status).toBe(202);
    const payload: string = challenge.body.payloadToSign;
    expect(payload.endsWith("\n")).toBe(true);
    const parsed = JSON.parse(payload);
    expect(Object.keys(parsed)).toEqual(["organizationId", "parameters", "timestampMs", "type"]);
    expect(Object.keys(parsed.parameters)).toEqual([
      "encoding",
      "hashFunction",
      "payload",
      "signWith",
    ]);
    expect(parsed).toMatchObject({
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      parameters: { encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" },
    });
    expect(Buffer.from(parsed.parameters.payload, "hex").toString("utf8")).toBe(
      `{"internalAccountId":"${a.account.id}","privateEnabled":true}`,
    );
    expect(parsed.parameters.signWith).toBe(
      a.account.fundingPaymentInstructions[0].accountOrWalletInfo.address,
    );
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: a.account.id, privateEnabled: true });
    const listed = await call(t, "GET", `/customers/internal-accounts?customerId=${a.id}`);
    expect(listed.body.data[0].privateEnabled).toBe(true);
  });

  it("the retry must carry the same body; no field is 400", async () => {
    const a = await customer("US");
    const path = `/internal-accounts/${a.account.id}`;
    expect((await call(t, "PATCH", path, {})).status).toBe(400);
    const leg1 = await call(t, "PATCH", path, { privateEnabled: true });
    const retry = await call(
      t,
      "PATCH",
      path,
      { privateEnabled: false },
      {
        [SIGNATURE]: stamp(leg1.body.payloadToSign, a.sessionKey),
        "Request-Id": leg1.body.requestId,
      },
    );
    expect(retry.status).toBe(401);
    expect(retry.body.code).toBe("WALLET_SIGNATURE_BODY_MISMATCH");
  });
});

describe("contact verification", () => {
  it("EU customers verify email and phone with 123456; others have none (409)", async () => {
    const eu = await customer();
    expect(eu.customer.contactVerification).toEqual({ email: "PENDING", phone: "PENDING" });
    const path = `/customers/${eu.id}`;
    const early = await call(t, "POST", `${path}/verify-email/confirm`, { code: "123456" });
    expect(early.status).toBe(400);
    expect((await call(t, "POST", `${path}/verify-email`)).status).toBe(204);
    expect((await call(t, "POST", `${path}/verify-email/confirm`, { code: "000000" })).status).toBe(
      400,
    );
    const ok = await call(t, "POST", `${path}/verify-email/confirm`, { code: "123456" });
    expect(ok.status).toBe(200);
    expect(ok.body.contactVerification).toEqual({ email: "VERIFIED", phone: "PENDING" });
    expect((await call(t, "POST", `${path}/verify-email`)).status).toBe(409);
    await call(t, "POST", `${path}/verify-phone`);
    const phone = await call(t, "POST", `${path}/verify-phone/confirm`, { code: "123456" });
    expect(phone.body.contactVerification).toEqual({ email: "VERIFIED", phone: "VERIFIED" });
    // A new phone number needs verifying again.
    const changed = await call(t, "PATCH", path, {
      customerType: "INDIVIDUAL",
      phoneNumber: "+4915155559999",
    });
    expect(changed.body.contactVerification.phone).toBe("PENDING");
    const us = await customer("US");
    expect(us.customer.contactVerification).toBeUndefined();
    expect((await call(t, "POST", `/customers/${us.id}/verify-email`)).status).toBe(409);
  });
});

describe("customers, lists", () => {
  it("PATCH requires customerType, refuses changing it and a phone another customer uses", async () => {
    const [a, b] = [await customer("US"), await customer("US")];
    const path = `/customers/${a.id}`;
    expect((await call(t, "PATCH", path, { fullName: "A" })).status).toBe(400);
    expect((await call(t, "PATCH", path, { customerType: "BUSINESS", fullName: "A" })).status).toBe(
      400,
    );
    const taken = await call(t, "PATCH", path, {
      customerType: "INDIVIDUAL",
      phoneNumber: b.customer.phoneNumber,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.details.reason).toBe("PHONE_NUMBER_ALREADY_EXISTS");
  });

  it("GET /transactions: the spec's filters, newest first, paged", async () => {
    const [a, b] = [await customer("US"), await customer("US")];
    for (let i = 0; i < 3; i++) {
      emulator.advanceClock(1_000);
      await execute(a, await quote(a, b));
    }
    const all = await call(t, "GET", `/transactions?accountIdentifier=${a.account.id}`);
    expect(all.body.data.map((x: { type: string }) => x.type)).toEqual([
      "OUTGOING",
      "OUTGOING",
      "OUTGOING",
      "INCOMING",
    ]);
    const asc = await call(
      t,
      "GET",
      `/transactions?senderAccountIdentifier=${a.account.id}&sortOrder=asc&limit=2`,
    );
    expect(asc.body).toMatchObject({
      hasMore: true,
      nextCursor: expect.any(String),
      totalCount: 3,
    });
    const next = await call(
      t,
      "GET",
      `/transactions?senderAccountIdentifier=${a.account.id}&sortOrder=asc&limit=2&cursor=${asc.body.nextCursor}`,
    );
    expect(next.body.data).toHaveLength(1);
    expect(next.body.hasMore).toBe(false);
    const received = await call(
      t,
      "GET",
      `/transactions?receiverAccountIdentifier=${b.account.id}&type=OUTGOING&status=PROCESSING`,
    );
    expect(received.body.totalCount).toBe(3);
    expect((await call(t, "GET", "/transactions?limit=0")).status).toBe(400);
    expect((await call(t, "GET", "/transactions?startDate=yesterday")).status).toBe(400);
  });

  it("GET /customers/internal-accounts pages with limit and cursor", async () => {
    for (let i = 0; i < 3; i++) await customer("US");
    const page = await call(t, "GET", "/customers/internal-accounts?limit=2");
    expect(page.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(page.body.data).toHaveLength(2);
    const rest = await call(
      t,
      "GET",
      `/customers/internal-accounts?limit=2&cursor=${page.body.nextCursor}`,
    );
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.hasMore).toBe(false);
    expect((await call(t, "GET", "/customers/internal-accounts?limit=101")).status).toBe(400);
  });
});
