// A held session that expired on the service's clock (the service's clock jumped past it, as a
// device that slept sees it), over real HTTP (core → relay → emulator): export and execute end in
// SESSION_EXPIRED, not in the signature error, the quote's conflict or NO_SESSION the expiry
// caused; a quote that expired under a live session stays QUOTE_EXPIRED; a session ended
// elsewhere says sign in again as well; a 401 about a session the service still lists stays.
import {
  executeQuote,
  exportWallet,
  getQuote,
  refreshSession,
  revokeSession,
  type SignetClient,
  signOut,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDocumentedDetails } from "../packages/test/src/errorDetails.js";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

/** Moves the service's clock (the emulator's) forward; the device's stays. */
async function advanceServiceClock(ms: number): Promise<void> {
  const response = await fetch(`${stack.emulator.url}/_emulator/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ advanceMs: ms }),
  });
  expect(response.ok).toBe(true);
}

const SESSION_LIFETIME_MS = 15 * 60_000;
const QUOTE_LIFETIME_MS = 5 * 60_000;

async function signedIn() {
  const user = await stack.signUp();
  const { client, events } = stack.client(user.customerId);
  const session = await signInWithEmail(client, user.emailCredentialId);
  return { user, client, events, session };
}

const heldSessions = (client: SignetClient, accountId: string) =>
  client.sessions.getSnapshot()[accountId] ?? [];

describe("a session expired on the service's clock", () => {
  it("export: the first request after the jump meets a 401, and the call says SESSION_EXPIRED", async () => {
    const { user, client, session } = await signedIn();
    await advanceServiceClock(SESSION_LIFETIME_MS + 60_000);
    const error = await exportWallet(client, { accountId: user.accountId }).catch((e) => e);
    expect(error).toMatchObject({
      code: "SESSION_EXPIRED",
      status: 401,
      details: {
        accountId: user.accountId,
        sessionId: session.id,
        code: "WALLET_SIGNATURE_INVALID",
      },
      cause: { code: "WALLET_SIGNATURE_INVALID" },
    });
    // "SESSION_EXPIRED" carries what codes.ts lists, and no more.
    expectDocumentedDetails(error);
    await client.sessions.settled();
    expect(heldSessions(client, user.accountId)).toEqual([]);
  });

  it("execute of a fresh quote: the store drops the session on the way, and the call says SESSION_EXPIRED, not NO_SESSION", async () => {
    const { user, client, session } = await signedIn();
    await advanceServiceClock(SESSION_LIFETIME_MS + 60_000);
    const { quoteId } = await stack.walletQuote(user, 10_000);
    // The read teaches the client the service's time.
    const quote = await getQuote(client, { quoteId });
    await expect(executeQuote(client, { quote })).rejects.toMatchObject({
      code: "SESSION_EXPIRED",
      details: { accountId: user.accountId, sessionId: session.id, code: "NO_SESSION" },
    });
    const stored = await stack.platform<{ status: string }>("GET", `/quotes/${quoteId}`);
    expect(stored.body.status).toBe("PENDING");
  });

  it("execute of a quote that expired with the session: SESSION_EXPIRED first, as the service authenticates first", async () => {
    const { user, client } = await signedIn();
    const { quoteId } = await stack.walletQuote(user, 10_000);
    await advanceServiceClock(SESSION_LIFETIME_MS + 60_000);
    const quote = await getQuote(client, { quoteId });
    await expect(executeQuote(client, { quote })).rejects.toMatchObject({
      code: "SESSION_EXPIRED",
    });
  });

  it("execute whose first answer is the service's: 409 QUOTE_EXPIRED under an expired session says SESSION_EXPIRED", async () => {
    const { user, client, session } = await signedIn();
    const { quoteId } = await stack.walletQuote(user, 10_000);
    const quote = await getQuote(client, { quoteId });
    // The client has not seen the jump yet: its first answer after it is the execute's.
    await advanceServiceClock(SESSION_LIFETIME_MS + 60_000);
    await expect(executeQuote(client, { quote })).rejects.toMatchObject({
      code: "SESSION_EXPIRED",
      status: 409,
      details: { sessionId: session.id, code: "CONFLICT" },
    });
  });
});

describe("what stays as it was", () => {
  it("a quote that expired under a live session is QUOTE_EXPIRED, and nothing is signed", async () => {
    const { user, client } = await signedIn();
    const { quoteId } = await stack.walletQuote(user, 10_000);
    await advanceServiceClock(QUOTE_LIFETIME_MS + 60_000);
    const quote = await getQuote(client, { quoteId });
    await stack.clearRequests();
    await expect(executeQuote(client, { quote })).rejects.toMatchObject({
      code: "QUOTE_EXPIRED",
      details: { quoteId },
    });
    expect((await stack.requests()).filter((r) => r.path.endsWith("/execute"))).toEqual([]);
    expect(heldSessions(client, user.accountId)).toHaveLength(1);
    await signOut(client, { accountId: user.accountId });
  });

  it("a session ended elsewhere says sign in again too, as a refresh does: SESSION_EXPIRED with the 401 as cause", async () => {
    const { user, client, session } = await signedIn();
    const laptop = stack.client(user.customerId).client;
    await signInWithEmail(laptop, user.emailCredentialId);
    await revokeSession(laptop, { accountId: user.accountId, sessionId: session.id });
    await expect(exportWallet(client, { accountId: user.accountId })).rejects.toMatchObject({
      code: "SESSION_EXPIRED",
      status: 401,
      details: { sessionId: session.id, code: "WALLET_SIGNATURE_INVALID" },
      cause: { code: "WALLET_SIGNATURE_INVALID" },
    });
  });

  it("refreshing a session ended elsewhere (the relay's 403, before any stamp) says SESSION_EXPIRED and drops it from the device", async () => {
    const { user, client, events, session } = await signedIn();
    const laptop = stack.client(user.customerId).client;
    await signInWithEmail(laptop, user.emailCredentialId);
    await revokeSession(laptop, { accountId: user.accountId, sessionId: session.id });
    await expect(
      refreshSession(client, { accountId: user.accountId, sessionId: session.id }),
    ).rejects.toMatchObject({
      code: "SESSION_EXPIRED",
      details: { sessionId: session.id },
    });
    // Held no more, said once: the next call asks for a sign-in instead of stamping refusals.
    expect(heldSessions(client, user.accountId)).toEqual([]);
    expect(
      events.filter(
        (e) => e.type === "session" && e.action === "expired" && e.sessionId === session.id,
      ),
    ).toHaveLength(1);
    await expect(exportWallet(client, { accountId: user.accountId })).rejects.toMatchObject({
      code: "NO_SESSION",
    });
  });

  it("a 401 while the service still lists the session keeps the service's code", async () => {
    const { user, client } = await signedIn();
    // A signature error about the request, not the session: the session stays listed.
    await stack.fault({
      kind: "error",
      status: 401,
      code: "WALLET_SIGNATURE_INVALID",
      at: "signed",
      match: { path: `/internal-accounts/${user.accountId}/export` },
    });
    await expect(exportWallet(client, { accountId: user.accountId })).rejects.toMatchObject({
      code: "WALLET_SIGNATURE_INVALID",
      status: 401,
    });
  });

  it("without any session held it is NO_SESSION", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    await expect(exportWallet(client, { accountId: user.accountId })).rejects.toMatchObject({
      code: "NO_SESSION",
    });
  });
});
