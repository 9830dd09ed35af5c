// Issue #22, session adoption over the real chain: a sign-in or refresh whose answer was lost
// adopts a session only when the key this device made for the call proves it is that session's
// (docs/architecture.md "Retries"). Another device's session made in the same moment is never
// adopted, and is left working.
import {
  exportWallet,
  type FetchFunction,
  listSessions,
  refreshSession,
  requestOtp,
  verifyOtp,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

const isSignedLeg = (init: RequestInit, path: string) => {
  const headers = new Headers(init.headers);
  return headers.has("Request-Id") && headers.has("Grid-Wallet-Signature") && path;
};

/**
 * A fetch that, on the first signed leg whose URL includes `path`, runs `meanwhile` and then
 * either loses the answer after the service took the request (`"answer"`) or drops the request
 * before it leaves, `times` times in a row (`"request"`).
 */
function losing(
  path: string,
  lose: "answer" | "request",
  meanwhile: () => Promise<void>,
  times = 1,
): FetchFunction {
  let lost = 0;
  return async (input, init) => {
    if (!isSignedLeg(init, path) || !String(input).includes(path) || lost >= times)
      return fetch(input, init);
    if (lost++ === 0) await meanwhile();
    if (lose === "answer") await fetch(input, init);
    throw new TypeError("fetch failed: socket hang up");
  };
}

const fast = { retry: { backoff: { baseMs: 5, maxMs: 20 } } };

describe("an OTP sign-in whose answer was lost", () => {
  it("adopts its own session, proven by its key, although another device signed in at the same moment", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client: other } = stack.client(customerId);
    await signInWithEmail(other, emailCredentialId);
    const { client } = stack.client(customerId, {
      ...fast,
      // The other device refreshes (a new session) while this device's verify is taken and
      // its answer lost: two new sessions, one of them this device's.
      fetch: losing("/verify", "answer", async () => {
        await refreshSession(other, { accountId });
      }),
    });
    const otp = await requestOtp(client, { credentialId: emailCredentialId });
    const session = await verifyOtp(client, { ...otp, otpCode: "000000" });
    const theirs = (await other.sessions.list(accountId))[0]!;
    expect(session.id).not.toBe(theirs.id);
    // Both devices sign with their own sessions.
    expect((await exportWallet(client, { accountId })).split(" ").length).toBeGreaterThan(11);
    expect((await exportWallet(other, { accountId })).split(" ").length).toBeGreaterThan(11);
    const listed = (await listSessions(client, { accountId })).map((s) => s.id);
    expect(listed).toEqual(expect.arrayContaining([session.id, theirs.id]));
  });

  it("never adopts another device's session when its own verify did not get through", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client: other } = stack.client(customerId);
    await signInWithEmail(other, emailCredentialId);
    const { client } = stack.client(customerId, {
      ...fast,
      // Every send of the signed verify dies before it leaves (the retries run out) while the
      // other device makes the one new session of the account.
      fetch: losing(
        "/verify",
        "request",
        async () => {
          await refreshSession(other, { accountId });
        },
        4,
      ),
    });
    const otp = await requestOtp(client, { credentialId: emailCredentialId });
    const session = await verifyOtp(client, { ...otp, otpCode: "000000" });
    const theirs = (await other.sessions.list(accountId))[0]!;
    // The proof refused the other session; the verify ran again and made this device's own.
    expect(session.id).not.toBe(theirs.id);
    expect((await exportWallet(client, { accountId })).split(" ").length).toBeGreaterThan(11);
    expect((await exportWallet(other, { accountId })).split(" ").length).toBeGreaterThan(11);
  });
});

describe("a refresh whose answer was lost", () => {
  it("adopts the session its key proves, not another device's made at the same moment", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client: other } = stack.client(customerId);
    await signInWithEmail(other, emailCredentialId);
    const { client: signer } = stack.client(customerId);
    await signInWithEmail(signer, emailCredentialId);
    const { client, events } = stack.client(customerId, {
      ...fast,
      keyStore: await signer.keyStore(),
      fetch: losing("/refresh", "answer", async () => {
        await refreshSession(other, { accountId });
      }),
    });
    const before = (await client.sessions.list(accountId))[0]!;
    const refreshed = await refreshSession(client, { accountId });
    const theirs = (await other.sessions.list(accountId))[0]!;
    expect(refreshed.id).not.toBe(before.id);
    expect(refreshed.id).not.toBe(theirs.id);
    expect((await client.sessions.list(accountId)).map((s) => s.id)).toEqual([refreshed.id]);
    expect((await exportWallet(client, { accountId })).split(" ").length).toBeGreaterThan(11);
    expect((await exportWallet(other, { accountId })).split(" ").length).toBeGreaterThan(11);
    expect(events).not.toContainEqual(
      expect.objectContaining({ type: "session", action: "expired" }),
    );
  });
});
