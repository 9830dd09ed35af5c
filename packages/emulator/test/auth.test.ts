// /auth/*: OTP, OAuth, credentials, sessions and the signed-retry rules, in process.
import { beforeEach, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../src/index.js";
import {
  call,
  newKey,
  oidcToken,
  openLegacySessionKey,
  otpSignIn,
  processTarget,
  readTargetBundle,
  SIGNATURE,
  sealOtp,
  sha256Hex,
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

const nowSeconds = () => Math.floor(emulator.clock.now() / 1000);
const googleToken = (extra: Record<string, unknown> = {}) =>
  oidcToken({
    iss: "https://accounts.google.com",
    aud: "demo-client-id",
    sub: "google-user-1",
    email: "ada@gmail.com",
    iat: nowSeconds(),
    ...extra,
  });

async function addOauth(user: Awaited<ReturnType<typeof signUp>>) {
  const { result } = await signedCall(
    t,
    "POST",
    "/auth/credentials",
    { type: "OAUTH", accountId: user.account.id, oidcToken: googleToken() },
    user.sessionKey,
  );
  expect(result.status).toBe(201);
  return result.body;
}

describe("email OTP", () => {
  it("provisions one EMAIL_OTP credential named by the email, and signs in with the TEK as session key", async () => {
    const user = await signUp(t, "grace@example.com");
    expect(user.credential).toMatchObject({
      type: "EMAIL_OTP",
      nickname: "grace@example.com",
      accountId: user.account.id,
    });
    expect(user.credential.credentialId).toBeUndefined();
    expect(user.verifyChallenge.status).toBe(202);
    expect(user.verifyChallenge.body).toMatchObject({ type: "EMAIL_OTP" });
    const [header, payload] = user.verifyChallenge.body.payloadToSign.split(".");
    expect(JSON.parse(Buffer.from(header, "base64url").toString())).toMatchObject({ alg: "ES256" });
    expect(JSON.parse(Buffer.from(payload, "base64url").toString()).public_key).toBe(
      user.sessionKey.publicKeyUncompressed,
    );
    expect(user.session).toMatchObject({
      accountId: user.account.id,
      type: "EMAIL_OTP",
      nickname: "grace@example.com",
    });
    expect(user.session.encryptedSessionSigningKey).toBeUndefined();
    expect(Date.parse(user.session.expiresAt) - emulator.clock.now()).toBeGreaterThan(14 * 60_000);
  });

  it("signs the target bundle with the attestation key", async () => {
    const user = await signUp(t);
    const r = await call(t, "POST", `/auth/credentials/${user.credential.id}/challenge`);
    expect(() =>
      readTargetBundle(r.body.otpEncryptionTargetBundle, emulator.keys.attestationPublicKey),
    ).not.toThrow();
    expect(() =>
      readTargetBundle(r.body.otpEncryptionTargetBundle, emulator.keys.signerPublicKey),
    ).toThrow();
  });

  it("refuses a wrong code with 401 OTP_CODE_INVALID and then 429 after repeated failures", async () => {
    const e = createEmulator({ otpFailureLimit: { max: 3, windowMs: 60_000 } });
    const target = processTarget(e);
    const user = await signUp(target);
    const ch = await call(target, "POST", `/auth/credentials/${user.credential.id}/challenge`);
    const targetPublic = readTargetBundle(
      ch.body.otpEncryptionTargetBundle,
      e.keys.attestationPublicKey,
    );
    const path = `/auth/credentials/${user.credential.id}/verify`;
    for (let i = 0; i < 3; i++) {
      const r = await call(target, "POST", path, {
        type: "EMAIL_OTP",
        encryptedOtpBundle: sealOtp(targetPublic, "123456", newKey()),
      });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({
        code: "UNAUTHORIZED",
        details: { reason: "OTP_CODE_INVALID" },
      });
    }
    const limited = await call(target, "POST", path, {
      type: "EMAIL_OTP",
      encryptedOtpBundle: sealOtp(targetPublic, "000000", newKey()),
    });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    e.advanceClock(60_000);
    const ok = await call(target, "POST", path, {
      type: "EMAIL_OTP",
      encryptedOtpBundle: sealOtp(targetPublic, "000000", newKey()),
    });
    expect(ok.status).toBe(202);
  });

  it("kills the previous target bundle on a new challenge", async () => {
    const user = await signUp(t);
    const first = await call(t, "POST", `/auth/credentials/${user.credential.id}/challenge`);
    await call(t, "POST", `/auth/credentials/${user.credential.id}/challenge`);
    const stale = readTargetBundle(
      first.body.otpEncryptionTargetBundle,
      emulator.keys.attestationPublicKey,
    );
    const r = await call(t, "POST", `/auth/credentials/${user.credential.id}/verify`, {
      type: "EMAIL_OTP",
      encryptedOtpBundle: sealOtp(stale, "000000", newKey()),
    });
    expect(r.status).toBe(401);
    expect(r.body.details.reason).toBe("OTP_BUNDLE_UNDECRYPTABLE");
  });

  it("requires the retry to be stamped by the TEK itself", async () => {
    const user = await signUp(t);
    const ch = await call(t, "POST", `/auth/credentials/${user.credential.id}/challenge`);
    const targetPublic = readTargetBundle(
      ch.body.otpEncryptionTargetBundle,
      emulator.keys.attestationPublicKey,
    );
    const body = JSON.stringify({
      type: "EMAIL_OTP",
      encryptedOtpBundle: sealOtp(targetPublic, "000000", newKey()),
    });
    const { result } = await signedCall(
      t,
      "POST",
      `/auth/credentials/${user.credential.id}/verify`,
      body,
      user.sessionKey,
    );
    expect(result.status).toBe(401);
    expect(result.body.code).toBe("WALLET_SIGNATURE_INVALID");
  });

  it("refuses a bundle that is not the JSON text of encappedPublic and ciphertext", async () => {
    const user = await signUp(t);
    const r = await call(t, "POST", `/auth/credentials/${user.credential.id}/verify`, {
      type: "EMAIL_OTP",
      encryptedOtpBundle: "not json",
    });
    expect(r.status).toBe(400);
    expect(r.body.details.errors[0].field).toBe("encryptedOtpBundle");
    const wrongType = await call(t, "POST", `/auth/credentials/${user.credential.id}/verify`, {
      type: "SMS_OTP",
      encryptedOtpBundle: "{}",
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.details.errors[0].field).toBe("type");
  });

  it("rate limits challenge re-issue with Retry-After", async () => {
    const user = await signUp(t); // one challenge already issued
    const path = `/auth/credentials/${user.credential.id}/challenge`;
    for (let i = 0; i < 4; i++) expect((await call(t, "POST", path)).status).toBe(200);
    const r = await call(t, "POST", path);
    expect(r.status).toBe(429);
    expect(r.body.code).toBe("RATE_LIMITED");
    expect(r.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    emulator.advanceClock(60_000);
    expect((await call(t, "POST", path)).status).toBe(200);
  });
});

describe("credentials", () => {
  it("adds SMS_OTP (signed retry, 201 with a target bundle) and refuses a second", async () => {
    const e = createEmulator();
    const target = processTarget(e);
    const customer = await call(target, "POST", "/customers", {
      customerType: "INDIVIDUAL",
      email: "sms@example.com",
      phoneNumber: "+14155550100",
    });
    const accounts = await call(
      target,
      "GET",
      `/customers/internal-accounts?customerId=${customer.body.id}`,
    );
    const account = accounts.body.data[0];
    const creds = await call(target, "GET", `/auth/credentials?accountId=${account.id}`);
    const { sessionKey } = await otpSignIn(
      target,
      creds.body.data[0].id,
      e.keys.attestationPublicKey,
    );
    const body = { type: "SMS_OTP", accountId: account.id };
    const { challenge, result } = await signedCall(
      target,
      "POST",
      "/auth/credentials",
      body,
      sessionKey,
    );
    expect(challenge.status).toBe(202);
    expect(challenge.body.type).toBe("SMS_OTP");
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ type: "SMS_OTP", nickname: "+14155550100" });
    expect(typeof result.body.otpEncryptionTargetBundle).toBe("string");
    const sms = await otpSignIn(target, result.body.id, e.keys.attestationPublicKey);
    expect(sms.session.type).toBe("SMS_OTP");
    const dup = await call(target, "POST", "/auth/credentials", body);
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe("SMS_OTP_CREDENTIAL_ALREADY_EXISTS");
    const dupEmail = await call(target, "POST", "/auth/credentials", {
      type: "EMAIL_OTP",
      accountId: account.id,
    });
    expect(dupEmail.body.code).toBe("EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS");
  });

  it("refuses SMS_OTP when the customer has no phone number", async () => {
    const user = await signUp(t);
    const r = await call(t, "POST", "/auth/credentials", {
      type: "SMS_OTP",
      accountId: user.account.id,
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("INVALID_INPUT");
  });

  it("adds OAUTH, lists credentials, refuses the same identity twice", async () => {
    const user = await signUp(t);
    const oauth = await addOauth(user);
    expect(oauth).toMatchObject({ type: "OAUTH", nickname: "ada@gmail.com" });
    const list = await call(t, "GET", `/auth/credentials?accountId=${user.account.id}`);
    expect(list.body.data.map((c: { type: string }) => c.type)).toEqual(["EMAIL_OTP", "OAUTH"]);
    expect(list.body.hasMore).toBeUndefined();
    const dup = await call(t, "POST", "/auth/credentials", {
      type: "OAUTH",
      accountId: user.account.id,
      oidcToken: googleToken(),
    });
    // The service's 400 list names no code for it (docs/protocol.md §10).
    expect(dup.body).toMatchObject({
      code: "INVALID_INPUT",
      details: { reason: "OAUTH_CREDENTIAL_ALREADY_EXISTS" },
    });
    const badIssuer = await call(t, "POST", "/auth/credentials", {
      type: "OAUTH",
      accountId: user.account.id,
      oidcToken: oidcToken({ iss: "https://evil.example", aud: "a", sub: "s", iat: nowSeconds() }),
    });
    expect(badIssuer.status).toBe(400);
    expect(badIssuer.body.details.errors[0].field).toBe("oidcToken");
  });

  it("revokes a credential with a stamp from a different credential's session; its sessions end", async () => {
    const user = await signUp(t);
    const oauth = await addOauth(user);
    const client = newKey();
    const oauthSession = await call(t, "POST", `/auth/credentials/${oauth.id}/verify`, {
      type: "OAUTH",
      oidcToken: googleToken({ nonce: sha256Hex(client.publicKeyCompressed) }),
      clientPublicKey: client.publicKeyCompressed,
    });
    expect(oauthSession.status).toBe(200);
    // The OAUTH session cannot revoke its own credential.
    const self = await signedCall(t, "DELETE", `/auth/credentials/${oauth.id}`, undefined, client);
    expect(self.challenge.body.type).toBe("OAUTH");
    expect(self.result.body.code).toBe("WALLET_SIGNATURE_INVALID");
    const { result } = await signedCall(
      t,
      "DELETE",
      `/auth/credentials/${oauth.id}`,
      undefined,
      user.sessionKey,
    );
    expect(result.status).toBe(204);
    const sessions = await call(t, "GET", `/auth/sessions?accountId=${user.account.id}`);
    expect(sessions.body.data.map((s: { id: string }) => s.id)).toEqual([user.session.id]);
    const last = await call(t, "DELETE", `/auth/credentials/${user.credential.id}`);
    expect(last.status).toBe(400);
    expect(last.body.details.reason).toBe("LAST_CREDENTIAL");
    expect((await call(t, "DELETE", `/auth/credentials/${oauth.id}`)).status).toBe(404);
  });

  it("refuses unknown fields, a bad type and a bad id with every field named", async () => {
    const r = await call(t, "POST", "/auth/credentials", {
      type: "EMAIL_OTP",
      accountId: "InternalAccount:nope",
      extra: 1,
    });
    expect(r.status).toBe(400);
    expect(r.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "accountId",
      "extra",
    ]);
    const t2 = await call(t, "POST", "/auth/credentials", { type: "FINGER", accountId: "x" });
    expect(t2.body.details.errors[0].field).toBe("type");
    expect([...t2.body.details.errors[0].constraint.enum].sort()).toEqual([
      "EMAIL_OTP",
      "OAUTH",
      "PASSKEY",
      "SMS_OTP",
    ]);
    const unknown = await call(t, "POST", "/auth/credentials", {
      type: "EMAIL_OTP",
      accountId: "InternalAccount:00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.status).toBe(404);
  });
});

describe("OAuth sign-in", () => {
  it("checks identity, freshness and nonce; compressed key gives a client-held session", async () => {
    const user = await signUp(t);
    const oauth = await addOauth(user);
    const path = `/auth/credentials/${oauth.id}/verify`;
    const client = newKey();
    const nonce = sha256Hex(client.publicKeyCompressed);
    const verify = (token: string, key = client.publicKeyCompressed) =>
      call(t, "POST", path, { type: "OAUTH", oidcToken: token, clientPublicKey: key });
    const ok = await verify(googleToken({ nonce }));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ type: "OAUTH", accountId: user.account.id });
    expect(ok.body.encryptedSessionSigningKey).toBeUndefined();
    // The new session signs.
    const quoteless = await signedCall(
      t,
      "POST",
      `/internal-accounts/${user.account.id}/export`,
      { clientPublicKey: newKey().publicKeyUncompressed },
      client,
    );
    expect(quoteless.result.status).toBe(200);
    const reason = async (token: string, key?: string) =>
      (await verify(token, key)).body.details?.reason;
    expect(await reason(googleToken({ nonce, sub: "someone-else" }))).toBe(
      "OIDC_IDENTITY_MISMATCH",
    );
    expect(await reason(googleToken({ nonce, aud: "other-app" }))).toBe("OIDC_IDENTITY_MISMATCH");
    expect(await reason(googleToken({ nonce, iat: nowSeconds() - 61 }))).toBe("OIDC_TOKEN_STALE");
    // The sandbox's tokens carry a numeric exp on verify too.
    expect(await reason(googleToken({ nonce, exp: undefined }))).toBe("OIDC_TOKEN_STALE");
    expect(
      await reason(googleToken({ nonce: sha256Hex(client.publicKeyCompressed.toUpperCase()) })),
    ).toBe("OIDC_NONCE_MISMATCH");
    expect(await reason(googleToken({ nonce }), client.publicKeyUncompressed)).toBe(
      "OIDC_NONCE_MISMATCH",
    );
    expect((await verify("not-a-jwt")).status).toBe(400);
    const challenge = await call(t, "POST", `/auth/credentials/${oauth.id}/challenge`);
    expect(challenge.status).toBe(400);
  });

  it("uses the legacy flow for an uncompressed key: the sealed session key signs", async () => {
    const user = await signUp(t);
    const oauth = await addOauth(user);
    const recipient = newKey();
    const r = await call(t, "POST", `/auth/credentials/${oauth.id}/verify`, {
      type: "OAUTH",
      oidcToken: googleToken({ nonce: sha256Hex(recipient.publicKeyUncompressed) }),
      clientPublicKey: recipient.publicKeyUncompressed,
    });
    expect(r.status).toBe(200);
    expect(typeof r.body.encryptedSessionSigningKey).toBe("string");
    const sessionKey = openLegacySessionKey(r.body.encryptedSessionSigningKey, recipient);
    const list = await call(t, "GET", `/auth/sessions?accountId=${user.account.id}`);
    expect(
      list.body.data.every((s: Record<string, unknown>) => !("encryptedSessionSigningKey" in s)),
    ).toBe(true);
    const { result } = await signedCall(
      t,
      "DELETE",
      `/auth/sessions/${r.body.id}`,
      undefined,
      sessionKey,
    );
    expect(result.status).toBe(204);
  });
});

describe("sessions", () => {
  it("refreshes with a stamp of the current session; the old one ends", async () => {
    const user = await signUp(t);
    const next = newKey();
    const path = `/auth/sessions/${user.session.id}/refresh`;
    const { challenge, result } = await signedCall(
      t,
      "POST",
      path,
      { clientPublicKey: next.publicKeyCompressed },
      user.sessionKey,
    );
    expect(challenge.body.type).toBeUndefined();
    expect(result.status).toBe(201);
    expect(result.body.id).not.toBe(user.session.id);
    const list = await call(t, "GET", `/auth/sessions?accountId=${user.account.id}`);
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([result.body.id]);
    const again = await call(t, "POST", path, { clientPublicKey: next.publicKeyCompressed });
    expect(again.status).toBe(401);
    expect(again.body.details.reason).toBe("SESSION_NOT_ACTIVE");
  });

  it("refuses to refresh an expired session and refuses its stamps", async () => {
    const user = await signUp(t);
    emulator.advanceClock(15 * 60_000);
    const r = await call(t, "POST", `/auth/sessions/${user.session.id}/refresh`, {
      clientPublicKey: newKey().publicKeyCompressed,
    });
    expect(r.status).toBe(401);
    expect((await call(t, "GET", `/auth/sessions?accountId=${user.account.id}`)).body.data).toEqual(
      [],
    );
    const { result } = await signedCall(
      t,
      "POST",
      `/internal-accounts/${user.account.id}/export`,
      { clientPublicKey: newKey().publicKeyUncompressed },
      user.sessionKey,
    );
    expect(result.body.code).toBe("WALLET_SIGNATURE_INVALID");
  });

  it("revokes a session (202 with type → 204) and answers 404 for an inactive one", async () => {
    const user = await signUp(t);
    const second = await otpSignIn(t, user.credential.id, emulator.keys.attestationPublicKey);
    const { challenge, result } = await signedCall(
      t,
      "DELETE",
      `/auth/sessions/${second.session.id}`,
      undefined,
      user.sessionKey,
    );
    expect(challenge.body.type).toBe("EMAIL_OTP");
    expect(result.status).toBe(204);
    expect((await call(t, "DELETE", `/auth/sessions/${second.session.id}`)).status).toBe(404);
    expect(
      (await call(t, "DELETE", "/auth/sessions/Session:00000000-0000-4000-8000-000000000000"))
        .status,
    ).toBe(404);
    const self = await signedCall(
      t,
      "DELETE",
      `/auth/sessions/${user.session.id}`,
      undefined,
      user.sessionKey,
    );
    expect(self.result.status).toBe(204);
  });
});

describe("signed-retry rules", () => {
  async function pendingExport() {
    const user = await signUp(t);
    const path = `/internal-accounts/${user.account.id}/export`;
    const body = JSON.stringify({ clientPublicKey: newKey().publicKeyUncompressed });
    const leg1 = await call(t, "POST", path, body);
    expect(leg1.status).toBe(202);
    expect(leg1.body.requestId).toMatch(/^Request:[0-9a-f-]{36}$/);
    expect(Date.parse(leg1.body.expiresAt) - emulator.clock.now()).toBeLessThanOrEqual(5 * 60_000);
    // docs/protocol.md §11: the export activity names the key the device sent.
    const payload = JSON.parse(leg1.body.payloadToSign);
    expect(payload).toMatchObject({
      type: "ACTIVITY_TYPE_EXPORT_WALLET",
      parameters: { targetPublicKey: JSON.parse(body).clientPublicKey },
    });
    const signedHeaders = {
      [SIGNATURE]: stamp(leg1.body.payloadToSign, user.sessionKey),
      "Request-Id": leg1.body.requestId,
    };
    return { user, path, body, leg1, signedHeaders };
  }

  it("names the missing header", async () => {
    const p = await pendingExport();
    const noId = await call(t, "POST", p.path, p.body, { [SIGNATURE]: p.signedHeaders[SIGNATURE] });
    expect(noId.body.code).toBe("REQUEST_ID_MISSING");
    const noSig = await call(t, "POST", p.path, p.body, { "Request-Id": p.leg1.body.requestId });
    expect(noSig.body.code).toBe("WALLET_SIGNATURE_MISSING");
    expect(noSig.status).toBe(401);
  });

  it("refuses malformed stamps, another body and a foreign key, then still accepts the right retry", async () => {
    const p = await pendingExport();
    const malformed = await call(t, "POST", p.path, p.body, {
      ...p.signedHeaders,
      [SIGNATURE]: "e30",
    });
    expect(malformed.body.code).toBe("WALLET_SIGNATURE_MALFORMED");
    const otherBody = await call(
      t,
      "POST",
      p.path,
      JSON.stringify({ clientPublicKey: newKey().publicKeyUncompressed }),
      p.signedHeaders,
    );
    expect(otherBody.body.code).toBe("WALLET_SIGNATURE_BODY_MISMATCH");
    const spaced = await call(t, "POST", p.path, `${p.body} `, p.signedHeaders);
    expect(spaced.body.code).toBe("WALLET_SIGNATURE_BODY_MISMATCH");
    const foreign = await call(t, "POST", p.path, p.body, {
      ...p.signedHeaders,
      [SIGNATURE]: stamp(p.leg1.body.payloadToSign, newKey()),
    });
    expect(foreign.body.code).toBe("WALLET_SIGNATURE_INVALID");
    const ok = await call(t, "POST", p.path, p.body, p.signedHeaders);
    expect(ok.status).toBe(200);
    const reused = await call(t, "POST", p.path, p.body, p.signedHeaders);
    expect(reused.status).toBe(401);
    expect(reused.body).toMatchObject({
      code: "UNAUTHORIZED",
      details: { reason: "REQUEST_ID_ALREADY_USED" },
    });
  });

  it("refuses unknown, expired and misdirected request ids", async () => {
    const p = await pendingExport();
    const unknown = await call(t, "POST", p.path, p.body, {
      ...p.signedHeaders,
      "Request-Id": "Request:00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.body.details.reason).toBe("REQUEST_ID_UNKNOWN");
    const elsewhere = await call(
      t,
      "POST",
      `/auth/sessions/${p.user.session.id}/refresh`,
      {
        clientPublicKey: newKey().publicKeyCompressed,
      },
      p.signedHeaders,
    );
    expect(elsewhere.body.details.reason).toBe("REQUEST_ID_MISMATCH");
    emulator.advanceClock(5 * 60_000);
    const expired = await call(t, "POST", p.path, p.body, p.signedHeaders);
    expect(expired.body.details.reason).toBe("REQUEST_ID_EXPIRED");
  });

  it("a processing fault answers 200 PROCESSING and leaves the request id usable", async () => {
    const p = await pendingExport();
    emulator.addFault({
      kind: "processing",
      match: { method: "POST", path: "/internal-accounts" },
      count: 2,
    });
    for (let i = 0; i < 2; i++) {
      const r = await call(t, "POST", p.path, p.body, p.signedHeaders);
      expect(r.status).toBe(200);
      expect(r.body.status).toBe("PROCESSING");
    }
    const done = await call(t, "POST", p.path, p.body, p.signedHeaders);
    expect(done.body.encryptedWalletCredentials).toBeDefined();
  });
});
