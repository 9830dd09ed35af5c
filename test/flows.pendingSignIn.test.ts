// An OTP sign-in the service still answers PROCESSING for, kept across a reload (docs/protocol.md
// §2.5, #850's verify), over the real chain (device → relay → emulator): the verify is kept with
// its one-time key noted in the key store, the page goes, and a new client over the same stores
// re-sends the identical request to its end and holds the session under that key, which then
// signs. A compromised relay's answer naming another key adopts nothing.
import {
  createMemoryKeyStore,
  type FetchFunction,
  requestOtp,
  signOut,
  verifyOtp,
} from "@signet/core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pendingOf, quiet, sharedPendingStore, until } from "./support/pendingStore.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());
beforeEach(() => stack.clearRequests());
afterEach(() => fetch(`${stack.emulator.url}/_emulator/faults`, { method: "DELETE" }));

type Sent = { method: string; url: string; body: string | undefined; headers: Headers };

/** A fetch that records what the device sends (the stamp included: never printed). */
function recording(
  sent: Sent[],
  answer?: (request: Sent, response: Response) => Promise<Response>,
): FetchFunction {
  return async (input, init) => {
    const request: Sent = {
      method: String(init?.method ?? "GET"),
      url: String(input),
      body: init?.body === undefined || init.body === null ? undefined : String(init.body),
      headers: new Headers(init?.headers),
    };
    sent.push(request);
    const response = await fetch(input, init);
    return answer ? answer(request, response) : response;
  };
}

const isVerify = (s: Sent) => s.method === "POST" && /\/verify$/.test(new URL(s.url).pathname);

/**
 * Signs up, starts an email sign-in whose verify the service answers PROCESSING again and again,
 * waits until it is kept, and lets the page go (aborted, destroyed), as a reload does.
 */
async function signInThenReload() {
  const user = await stack.signUp();
  const keyStore = createMemoryKeyStore();
  const pendingStore = sharedPendingStore();
  const before: Sent[] = [];
  const tab = stack.client(user.customerId, { keyStore, pendingStore, fetch: recording(before) });
  const path = `/auth/credentials/${user.emailCredentialId}/verify`;
  await stack.fault({ match: { method: "POST", path }, count: 1000, kind: "processing" });
  const otp = await requestOtp(tab.client, { credentialId: user.emailCredentialId });
  const controller = new AbortController();
  const call = verifyOtp(tab.client, { ...otp, otpCode: "000000", signal: controller.signal });
  await until(
    async () => (await pendingStore.list()).length === 1 && pendingOf(tab.events).length >= 3,
    "the kept sign-in, answered PROCESSING three times",
  );
  controller.abort();
  await expect(call).rejects.toMatchObject({ code: "ABORTED" });
  tab.client.destroy();
  // Every send the page made lands on the armed fault before the faults go.
  const made = before.filter((s) => isVerify(s) && s.headers.has("Request-Id")).length;
  const landed = async () =>
    (await stack.requests()).filter((r) => r.path === path && r.hasRequestId).length;
  await until(async () => (await landed()) >= made, "the page's last send at the service");
  await quiet(stack);
  await fetch(`${stack.emulator.url}/_emulator/faults`, { method: "DELETE" });
  const [kept] = await pendingStore.list();
  if (!kept) throw new Error("nothing kept");
  return { ...user, keyStore, pendingStore, before, tab, kept, path };
}

describe("a sign-in still processing", () => {
  it("is kept with its one-time key's public key only; the key itself stays in the key store", async () => {
    const { kept, keyStore, accountId, emailCredentialId, before } = await signInThenReload();
    const signed = before.find((s) => isVerify(s) && s.headers.has("Request-Id"))!;
    expect(kept).toMatchObject({
      action: "verifyOtp",
      accountId,
      method: "POST",
      path: `/auth/credentials/${emailCredentialId}/verify`,
      body: signed.body,
      requestId: signed.headers.get("Request-Id"),
      signature: signed.headers.get("Grid-Wallet-Signature"),
      finish: { kind: "adoptSession", accountId, credentialId: emailCredentialId },
    });
    expect(Object.keys(kept.finish!).sort()).toEqual(
      ["accountId", "credentialId", "kind", "publicKey"].sort(),
    );
    // The key is a key-store record (a non-extractable key in a browser), noted for the account.
    const noted = (await keyStore.list()).filter((id) => id.startsWith("signet.possible|"));
    expect(noted).toHaveLength(1);
    expect(noted[0]).toContain(accountId);
    expect(noted[0]!.endsWith(`|${(kept.finish as { publicKey: string }).publicKey}`)).toBe(true);
  });

  it("resumes after a reload: PROCESSING twice more, then the new client holds the session under the noted key, and it signs", async () => {
    const setup = await signInThenReload();
    const { kept, accountId, customerId, keyStore, pendingStore, before, path } = setup;
    await stack.clearRequests();
    await stack.fault({ match: { method: "POST", path }, count: 2, kind: "processing" });
    const after: Sent[] = [];
    const reloaded = stack.client(customerId, { keyStore, pendingStore, fetch: recording(after) });
    const ended = await reloaded.client.pending.resume();
    expect(ended).toMatchObject([
      { action: "verifyOtp", requestId: kept.requestId, outcome: "settled", status: 200 },
    ]);
    // The identical request, re-sent: body, stamp and request id; no new challenge.
    const [original] = before.filter((s) => isVerify(s) && s.headers.has("Request-Id"));
    const resent = after.filter(isVerify);
    expect(resent).toHaveLength(3);
    for (const r of resent) {
      expect(r.url).toBe(original!.url);
      expect(r.body).toBe(original!.body);
      expect(r.headers.get("Request-Id")).toBe(original!.headers.get("Request-Id"));
      expect(r.headers.get("Grid-Wallet-Signature")).toBe(
        original!.headers.get("Grid-Wallet-Signature"),
      );
    }
    const log = (await stack.requests()).filter((r) => r.path === path);
    expect(log.map((r) => r.fault ?? r.status)).toEqual(["processing", "processing", 200]);
    const [session] = await reloaded.client.sessions.list(accountId);
    expect(session).toMatchObject({
      accountId,
      credentialId: setup.emailCredentialId,
      publicKey: (kept.finish as { publicKey: string }).publicKey,
    });
    expect(reloaded.events).toContainEqual(
      expect.objectContaining({ type: "session", action: "created", sessionId: session!.id }),
    );
    expect(pendingOf(reloaded.events).map((e) => e.state)).toEqual([
      "resumed",
      "processing",
      "processing",
      "settled",
    ]);
    expect((await keyStore.list()).filter((id) => id.startsWith("signet.possible|"))).toEqual([]);
    expect(await pendingStore.list()).toEqual([]);
    // The session is the service's session of that key: its sign-out, stamped by it, is taken.
    await stack.clearRequests();
    await signOut(reloaded.client, { accountId });
    const revoked = (await stack.requests()).filter(
      (r) => r.method === "DELETE" && r.path === `/auth/sessions/${session!.id}`,
    );
    expect(revoked.map((r) => r.status)).toEqual([202, 204]);
  });

  it("a relay answering with a session of another key adopts nothing (SESSION_KEY_MISMATCH)", async () => {
    const { kept, accountId, customerId, keyStore, pendingStore } = await signInThenReload();
    // A compromised relay: the verify's session comes back carrying a sealed session key, i.e.
    // a key other than the one-time key this device sent.
    const forge = async (request: Sent, response: Response) => {
      if (!isVerify(request) || response.status !== 200) return response;
      const body = (await response.json()) as Record<string, unknown>;
      return new Response(
        JSON.stringify({ ...body, encryptedSessionSigningKey: "3mJr7AoUXx2Wqd" }),
        {
          status: 200,
          headers: response.headers,
        },
      );
    };
    const reloaded = stack.client(customerId, {
      keyStore,
      pendingStore,
      fetch: recording([], forge),
    });
    const [ended] = await reloaded.client.pending.resume();
    expect(ended).toMatchObject({
      action: "verifyOtp",
      requestId: kept.requestId,
      outcome: "failed",
      error: { name: "SignetError", code: "SESSION_KEY_MISMATCH", details: { accountId } },
    });
    expect(await reloaded.client.sessions.list(accountId)).toEqual([]);
    expect(reloaded.events.filter((e) => e.type === "session")).toEqual([]);
    expect(pendingOf(reloaded.events).at(-1)).toMatchObject({
      state: "failed",
      code: "SESSION_KEY_MISMATCH",
    });
    expect(await pendingStore.list()).toEqual([]);
    // The key stays noted: the session the service did make for it is the next sign-out's to end.
    expect((await keyStore.list()).filter((id) => id.startsWith("signet.possible|"))).toHaveLength(
      1,
    );
  });

  it("a sign-in that completes in its own page forgets its note", async () => {
    const user = await stack.signUp();
    const keyStore = createMemoryKeyStore();
    const pendingStore = sharedPendingStore();
    const tab = stack.client(user.customerId, { keyStore, pendingStore });
    const path = `/auth/credentials/${user.emailCredentialId}/verify`;
    await stack.fault({ match: { method: "POST", path }, count: 2, kind: "processing" });
    const otp = await requestOtp(tab.client, { credentialId: user.emailCredentialId });
    const session = await verifyOtp(tab.client, { ...otp, otpCode: "000000" });
    expect(session.accountId).toBe(user.accountId);
    expect(pendingOf(tab.events).map((e) => e.state)).toEqual([
      "processing",
      "processing",
      "settled",
    ]);
    await until(async () => (await pendingStore.list()).length === 0, "the kept copy deleted");
    expect((await keyStore.list()).filter((id) => id.startsWith("signet.possible|"))).toEqual([]);
  });
});
