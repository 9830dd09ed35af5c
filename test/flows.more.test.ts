// The less common paths: SMS OTP, the legacy session flow, automatic refresh, cancellation, and
// the service's last-credential rule reached through the engine.
import {
  addCredential,
  addPasskey,
  executeQuote,
  exportWallet,
  getQuote,
  getSession,
  refreshSession,
  requestOtp,
  SignetError,
  signInWithOAuth,
  signInWithPasskey,
  verifyOtp,
  waitForTransaction,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeCredentialPayload } from "../packages/core/src/actions/revokeCredential.js";
// The engine is core's internal (not exported): reached by path.
import { runSignedRequest } from "../packages/core/src/transport/signedRequest.js";
import { sandboxIdToken } from "./support/oidc.js";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sessionTtlMs: 60_000, settlementDelayMs: 60_000 });
});
afterAll(() => stack?.close());

const rp = { id: "localhost", name: "Signet test" };

describe("less common flows", () => {
  it("adds an SMS credential and signs in with its code", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp(undefined, {
      phoneNumber: "+15555550123",
    });
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const sms = await addCredential(client, {
      accountId,
      type: "SMS_OTP",
      phoneNumber: "+15555550123",
    });
    expect(sms.type).toBe("SMS_OTP");
    const otp = await requestOtp(client, { credentialId: sms.id });
    const session = await verifyOtp(client, { ...otp, otpCode: "000000" });
    expect(session.credentialId).toBe(sms.id);
  });

  it("signs in with the legacy flow only when asked, opening the sealed session key", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const passkey = await addPasskey(client, {
      accountId,
      nickname: "Legacy",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser("lee"),
    });
    await stack.clearRequests();
    const session = await signInWithPasskey(client, { credentialId: passkey.id, legacy: true });
    const held = (await client.sessions.list(accountId)).find((s) => s.id === session.id)!;
    // The key came from encryptedSessionSigningKey; it is importable and it signs for the service.
    expect(held.key.publicKey).toBe(session.publicKey);
    const challenge = (await stack.requests()).find((r) => r.path.endsWith("/challenge"));
    expect(challenge?.status).toBe(200);
    const { client: fresh } = stack.client(customerId, { keyStore: await client.keyStore() });
    expect((await getSession(fresh, { accountId }))?.id).toBe(session.id);
  });

  it("signs in with OAuth and refreshes in the legacy flow when asked, as the service's own clients do", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const sub = `legacy-${Date.now()}`;
    const oauth = await addCredential(client, {
      accountId,
      type: "OAUTH",
      oidcToken: sandboxIdToken({ sub }),
    });
    const { client: device } = stack.client(customerId);
    await stack.clearRequests();
    // A legacy answer must carry encryptedSessionSigningKey (the emulator seals one only for an
    // uncompressed clientPublicKey, and checks the token's nonce against that exact string), and
    // the held key is the one opened from it.
    const signedIn = await signInWithOAuth(device, {
      credentialId: oauth.id,
      legacy: true,
      getIdToken: async ({ nonce }) => sandboxIdToken({ sub, nonce }),
    });
    const refreshed = await refreshSession(device, { accountId, legacy: true });
    expect(refreshed.id).not.toBe(signedIn.id);
    // The refreshed key was made by the service and opened here: it stamps an export.
    expect(await exportWallet(device, { accountId })).toMatch(/^[a-z]+( [a-z]+){11}$/);
    const held = await device.sessions.list(accountId);
    expect(held.map((s) => s.id)).toEqual([refreshed.id]);
    // Without the option, the same credential gives a client-held session.
    const { client: plain } = stack.client(customerId);
    const clientHeld = await signInWithOAuth(plain, {
      credentialId: oauth.id,
      getIdToken: async ({ nonce }) => sandboxIdToken({ sub, nonce }),
    });
    expect(clientHeld.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
  });

  it("refreshes a held session automatically before it expires", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client, events } = stack.client(customerId, { autoRefresh: { marginMs: 59_500 } });
    const first = await signInWithEmail(client, emailCredentialId);
    await expect
      .poll(() => events.some((e) => e.type === "session" && e.action === "refreshed"), {
        timeout: 10_000,
      })
      .toBe(true);
    const current = await getSession(client, { accountId });
    expect(current?.id).not.toBe(first.id);
    client.destroy();
  });

  it("cancels waiting for a transaction with an AbortSignal", async () => {
    const user = await stack.signUp();
    const { quoteId } = await stack.walletQuote(user);
    const { client } = stack.client(user.customerId);
    await signInWithEmail(client, user.emailCredentialId);
    const executed = await executeQuote(client, {
      quote: await getQuote(client, { quoteId }),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const error = await waitForTransaction(client, {
      transactionId: executed.transactionId!,
      pollingInterval: 50,
      signal: controller.signal,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(SignetError);
    expect(error.code).toBe("ABORTED");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("surfaces the service's refusal to revoke the last credential", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const [session] = await client.sessions.list(accountId);
    // The high-level action refuses locally (no session from another credential); the engine
    // sends it anyway to show the service's own answer is mapped.
    const error = await runSignedRequest({
      transport: client.transport,
      method: "DELETE",
      path: `/auth/credentials/${emailCredentialId}`,
      expectedStatus: 204,
      sign: (payload) => client.crypto.stampPayload(payload, session!.key),
      checkPayload: revokeCredentialPayload(client, { accountId, type: "EMAIL_OTP" }),
    }).catch((e) => e);
    expect(error).toBeInstanceOf(SignetError);
    expect(error.status).toBe(400);
    expect(error.details?.reason ?? error.code).toMatch(/LAST_CREDENTIAL|INVALID_INPUT/);
  });
});
