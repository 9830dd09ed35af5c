import {
  addCredential,
  addPasskey,
  getSession,
  listCredentials,
  listSessions,
  preparePasskeySignIn,
  refreshSession,
  revokeCredential,
  revokeSession,
  SignetError,
  signInWithOAuth,
  signInWithPasskey,
  signOut,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxIdToken } from "./support/oidc.js";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

const rp = { id: "localhost", name: "Signet test" };

describe("passkeys: core → relay → emulator", () => {
  it("adds a passkey under an email session, then signs in with it on a fresh key", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client, authenticator } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const passkey = await addPasskey(client, {
      accountId,
      nickname: "Test phone",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser("alice"),
    });
    expect(passkey.type).toBe("PASSKEY");
    expect(authenticator.credentials).toHaveLength(1);

    const session = await signInWithPasskey(client, { credentialId: passkey.id });
    expect(session.credentialId).toBe(passkey.id);
    expect((await getSession(client, { accountId }))?.id).toBe(session.id);
  });

  it("prepares the challenge ahead of the tap and uses it once", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const passkey = await addPasskey(client, {
      accountId,
      nickname: "Laptop",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser("bob"),
    });
    const prepared = await preparePasskeySignIn(client, { credentialId: passkey.id });
    expect(prepared.challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    await signInWithPasskey(client, { prepared });
    const reused = await signInWithPasskey(client, { prepared }).catch((e) => e);
    expect(reused).toBeInstanceOf(SignetError);
    expect(reused.status).toBe(401);
  });

  it("refuses a duplicate passkey with PASSKEY_CREDENTIAL_ALREADY_EXISTS", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { authenticator } = stack.client(customerId);
    // An authenticator that answers every registration with the same credential (a replay).
    let first: Awaited<ReturnType<typeof authenticator.provider.register>> | undefined;
    const replaying = {
      register: async (options: Parameters<typeof authenticator.provider.register>[0]) => {
        first ??= await authenticator.provider.register(options);
        return first;
      },
      authenticate: (options: Parameters<typeof authenticator.provider.authenticate>[0]) =>
        authenticator.provider.authenticate(options),
    };
    const { client } = stack.client(customerId, { webauthn: replaying });
    await signInWithEmail(client, emailCredentialId);
    const challenge = registrationChallenge();
    const user = passkeyUser("carol");
    await addPasskey(client, { accountId, nickname: "One", challenge, rp, user });
    const error = await addPasskey(client, {
      accountId,
      nickname: "Two",
      challenge,
      rp,
      user,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(SignetError);
    expect(error.code).toBe("PASSKEY_CREDENTIAL_ALREADY_EXISTS");
    expect(error.status).toBe(400);
  });

  it("maps a dismissed prompt to WEBAUTHN_CANCELLED and holds no new session", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client, authenticator } = stack.client(customerId);
    const email = await signInWithEmail(client, emailCredentialId);
    const passkey = await addPasskey(client, {
      accountId,
      nickname: "Phone",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser("erin"),
    });
    authenticator.failNext("NotAllowedError");
    const cancelled = await signInWithPasskey(client, { credentialId: passkey.id }).catch((e) => e);
    expect(cancelled).toBeInstanceOf(SignetError);
    expect(cancelled.code).toBe("WEBAUTHN_CANCELLED");
    expect(client.sessions.getSnapshot()[accountId]?.map((s) => s.id)).toEqual([email.id]);
    authenticator.failNext("InvalidStateError");
    const registered = await addPasskey(client, {
      accountId,
      nickname: "Again",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser("erin"),
    }).catch((e) => e);
    expect(registered.code).toBe("WEBAUTHN_INVALID_STATE");
  });
});

describe("OAuth: core → relay → emulator", () => {
  it("adds an OAuth credential and signs in with a token bound to the session key", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const sub = `google-${Date.now()}`;
    const oauth = await addCredential(client, {
      accountId,
      type: "OAUTH",
      oidcToken: sandboxIdToken({ sub }),
    });
    expect(oauth.type).toBe("OAUTH");
    let seenNonce = "";
    const session = await signInWithOAuth(client, {
      credentialId: oauth.id,
      getIdToken: async ({ nonce }) => {
        seenNonce = nonce;
        return sandboxIdToken({ sub, nonce });
      },
    });
    expect(seenNonce).toMatch(/^[0-9a-f]{64}$/);
    expect(session.credentialId).toBe(oauth.id);
  });

  it("refuses a stale token and a token with another nonce", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const sub = `google-stale-${Date.now()}`;
    const oauth = await addCredential(client, {
      accountId,
      type: "OAUTH",
      oidcToken: sandboxIdToken({ sub }),
    });
    const stale = await signInWithOAuth(client, {
      credentialId: oauth.id,
      getIdToken: async ({ nonce }) =>
        sandboxIdToken({ sub, nonce, iat: Math.floor(Date.now() / 1000) - 120 }),
    }).catch((e) => e);
    expect(stale).toBeInstanceOf(SignetError);
    expect(stale.status).toBe(401);
    const wrongNonce = await signInWithOAuth(client, {
      credentialId: oauth.id,
      getIdToken: async () => sandboxIdToken({ sub, nonce: "0".repeat(64) }),
    }).catch((e) => e);
    expect(wrongNonce.status).toBe(401);
  });
});

describe("credentials and sessions", () => {
  it("adds an SMS credential, lists, and refuses a second EMAIL_OTP", async () => {
    const { customerId, accountId, emailCredentialId, email } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const error = await addCredential(client, { accountId, type: "EMAIL_OTP", email }).catch(
      (e) => e,
    );
    expect(error.code).toBe("EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS");
    const credentials = await listCredentials(client, { accountId });
    expect(credentials).toHaveLength(1);
  });

  it("revokes a credential only with a session from another credential, and never the last one", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const last = await revokeCredential(client, {
      accountId,
      credentialId: emailCredentialId,
      type: "EMAIL_OTP",
    }).catch((e) => e);
    expect(last.code).toBe("NO_SESSION"); // the only session is the email one
    const passkey = await addPasskey(client, {
      accountId,
      nickname: "Key",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser("dan"),
    });
    await signInWithPasskey(client, { credentialId: passkey.id });
    await revokeCredential(client, {
      accountId,
      credentialId: emailCredentialId,
      type: "EMAIL_OTP",
    });
    const remaining = await listCredentials(client, { accountId });
    expect(remaining.map((c) => c.id)).toEqual([passkey.id]);
    // The email session ended with its credential; the passkey session remains.
    const sessions = await listSessions(client, { accountId });
    expect(sessions).toHaveLength(1);
    expect((await getSession(client, { accountId }))?.credentialId).toBe(passkey.id);
  });

  it("refreshes, lists, revokes and signs out", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client, events } = stack.client(customerId);
    const first = await signInWithEmail(client, emailCredentialId);
    const refreshed = await refreshSession(client, { accountId });
    expect(refreshed.id).not.toBe(first.id);
    expect(refreshed.publicKey).not.toBe(first.publicKey);
    expect((await getSession(client, { accountId }))?.id).toBe(refreshed.id);
    expect(client.sessions.getSnapshot()[accountId]).toHaveLength(1);

    // A second device signs in; this one revokes it.
    const other = stack.client(customerId).client;
    const otherSession = await signInWithEmail(other, emailCredentialId);
    const listed = await listSessions(client, { accountId });
    expect(listed.map((s) => s.id)).toContain(otherSession.id);
    await revokeSession(client, { accountId, sessionId: otherSession.id });
    const gone = await revokeSession(client, { accountId, sessionId: otherSession.id }).catch(
      (e) => e,
    );
    expect(gone.status).toBe(404);

    // A session revoked elsewhere meanwhile is already signed out: no error for it.
    const elsewhere = await signInWithEmail(client, emailCredentialId);
    const third = stack.client(customerId).client;
    await signInWithEmail(third, emailCredentialId);
    await revokeSession(third, { accountId, sessionId: elsewhere.id });
    await signOut(client, { accountId });
    expect(await getSession(client, { accountId })).toBeUndefined();
    expect(await (await client.keyStore()).list()).toEqual([]);
    expect(events.some((e) => e.type === "session" && e.action === "signedOut")).toBe(true);
  });
});
