// Session lifecycle under concurrency over the real chain: a refresh racing a sign-out or a
// revoke, and a held session the service no longer knows.
import {
  exportWallet,
  type FetchFunction,
  generateSigningKey,
  getSession,
  refreshSession,
  revokeSession,
  type SignetError,
  type SignetEvent,
  signOut,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

/**
 * A fetch that, once, holds back the answer to the signed leg of a refresh after the service has
 * produced it, until the test lets it through.
 */
function holdRefreshAnswer() {
  let reached!: () => void;
  let release!: () => void;
  const atGate = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let armed = true;
  const fetchFn: FetchFunction = async (input, init) => {
    const response = await fetch(input, init);
    const signed = new Headers(init.headers).has("Grid-Wallet-Signature");
    if (armed && signed && input.endsWith("/refresh")) {
      armed = false;
      reached();
      await gate;
    }
    return response;
  };
  return { fetch: fetchFn, atGate, release };
}

const activeSessions = async (accountId: string) =>
  (
    await stack.platform<{ data: Array<{ id: string }> }>(
      "GET",
      `/auth/sessions?accountId=${accountId}`,
    )
  ).body.data.map((s) => s.id);

describe("sessions under concurrency", () => {
  it("a refresh that completes after a sign-out does not sign the device back in", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const gated = holdRefreshAnswer();
    const { client, events } = stack.client(customerId, { fetch: gated.fetch });
    await signInWithEmail(client, emailCredentialId);

    const refreshing = refreshSession(client, { accountId }).catch((e: SignetError) => e);
    await gated.atGate; // the service has issued the new session (and ended the old one)
    await signOut(client, { accountId });
    gated.release();
    const outcome = await refreshing;

    expect(outcome).toMatchObject({ code: "NO_SESSION" });
    expect(await getSession(client, { accountId })).toBeUndefined();
    expect(await (await client.keyStore()).list()).toEqual([]);
    expect(events.some((e) => e.type === "session" && e.action === "refreshed")).toBe(false);
    // The session the refresh obtained is revoked too, not left active on the service.
    expect(await activeSessions(accountId)).toEqual([]);
  });

  it("a refresh that completes after its session was revoked does not resurrect it", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const gated = holdRefreshAnswer();
    const { client } = stack.client(customerId, { fetch: gated.fetch });
    const first = await signInWithEmail(client, emailCredentialId);
    const { client: other } = stack.client(customerId);
    await signInWithEmail(other, emailCredentialId);

    const refreshing = refreshSession(client, { accountId }).catch((e: SignetError) => e);
    await gated.atGate;
    // This device revokes its own (already refreshed) session: the service no longer knows it.
    await revokeSession(client, { accountId, sessionId: first.id });
    gated.release();
    await refreshing;

    expect(await getSession(client, { accountId })).toBeUndefined();
    expect(await activeSessions(accountId)).toEqual([(await getSession(other, { accountId }))?.id]);
  });

  it("revoking a held session the service already ended deletes its key", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    const mine = await signInWithEmail(client, emailCredentialId);
    const { client: other } = stack.client(customerId);
    await signInWithEmail(other, emailCredentialId);
    await revokeSession(other, { accountId, sessionId: mine.id });

    // The dead session would otherwise be picked to stamp every request until it expires.
    await revokeSession(client, { accountId, sessionId: mine.id });
    expect(await getSession(client, { accountId })).toBeUndefined();
    expect(await (await client.keyStore()).list()).toEqual([]);
  });

  it("a held session whose stored key can no longer be read is reported as lost once, removed, and the next signed call is NO_SESSION", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    const session = await signInWithEmail(client, emailCredentialId);
    // The key store survives a reload, but the browser evicted or corrupted the key inside it.
    const store = await client.keyStore();
    const [id] = await store.list();
    const record = (await store.get(id!))!;
    await store.set(id!, { ...record, privateKey: "not a key" } as never);

    const events: SignetEvent[] = [];
    const { client: reloaded } = stack.client(customerId, {
      keyStore: store,
      onEvent: (event) => events.push(event),
    });
    expect(await getSession(reloaded, { accountId })).toBeUndefined();
    expect(events.filter((e) => e.type === "session")).toEqual([
      { type: "session", action: "lost", accountId, sessionId: session.id },
    ]);
    expect(await store.list()).toEqual([]);
    const error = (await exportWallet(reloaded, { accountId }).catch((e) => e)) as SignetError;
    expect(error.code).toBe("NO_SESSION");
    expect(events.filter((e) => e.type === "session")).toHaveLength(1);
    // Nothing of the key in the event.
    expect(JSON.stringify(events)).not.toContain(record.publicKey.slice(2, 20));
  });

  it("a held session whose stored key is not its public key's never stamps: its first signature is refused (KEY_INVALID), it is reported as lost once and removed", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    const session = await signInWithEmail(client, emailCredentialId);
    // Another key's CryptoKey under this session's public key (a store that was tampered with).
    const store = await client.keyStore();
    const [id] = await store.list();
    const record = (await store.get(id!))!;
    const other = (await generateSigningKey()).toRecord();
    await store.set(id!, { ...record, privateKey: other.privateKey } as never);

    const events: SignetEvent[] = [];
    const stamped: string[] = [];
    const { client: reloaded } = stack.client(customerId, {
      keyStore: store,
      onEvent: (event) => events.push(event),
      fetch: (input, init) => {
        const stamp = new Headers(init.headers).get("Grid-Wallet-Signature");
        if (stamp !== null) stamped.push(input);
        return fetch(input, init);
      },
    });
    // The record restores (its public key is proven by the first signature, not at load).
    expect((await getSession(reloaded, { accountId }))?.id).toBe(session.id);
    const error = (await exportWallet(reloaded, { accountId }).catch((e) => e)) as SignetError;
    expect(error.code).toBe("KEY_INVALID");
    expect(stamped).toEqual([]);
    expect(events.filter((e) => e.type === "session")).toEqual([
      { type: "session", action: "lost", accountId, sessionId: session.id },
    ]);
    expect(await store.list()).toEqual([]);
    expect(await getSession(reloaded, { accountId })).toBeUndefined();
    const next = (await exportWallet(reloaded, { accountId }).catch((e) => e)) as SignetError;
    expect(next.code).toBe("NO_SESSION");
    expect(events.filter((e) => e.type === "session")).toHaveLength(1);
  });
});
