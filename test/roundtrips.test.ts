// Each flow makes exactly the protocol's minimum number of requests (read from the emulator's
// request log), and a held session signs later actions with no new sign-in. The client talks to
// the emulator directly here, so every logged request is the device's own (no relay lookups).

import {
  addCredential,
  addPasskey,
  createDelegatedKey,
  executeQuote,
  exportWallet,
  getDelegatedKey,
  getQuote,
  listCredentials,
  listDelegatedKeys,
  listInternalAccounts,
  listSessions,
  refreshSession,
  requestOtp,
  revokeCredential,
  revokeDelegatedKey,
  revokeSession,
  type SignetClient,
  signInWithOAuth,
  signInWithPasskey,
  signOut,
  updateCustomerContact,
  verifyOtp,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxIdToken } from "./support/oidc.js";
import { passkeyUser, registrationChallenge } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
let client: SignetClient;
let ids: {
  customerId: string;
  accountId: string;
  emailCredentialId: string;
  cardId: string;
  quoteId: string;
};

/** Runs `action` and returns the requests it made, as `METHOD /path status`. */
async function requestsOf(action: () => Promise<unknown>): Promise<string[]> {
  await stack.clearRequests();
  await action();
  return (await stack.requests()).map(
    (r) => `${r.method} ${r.path.replace(/[A-Za-z]+:[0-9a-f-]{36}/g, ":id")} ${r.status}`,
  );
}

beforeAll(async () => {
  stack = await startStack({ settlementDelayMs: 10 });
  const user = await stack.signUp("trips@example.com", { phoneNumber: "+15555550111" });
  const { quoteId } = await stack.walletQuote(user);
  const card = await stack.platform<{ id: string }>("POST", "/cards", {
    cardholderId: user.customerId,
    fundingSources: [user.accountId],
    form: "VIRTUAL",
  });
  ids = { ...user, cardId: card.body.id, quoteId };
  client = stack.directClient().client;
});
afterAll(() => stack?.close());

describe("round trips per flow", () => {
  const state: Record<string, string> = {};

  it("email OTP sign-in: challenge, verify (202), signed verify", async () => {
    expect(
      await requestsOf(async () => {
        const otp = await requestOtp(client, { credentialId: ids.emailCredentialId });
        await verifyOtp(client, { ...otp, otpCode: "000000" });
      }),
    ).toEqual([
      "POST /auth/credentials/:id/challenge 200",
      "POST /auth/credentials/:id/verify 202",
      "POST /auth/credentials/:id/verify 200",
    ]);
  });

  it("every signed action after it uses the held session: no new challenge or sign-in", async () => {
    expect(await requestsOf(() => listCredentials(client, { accountId: ids.accountId }))).toEqual([
      "GET /auth/credentials 200",
    ]);
    expect(await requestsOf(() => listSessions(client, { accountId: ids.accountId }))).toEqual([
      "GET /auth/sessions 200",
    ]);
    expect(
      await requestsOf(() => listInternalAccounts(client, { customerId: ids.customerId })),
    ).toEqual(["GET /customers/internal-accounts 200"]);
    expect(await requestsOf(() => exportWallet(client, { accountId: ids.accountId }))).toEqual([
      "POST /internal-accounts/:id/export 202",
      "POST /internal-accounts/:id/export 200",
    ]);
    expect(
      await requestsOf(() =>
        updateCustomerContact(client, {
          customerId: ids.customerId,
          accountId: ids.accountId,
          email: "trips2@example.com",
        }),
      ),
    ).toEqual(["PATCH /customers/:id 202", "PATCH /customers/:id 200"]);
  });

  it("add passkey: signed add (the WebAuthn ceremony is local); passkey sign-in: challenge + verify", async () => {
    expect(
      await requestsOf(async () => {
        state.passkeyId = (
          await addPasskey(client, {
            accountId: ids.accountId,
            nickname: "Trips",
            challenge: registrationChallenge(),
            rp: { id: "localhost", name: "T" },
            user: passkeyUser("trips"),
          })
        ).id;
      }),
    ).toEqual(["POST /auth/credentials 202", "POST /auth/credentials 201"]);
    expect(
      await requestsOf(async () => {
        state.passkeySession = (
          await signInWithPasskey(client, { credentialId: state.passkeyId! })
        ).id;
      }),
    ).toEqual([
      "POST /auth/credentials/:id/challenge 200",
      "POST /auth/credentials/:id/verify 200",
      // The proof that the session is this device's key's (docs/protocol.md §11).
      "POST /auth/sessions/:id/refresh 202",
      "POST /auth/sessions/:id/refresh 201",
    ]);
  });

  it("OAuth: signed add; sign-in is one verify", async () => {
    const sub = "trips-google";
    expect(
      await requestsOf(async () => {
        state.oauthId = (
          await addCredential(client, {
            accountId: ids.accountId,
            type: "OAUTH",
            oidcToken: sandboxIdToken({ sub }),
          })
        ).id;
      }),
    ).toEqual(["POST /auth/credentials 202", "POST /auth/credentials 201"]);
    expect(
      await requestsOf(() =>
        signInWithOAuth(client, {
          credentialId: state.oauthId!,
          getIdToken: async ({ nonce }) => sandboxIdToken({ sub, nonce }),
        }),
      ),
    ).toEqual(["POST /auth/credentials/:id/verify 200"]);
  });

  it("refresh, revoke session, revoke credential: two legs each", async () => {
    expect(await requestsOf(() => refreshSession(client, { accountId: ids.accountId }))).toEqual([
      "POST /auth/sessions/:id/refresh 202",
      "POST /auth/sessions/:id/refresh 201",
    ]);
    expect(
      await requestsOf(() =>
        revokeSession(client, { accountId: ids.accountId, sessionId: state.passkeySession! }),
      ),
    ).toEqual(["DELETE /auth/sessions/:id 202", "DELETE /auth/sessions/:id 204"]);
    expect(
      await requestsOf(() =>
        revokeCredential(client, {
          accountId: ids.accountId,
          credentialId: state.oauthId!,
          type: "OAUTH",
        }),
      ),
    ).toEqual(["DELETE /auth/credentials/:id 202", "DELETE /auth/credentials/:id 204"]);
  });

  it("quote: one read, one signed execute", async () => {
    const quote = await getQuote(client, { quoteId: ids.quoteId });
    expect(await requestsOf(() => executeQuote(client, { quote }))).toEqual([
      "POST /quotes/:id/execute 200",
    ]);
  });

  it("delegated key: three legs; get, list, revoke: one each", async () => {
    expect(
      await requestsOf(async () => {
        state.delegatedKeyId = (
          await createDelegatedKey(client, {
            accountId: ids.accountId,
            cardId: ids.cardId,
            nickname: "Card",
          })
        ).id;
      }),
    ).toEqual([
      "POST /auth/delegated-keys 202",
      "POST /auth/delegated-keys 202",
      "POST /auth/delegated-keys 201",
    ]);
    expect(
      await requestsOf(() => getDelegatedKey(client, { delegatedKeyId: state.delegatedKeyId! })),
    ).toEqual(["GET /auth/delegated-keys/:id 200"]);
    expect(await requestsOf(() => listDelegatedKeys(client, { accountId: ids.accountId }))).toEqual(
      ["GET /auth/delegated-keys 200"],
    );
    expect(
      await requestsOf(() => revokeDelegatedKey(client, { delegatedKeyId: state.delegatedKeyId! })),
    ).toEqual(["DELETE /auth/delegated-keys/:id 204"]);
  });

  it("sign out: one signed revoke per held session", async () => {
    const held = (await client.sessions.list(ids.accountId)).length;
    const log = await requestsOf(() => signOut(client, { accountId: ids.accountId }));
    expect(log).toHaveLength(2 * held);
    expect(log.filter((l) => l.endsWith("204"))).toHaveLength(held);
  });
});
