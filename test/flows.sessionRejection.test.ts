// A 401 on a signed call made with a held session, over real HTTP (core → relay → emulator): the
// session is cleared once, not retried, however many calls met the 401 at once; a 401 about the
// request (a spent request id) keeps it; another session of the account stays.
import {
  executeQuote,
  getQuote,
  revokeSession,
  type SignetEvent,
  updateWalletPrivacy,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

const rejections = (events: SignetEvent[]) =>
  events.filter((e) => e.type === "session" && e.action === "rejected");

/** One customer signed in on two devices; the second revokes the first's session. */
async function revokedElsewhere() {
  const user = await stack.signUp();
  const phone = stack.client(user.customerId);
  const laptop = stack.client(user.customerId);
  const revoked = await signInWithEmail(phone.client, user.emailCredentialId);
  await signInWithEmail(laptop.client, user.emailCredentialId);
  await revokeSession(laptop.client, { accountId: user.accountId, sessionId: revoked.id });
  await stack.clearRequests();
  return { user, phone, laptop, revoked };
}

describe("a 401 on a call a held session stamped", () => {
  it("clears that session once, though three calls met the 401 at once; none is retried", async () => {
    const { user, phone, revoked } = await revokedElsewhere();
    const calls = await Promise.allSettled(
      [true, false, true].map((privateEnabled) =>
        updateWalletPrivacy(phone.client, { accountId: user.accountId, privateEnabled }),
      ),
    );
    expect(calls.map((c) => c.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const call of calls) {
      expect((call as PromiseRejectedResult).reason).toMatchObject({
        code: "WALLET_SIGNATURE_INVALID",
        status: 401,
      });
    }
    await phone.client.sessions.settled();
    expect(rejections(phone.events)).toEqual([
      {
        type: "session",
        action: "rejected",
        accountId: user.accountId,
        sessionId: revoked.id,
      },
    ]);
    expect(phone.client.sessions.getSnapshot()).toEqual({});
    expect(await (await phone.client.keyStore()).list()).toEqual([]);
    // Each call made one unsigned and one signed request; none was sent again.
    const signed = (await stack.requests()).filter((r) => r.hasSignature);
    expect(signed.map((r) => r.status)).toEqual([401, 401, 401]);
    // The next call knows there is no session, without asking the service.
    await expect(
      updateWalletPrivacy(phone.client, { accountId: user.accountId, privateEnabled: true }),
    ).rejects.toMatchObject({ code: "NO_SESSION" });
  });

  it("the other device's session stays, and signs on", async () => {
    const { user, phone, laptop, revoked } = await revokedElsewhere();
    await expect(
      updateWalletPrivacy(phone.client, { accountId: user.accountId, privateEnabled: true }),
    ).rejects.toMatchObject({ status: 401 });
    await phone.client.sessions.settled();
    expect(rejections(phone.events)).toEqual([
      expect.objectContaining({ action: "rejected", sessionId: revoked.id }),
    ]);
    expect(rejections(laptop.events)).toEqual([]);
    expect(laptop.client.sessions.getSnapshot()[user.accountId]).toHaveLength(1);
    await updateWalletPrivacy(laptop.client, { accountId: user.accountId, privateEnabled: true });
  });

  it("quote execute (a stamp without a request id) by a revoked session: cleared after the service confirms it is gone", async () => {
    const { user, phone, revoked } = await revokedElsewhere();
    const { quoteId } = await stack.walletQuote(user);
    // The quote is read by the laptop's backend: the phone's session is no longer needed to read.
    const quote = await getQuote(phone.client, { quoteId });
    const error = await executeQuote(phone.client, { quote }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401 });
    await phone.client.sessions.settled();
    expect(rejections(phone.events)).toEqual([
      expect.objectContaining({ action: "rejected", sessionId: revoked.id }),
    ]);
    expect(phone.client.sessions.getSnapshot()).toEqual({});
  });

  it("a 401 for a spent request id keeps a session the service still lists", async () => {
    const user = await stack.signUp();
    const { client, events } = stack.client(user.customerId);
    const held = await signInWithEmail(client, user.emailCredentialId);
    // The signed leg answers 401 UNAUTHORIZED as for a reused request id.
    await stack.fault({
      kind: "error",
      at: "signed",
      status: 401,
      code: "UNAUTHORIZED",
      message: "This Request-Id has already been used.",
    });
    await expect(
      updateWalletPrivacy(client, { accountId: user.accountId, privateEnabled: true }),
    ).rejects.toMatchObject({ status: 401 });
    await client.sessions.settled();
    expect(rejections(events)).toEqual([]);
    expect(client.sessions.getSnapshot()[user.accountId]?.map((s) => s.id)).toEqual([held.id]);
    // It asked the service once, and the service still lists the session.
    const asked = (await stack.requests()).filter(
      (r) => r.method === "GET" && r.path.startsWith("/auth/sessions"),
    );
    expect(asked.length).toBeGreaterThanOrEqual(1);
  });
});
