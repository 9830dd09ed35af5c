// A passkey sign-in the service still answers PROCESSING for, kept across a reload
// (docs/protocol.md §2.5, #850's verify), over the real chain (device → relay → emulator): the
// unsigned verify (the WebAuthn assertion and the challenge's Request-Id) is kept with the key
// the device sent noted in the key store, the page goes, and a new client over the same stores
// re-sends the identical request, proves the session is that key's (a refresh stamped by it) and
// holds the refreshed one. A sign-out then leaves no session of the sign-in at the service.
import {
  addPasskey,
  createMemoryKeyStore,
  type FetchFunction,
  listSessions,
  signInWithPasskey,
  signOut,
} from "@signet/core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pendingOf, quiet, sharedPendingStore, until } from "./support/pendingStore.js";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());
beforeEach(() => stack.clearRequests());
afterEach(() => fetch(`${stack.emulator.url}/_emulator/faults`, { method: "DELETE" }));

type Sent = { url: string; body: string | undefined; headers: Headers };

/** A fetch that records what the device sends to the verify. */
function recording(sent: Sent[]): FetchFunction {
  return async (input, init) => {
    const url = String(input);
    if (init?.method === "POST" && /\/verify$/.test(new URL(url).pathname))
      sent.push({ url, body: init.body as string | undefined, headers: new Headers(init.headers) });
    return fetch(input, init);
  };
}

const possible = async (keyStore: ReturnType<typeof createMemoryKeyStore>) =>
  (await keyStore.list()).filter((id) => id.startsWith("signet.possible|"));

/**
 * Signs up with a passkey, starts a passkey sign-in on a fresh page whose verify the service
 * answers PROCESSING again and again, waits until it is kept, and lets the page go.
 */
async function passkeySignInThenReload() {
  const user = await stack.signUp();
  const owner = stack.client(user.customerId);
  await signInWithEmail(owner.client, user.emailCredentialId);
  const passkey = await addPasskey(owner.client, {
    accountId: user.accountId,
    nickname: "Phone",
    challenge: registrationChallenge(),
    rp: { id: "localhost", name: "Signet test" },
    user: passkeyUser("kept"),
  });
  const before = (await listSessions(owner.client, { accountId: user.accountId })).map((s) => s.id);
  const keyStore = createMemoryKeyStore();
  const pendingStore = sharedPendingStore();
  const sent: Sent[] = [];
  const tab = stack.client(user.customerId, {
    keyStore,
    pendingStore,
    webauthn: owner.authenticator.provider,
    fetch: recording(sent),
  });
  const path = `/auth/credentials/${passkey.id}/verify`;
  await stack.fault({ match: { method: "POST", path }, count: 1000, kind: "processing" });
  const controller = new AbortController();
  const call = signInWithPasskey(tab.client, {
    credentialId: passkey.id,
    signal: controller.signal,
  });
  await until(
    async () => (await pendingStore.list()).length === 1 && pendingOf(tab.events).length >= 3,
    "the kept passkey sign-in, answered PROCESSING three times",
  );
  controller.abort();
  await expect(call).rejects.toMatchObject({ code: "ABORTED" });
  tab.client.destroy();
  await quiet(stack);
  await fetch(`${stack.emulator.url}/_emulator/faults`, { method: "DELETE" });
  const [kept] = await pendingStore.list();
  if (!kept) throw new Error("nothing kept");
  return { ...user, owner, passkey, before, keyStore, pendingStore, sent, kept, path };
}

describe("a passkey sign-in still processing", () => {
  it("is kept unsigned with its Request-Id and the sent key's public key only; the key stays in the key store", async () => {
    const { kept, keyStore, accountId, passkey, sent } = await passkeySignInThenReload();
    const [first] = sent;
    expect(kept).toMatchObject({
      action: "signInWithPasskey",
      accountId,
      method: "POST",
      path: `/auth/credentials/${passkey.id}/verify`,
      body: first!.body,
      requestId: first!.headers.get("Request-Id"),
      finish: { kind: "adoptSession", accountId, credentialId: passkey.id },
    });
    expect(kept.signature).toBeUndefined();
    expect(first!.headers.has("Grid-Wallet-Signature")).toBe(false);
    const noted = await possible(keyStore);
    expect(noted).toHaveLength(1);
    expect(noted[0]!.endsWith(`|${(kept.finish as { publicKey: string }).publicKey}`)).toBe(true);
  });

  it("resumes after a reload: re-sent as it went, proven, held; a sign-out leaves no session of it at the service", async () => {
    const setup = await passkeySignInThenReload();
    const { kept, accountId, customerId, keyStore, pendingStore, sent, path, passkey } = setup;
    await stack.clearRequests();
    await stack.fault({ match: { method: "POST", path }, count: 2, kind: "processing" });
    const after: Sent[] = [];
    const reloaded = stack.client(customerId, { keyStore, pendingStore, fetch: recording(after) });
    const ended = await reloaded.client.pending.resume();
    expect(ended).toMatchObject([
      { action: "signInWithPasskey", requestId: kept.requestId, outcome: "settled", status: 200 },
    ]);
    // The identical request, re-sent: body and request id, unsigned; no new challenge.
    expect(after).toHaveLength(3);
    for (const r of after) {
      expect(r.url).toBe(sent[0]!.url);
      expect(r.body).toBe(sent[0]!.body);
      expect(r.headers.get("Request-Id")).toBe(kept.requestId);
      expect(r.headers.has("Grid-Wallet-Signature")).toBe(false);
    }
    const log = await stack.requests();
    expect(log.filter((r) => r.path === path).map((r) => r.fault ?? r.status)).toEqual([
      "processing",
      "processing",
      200,
    ]);
    const [session] = await reloaded.client.sessions.list(accountId);
    // The proof: the verify's session refreshed (challenge, then the stamp of the key sent).
    const refreshes = log.filter(
      (r) => r.method === "POST" && /^\/auth\/sessions\/Session:[^/]+\/refresh$/.test(r.path),
    );
    expect(refreshes.map((r) => r.status)).toEqual([202, 201]);
    expect(session).toMatchObject({ accountId, credentialId: passkey.id });
    // Held under a fresh key of the device (the refreshed session), not the key that was sent.
    expect(session!.publicKey).not.toBe((kept.finish as { publicKey: string }).publicKey);
    expect(reloaded.events).toContainEqual(
      expect.objectContaining({ type: "session", sessionId: session!.id }),
    );
    expect(pendingOf(reloaded.events).map((e) => e.state)).toEqual([
      "resumed",
      "processing",
      "processing",
      "settled",
    ]);
    expect(await possible(keyStore)).toEqual([]);
    expect(await pendingStore.list()).toEqual([]);
    // The session signs (its sign-out is taken), and none of the sign-in's sessions is left.
    await signOut(reloaded.client, { accountId });
    const left = (await listSessions(setup.owner.client, { accountId })).map((s) => s.id);
    expect(left.sort()).toEqual([...setup.before].sort());
  });
});
