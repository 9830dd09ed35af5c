// The relay in front of the emulator refuses every id kind that belongs to another customer,
// for the resources a wallet flow creates (quotes, transactions, delegated keys, sessions, credentials).
import { createDelegatedKey, executeQuote, getQuote } from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack, USER_HEADER } from "./support/stack.js";

let stack: Stack;
let owner: {
  customerId: string;
  accountId: string;
  quoteId: string;
  transactionId: string;
  delegatedKeyId: string;
  sessionId: string;
  credentialId: string;
};
let intruder: { customerId: string };

beforeAll(async () => {
  stack = await startStack();
  const user = await stack.signUp();
  const { quoteId } = await stack.walletQuote(user);
  const card = await stack.platform<{ id: string }>("POST", "/cards", {
    cardholderId: user.customerId,
    fundingSources: [user.accountId],
    form: "VIRTUAL",
  });
  const { client } = stack.client(user.customerId);
  const session = await signInWithEmail(client, user.emailCredentialId);
  const executed = await executeQuote(client, {
    quote: await getQuote(client, { quoteId }),
  });
  const delegated = await createDelegatedKey(client, {
    accountId: user.accountId,
    cardId: card.body.id,
    nickname: "Owner card",
  });
  owner = {
    customerId: user.customerId,
    accountId: user.accountId,
    quoteId,
    transactionId: executed.transactionId!,
    delegatedKeyId: delegated.id,
    sessionId: session.id,
    credentialId: user.emailCredentialId,
  };
  intruder = { customerId: (await stack.signUp()).customerId };
});
afterAll(() => stack?.close());

async function asIntruder(method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.relayUrl}${path}`, {
    method,
    headers: { [USER_HEADER]: intruder.customerId, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => undefined)) as { code?: string } | undefined,
  };
}

describe("relay ownership against the emulator", () => {
  it.each([
    ["GET", () => `/quotes/${owner.quoteId}`],
    ["POST", () => `/quotes/${owner.quoteId}/execute`],
    ["GET", () => `/transactions/${owner.transactionId}`],
    ["GET", () => `/auth/delegated-keys/${owner.delegatedKeyId}`],
    ["DELETE", () => `/auth/delegated-keys/${owner.delegatedKeyId}`],
    ["GET", () => `/auth/delegated-keys?accountId=${owner.accountId}`],
    ["DELETE", () => `/auth/sessions/${owner.sessionId}`],
    ["POST", () => `/auth/sessions/${owner.sessionId}/refresh`],
    ["POST", () => `/auth/credentials/${owner.credentialId}/challenge`],
    ["DELETE", () => `/auth/credentials/${owner.credentialId}`],
    ["POST", () => `/internal-accounts/${owner.accountId}/export`],
    ["PATCH", () => `/customers/${owner.customerId}`],
  ])("%s %s of another customer is 403 RELAY_FORBIDDEN", async (method, path) => {
    const body =
      method === "PATCH" ? { email: "stolen@example.com" } : method === "POST" ? {} : undefined;
    const answer = await asIntruder(method, path(), body);
    expect(answer.status).toBe(403);
    expect(answer.body?.code).toBe("RELAY_FORBIDDEN");
  });

  it("leaves the owner's resources untouched", async () => {
    const key = await stack.platform<{ status: string }>(
      "GET",
      `/auth/delegated-keys/${owner.delegatedKeyId}`,
    );
    expect(key.body.status).toBe("ACTIVE");
    const sessions = await stack.platform<{ data: Array<{ id: string }> }>(
      "GET",
      `/auth/sessions?accountId=${owner.accountId}`,
    );
    expect(sessions.body.data.map((s) => s.id)).toContain(owner.sessionId);
  });
});
