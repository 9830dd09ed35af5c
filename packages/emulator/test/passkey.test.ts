// Passkeys: registration (signed retry) and sign-in with a software authenticator, in process.
import { randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../src/index.js";
import { createSoftAuthenticator, type SoftAuthenticator } from "../src/testing/index.js";
import {
  call,
  newKey,
  openLegacySessionKey,
  processTarget,
  signedCall,
  signUp,
  type Target,
} from "./testClient.js";

let emulator: Emulator;
let t: Target;
let authenticator: SoftAuthenticator;
beforeEach(() => {
  emulator = createEmulator();
  t = processTarget(emulator);
  authenticator = createSoftAuthenticator({ rpId: "localhost", origin: "http://localhost:5173" });
});

const b64u = (b: Uint8Array | string) => Buffer.from(b).toString("base64url");

async function registration(auth: SoftAuthenticator, overrides = {}) {
  const challenge = b64u(randomBytes(32));
  const reg = await auth.createCredential(
    {
      rp: { id: "localhost", name: "Signet demo" },
      user: { id: b64u(randomBytes(16)), name: "ada@example.com", displayName: "Ada" },
      challenge,
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      authenticatorSelection: { userVerification: "required", residentKey: "required" },
    },
    overrides,
  );
  return {
    challenge,
    attestation: {
      credentialId: reg.rawId,
      clientDataJson: reg.response.clientDataJSON,
      attestationObject: reg.response.attestationObject,
      transports: reg.response.transports,
    },
  };
}

async function addPasskey(
  user: Awaited<ReturnType<typeof signUp>>,
  nickname = "Ada's laptop (Chrome)",
) {
  const reg = await registration(authenticator);
  const body = { type: "PASSKEY", accountId: user.account.id, nickname, ...reg };
  const { challenge, result } = await signedCall(
    t,
    "POST",
    "/auth/credentials",
    body,
    user.sessionKey,
  );
  expect(challenge.body.type).toBe("PASSKEY");
  return { result, body };
}

async function passkeySignIn(
  credentialId: string,
  passkeyId: string,
  clientPublicKey: string,
  overrides = {},
) {
  const ch = await call(t, "POST", `/auth/credentials/${credentialId}/challenge`, {
    clientPublicKey,
  });
  expect(ch.status).toBe(200);
  const assertion = await authenticator.getAssertion(
    {
      challenge: b64u(ch.body.challenge),
      rpId: "localhost",
      allowCredentials: [{ id: passkeyId, type: "public-key" }],
      userVerification: "required",
    },
    overrides,
  );
  const body = {
    type: "PASSKEY",
    assertion: {
      credentialId: assertion.rawId,
      clientDataJson: assertion.response.clientDataJSON,
      authenticatorData: assertion.response.authenticatorData,
      signature: assertion.response.signature,
      userHandle: assertion.response.userHandle,
    },
  };
  return { challenge: ch.body, body };
}

describe("passkeys", () => {
  it("registers with a session stamp and signs in with the challenge's UTF-8 hex bytes", async () => {
    const user = await signUp(t);
    const { result } = await addPasskey(user);
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ type: "PASSKEY", nickname: "Ada's laptop (Chrome)" });
    const passkeyId = authenticator.credentials[0]!.id;
    expect(result.body.credentialId).toBe(passkeyId);
    const client = newKey();
    const { challenge, body } = await passkeySignIn(
      result.body.id,
      passkeyId,
      client.publicKeyCompressed,
    );
    expect(challenge).toMatchObject({
      id: result.body.id,
      type: "PASSKEY",
      credentialId: passkeyId,
    });
    expect(challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.requestId).toMatch(/^Request:/);
    const path = `/auth/credentials/${result.body.id}/verify`;
    const missing = await call(t, "POST", path, body);
    expect(missing.body.code).toBe("REQUEST_ID_MISSING");
    const ok = await call(t, "POST", path, body, { "Request-Id": challenge.requestId });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ type: "PASSKEY", accountId: user.account.id });
    expect(ok.body.encryptedSessionSigningKey).toBeUndefined();
    const reused = await call(t, "POST", path, body, { "Request-Id": challenge.requestId });
    expect(reused.body.details.reason).toBe("REQUEST_ID_ALREADY_USED");
    // The client key bound at /challenge is the session key.
    const { result: exported } = await signedCall(
      t,
      "POST",
      `/internal-accounts/${user.account.id}/export`,
      { clientPublicKey: newKey().publicKeyUncompressed },
      client,
    );
    expect(exported.status).toBe(200);
  });

  it("returns a sealed session key for an uncompressed clientPublicKey (legacy)", async () => {
    const user = await signUp(t);
    const { result } = await addPasskey(user);
    const recipient = newKey();
    const { challenge, body } = await passkeySignIn(
      result.body.id,
      result.body.credentialId,
      recipient.publicKeyUncompressed,
    );
    const ok = await call(t, "POST", `/auth/credentials/${result.body.id}/verify`, body, {
      "Request-Id": challenge.requestId,
    });
    const sessionKey = openLegacySessionKey(ok.body.encryptedSessionSigningKey, recipient);
    const { result: revoked } = await signedCall(
      t,
      "DELETE",
      `/auth/sessions/${ok.body.id}`,
      undefined,
      sessionKey,
    );
    expect(revoked.status).toBe(204);
  });

  it("refuses an assertion over another challenge, without user verification, or after expiry", async () => {
    const user = await signUp(t);
    const { result } = await addPasskey(user);
    const path = `/auth/credentials/${result.body.id}/verify`;
    const client = newKey().publicKeyCompressed;
    const first = await passkeySignIn(result.body.id, result.body.credentialId, client);
    const second = await passkeySignIn(result.body.id, result.body.credentialId, client);
    const crossed = await call(t, "POST", path, first.body, {
      "Request-Id": second.challenge.requestId,
    });
    expect(crossed.status).toBe(401);
    expect(crossed.body.details.reason).toBe("PASSKEY_ASSERTION_INVALID");
    const noUv = await passkeySignIn(result.body.id, result.body.credentialId, client, {
      userVerified: false,
    });
    const refused = await call(t, "POST", path, noUv.body, {
      "Request-Id": noUv.challenge.requestId,
    });
    expect(refused.body.details.reason).toBe("PASSKEY_ASSERTION_INVALID");
    emulator.advanceClock(5 * 60_000);
    const late = await call(t, "POST", path, second.body, {
      "Request-Id": second.challenge.requestId,
    });
    expect(late.body.details.reason).toBe("REQUEST_ID_EXPIRED");
  });

  it("refuses a duplicate credential id, a bad nickname, a wrong origin and a missing UV at registration", async () => {
    const user = await signUp(t);
    const { result, body } = await addPasskey(user);
    expect(result.status).toBe(201);
    const dup = await call(t, "POST", "/auth/credentials", body);
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe("PASSKEY_CREDENTIAL_ALREADY_EXISTS");
    const reg = await registration(authenticator);
    const nick = await call(t, "POST", "/auth/credentials", {
      type: "PASSKEY",
      accountId: user.account.id,
      nickname: "laptop <script>",
      ...reg,
    });
    expect(nick.body.details.errors[0].field).toBe("nickname");
    const evil = await registration(authenticator, { origin: "https://evil.example" });
    const wrongOrigin = await call(t, "POST", "/auth/credentials", {
      type: "PASSKEY",
      accountId: user.account.id,
      nickname: "x",
      ...evil,
    });
    expect(wrongOrigin.status).toBe(400);
    expect(wrongOrigin.body.details.errors[0].field).toBe("attestation");
    const noUv = await registration(authenticator, { userVerified: false });
    const refused = await call(t, "POST", "/auth/credentials", {
      type: "PASSKEY",
      accountId: user.account.id,
      nickname: "x",
      ...noUv,
    });
    expect(refused.status).toBe(400);
    const wrongChallenge = await call(t, "POST", "/auth/credentials", {
      type: "PASSKEY",
      accountId: user.account.id,
      nickname: "x",
      ...reg,
      challenge: b64u(randomBytes(32)),
    });
    expect(wrongChallenge.status).toBe(400);
  });

  it("accepts a configured origin and RP ID", async () => {
    const e = createEmulator({
      webauthn: { rpId: "wallet.example", origins: ["https://wallet.example"] },
    });
    const target = processTarget(e);
    const user = await signUp(target);
    const auth = createSoftAuthenticator({
      rpId: "wallet.example",
      origin: "https://wallet.example",
    });
    const challenge = b64u(randomBytes(32));
    const reg = await auth.createCredential({
      rp: { id: "wallet.example", name: "Wallet" },
      user: { id: b64u(randomBytes(16)), name: "u", displayName: "u" },
      challenge,
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    });
    const { result } = await signedCall(
      target,
      "POST",
      "/auth/credentials",
      {
        type: "PASSKEY",
        accountId: user.account.id,
        nickname: "Phone",
        challenge,
        attestation: {
          credentialId: reg.rawId,
          clientDataJson: reg.response.clientDataJSON,
          attestationObject: reg.response.attestationObject,
        },
      },
      user.sessionKey,
    );
    expect(result.status).toBe(201);
  });
});
