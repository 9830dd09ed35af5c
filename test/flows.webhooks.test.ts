// Webhooks pushed to the waiting device (issue #37 item 2): core → relay → emulator over real
// HTTP, the emulator signing and sending the service's wallet-operation webhooks (#802) to the
// relay. A call answered PROCESSING ends on the push: with a backoff far longer than the test
// may run, the export still ends, after exactly one re-send past the PROCESSING answer. Without
// a receiver on the relay, the same client falls back to polling.
import {
  addCredential,
  createMemoryKeyStore,
  exportWallet,
  type FetchFunction,
  listCredentials,
  type SignetEvent,
  signOut,
} from "@signet/core";
import type { WebhookStore } from "@signet/relay";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sharedPendingStore, until } from "./support/pendingStore.js";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

/**
 * A first wait after PROCESSING no test could sit through (about 200 s: jitter pinned near its
 * ceiling, inside the challenge's 5 minutes so that the engine does make it): only a push can end
 * the call in time.
 */
const SLOW = {
  retry: { backoff: { baseMs: 200_000, factor: 1, maxMs: 200_000 } },
  random: () => 0.999,
};

/**
 * Faults a test arms, each used up once: the relay's webhook store failing a read of who sent a
 * request (the device's wait answers 503) or a publish (the service's delivery answered 503), and
 * the emulator's delivery failing to reach the relay at all.
 */
const armed = { ownerRead: 0, publish: 0, deliveryCut: 0 };
const storeDown = () => Promise.reject(new Error("the webhook store is down (injected)"));

function failingStore(inner: WebhookStore): WebhookStore {
  return {
    claim: (key, value, ttlMs) => inner.claim(key, value, ttlMs),
    get: (key) =>
      key.startsWith("webhook:owner:") && armed.ownerRead > 0 && armed.ownerRead-- > 0
        ? storeDown()
        : inner.get(key),
    publish: (channel, message, ttlMs) =>
      armed.publish > 0 && armed.publish-- > 0
        ? storeDown()
        : inner.publish(channel, message, ttlMs),
    subscribe: (channel, listener) => inner.subscribe(channel, listener),
  };
}

const deliver: typeof fetch = (input, init) =>
  armed.deliveryCut > 0 && armed.deliveryCut-- > 0
    ? Promise.reject(new TypeError("fetch failed (injected: the relay was not reached)"))
    : fetch(input, init);

let stack: Stack;
let polling: Stack;
beforeAll(async () => {
  stack = await startStack({
    webhooks: { baseDelayMs: 20, maxAttempts: 3, settleMs: 20, fetch: deliver },
    relayWebhooks: { waitMs: 5_000, store: failingStore },
  });
  polling = await startStack({ webhooks: { settleMs: 20 } });
});
afterAll(async () => {
  await Promise.all([stack?.close(), polling?.close()]);
});
afterEach(() => {
  Object.assign(armed, { ownerRead: 0, publish: 0, deliveryCut: 0 });
});

async function user(on: Stack, overrides: Parameters<Stack["client"]>[1]) {
  const signedUp = await on.signUp(undefined, { phoneNumber: "+14155550199" });
  const { client, events } = on.client(signedUp.customerId, overrides);
  await signInWithEmail(client, signedUp.emailCredentialId);
  return { ...signedUp, client, events };
}

const sends = async (on: Stack, path: string) =>
  (await on.requests()).filter((r) => r.path.endsWith(path) && r.method === "POST");

const stages = (events: SignetEvent[]) =>
  events.flatMap((e) => (e.type === "signedRequest" ? [e.stage] : []));

describe("a PROCESSING call with push: true", () => {
  it("ends an export on the relay's push: one re-send after PROCESSING, no backoff waited", async () => {
    const u = await user(stack, { push: true, ...SLOW });
    const path = `/internal-accounts/${u.accountId}/export`;
    await stack.fault({ kind: "processing", match: { method: "POST", path } });
    await stack.clearRequests();
    const mnemonic = await exportWallet(u.client, { accountId: u.accountId });
    expect(mnemonic).toMatch(/^[a-z]+( [a-z]+){11}$/);
    // Leg 1, the signed send answered PROCESSING, the one re-send that collected the result.
    const sent = await sends(stack, path);
    expect(sent.map((r) => [r.status, r.fault ?? null, r.hasSignature])).toEqual([
      [202, null, false],
      [200, "processing", true],
      [200, null, true],
    ]);
    // The wait the push cut short.
    const waited = u.events.find((e) => e.type === "signedRequest" && e.stage === "processing");
    expect(waited).toMatchObject({ delayMs: expect.any(Number) });
    expect((waited as { delayMs: number }).delayMs).toBeGreaterThan(150_000);
    const pushed = u.events.find((e) => e.type === "signedRequest" && e.stage === "pushed");
    expect(pushed).toMatchObject({
      push: { operationType: "wallet.export", status: "completed", resourceId: u.accountId },
    });
  });

  it("ends a credential add on the push, and the push names the new credential", async () => {
    const u = await user(stack, { push: true, ...SLOW });
    await stack.fault({ kind: "processing", match: { method: "POST", path: "/auth/credentials" } });
    await stack.clearRequests();
    const added = await addCredential(u.client, {
      accountId: u.accountId,
      type: "SMS_OTP",
      phoneNumber: "+14155550199",
    });
    const sent = (await stack.requests()).filter(
      (r) => r.method === "POST" && r.path.endsWith("/auth/credentials"),
    );
    expect(sent).toHaveLength(3);
    const pushed = u.events.find((e) => e.type === "signedRequest" && e.stage === "pushed");
    expect(pushed).toMatchObject({
      push: { operationType: "auth_credential.create", resourceId: added.id },
    });
  });
});

describe("a PROCESSING call with no receiver on the relay", () => {
  it("falls back to polling: the backoff's wait ends it", async () => {
    const u = await user(polling, {
      push: true,
      retry: { backoff: { baseMs: 200, factor: 1, maxMs: 200 } },
    });
    const path = `/internal-accounts/${u.accountId}/export`;
    await polling.fault({ kind: "processing", match: { method: "POST", path } });
    await polling.clearRequests();
    expect(await exportWallet(u.client, { accountId: u.accountId })).toMatch(/ /);
    expect((await sends(polling, path)).length).toBeGreaterThanOrEqual(3);
    expect(stages(u.events)).not.toContain("pushed");
  });
});

/** The device's long polls of the relay's push route, as its fetch saw them. */
type Poll = { status: number | "failed" };

/**
 * The page's fetch, recording each long poll; with `failFirst`, the first one fails before it
 * reaches the relay (a device → relay fault).
 */
function pollWatch(polls: Poll[], failFirst: boolean): FetchFunction {
  return async (input, init) => {
    if (!new URL(input).pathname.includes("/wallet-operations/")) return fetch(input, init);
    if (failFirst && polls.length === 0) {
      polls.push({ status: "failed" });
      throw new TypeError("fetch failed (injected: the relay was not reached)");
    }
    const response = await fetch(input, init);
    polls.push({ status: response.status });
    return response;
  };
}

/** The request id of the signed leg the service answered PROCESSING. */
const processingRequestId = (events: SignetEvent[]) => {
  const waited = events.find((e) => e.type === "signedRequest" && e.stage === "processing");
  return (waited as { requestId?: string } | undefined)?.requestId;
};

/** The emulator's delivery attempts of the webhook for `requestId`, by the relay's status. */
const deliveriesOf = (requestId: string | undefined) =>
  stack.emulator.emulator
    .webhookDeliveries()
    .filter((d) => d.requestId === requestId)
    .map((d) => d.status);

describe("the push wait meets a fault once", () => {
  it("device → relay, default retry policy: the long poll fails at the device; the fallback poll ends the export, collected once", async () => {
    const polls: Poll[] = [];
    // `signedRequests: undefined`: the library's default policy (the stack pins a short backoff).
    const u = await user(stack, {
      push: true,
      signedRequests: undefined,
      fetch: pollWatch(polls, true),
    });
    const path = `/internal-accounts/${u.accountId}/export`;
    await stack.fault({ kind: "processing", match: { method: "POST", path } });
    await stack.clearRequests();
    const mnemonic = await exportWallet(u.client, { accountId: u.accountId });
    expect(mnemonic).toMatch(/^[a-z]+( [a-z]+){11}$/);
    expect(polls).toEqual([{ status: "failed" }]);
    expect((await sends(stack, path)).map((r) => [r.status, r.fault ?? null])).toEqual([
      [202, null],
      [200, "processing"],
      [200, null],
    ]);
    expect(stages(u.events)).not.toContain("pushed");
    // The service still delivered the end; nobody was waiting for it.
    await until(() => deliveriesOf(processingRequestId(u.events)).length > 0, "the delivery");
    expect(deliveriesOf(processingRequestId(u.events))).toEqual([200]);
  });

  it("relay side, default retry policy: the relay's store is down for the wait (503); the fallback poll ends the credential add, one credential", async () => {
    const polls: Poll[] = [];
    const phoneNumber = "+14155550199";
    const u = await user(stack, {
      push: true,
      signedRequests: undefined,
      fetch: pollWatch(polls, false),
    });
    const before = (await listCredentials(u.client, { accountId: u.accountId })).length;
    await stack.fault({ kind: "processing", match: { method: "POST", path: "/auth/credentials" } });
    await stack.clearRequests();
    armed.ownerRead = 1;
    const added = await addCredential(u.client, {
      accountId: u.accountId,
      type: "SMS_OTP",
      phoneNumber,
    });
    expect(armed.ownerRead).toBe(0);
    expect(polls).toEqual([{ status: 503 }]);
    expect(stages(u.events)).not.toContain("pushed");
    const sent = (await stack.requests()).filter(
      (r) => r.method === "POST" && r.path.endsWith("/auth/credentials"),
    );
    expect(sent.map((r) => [r.status, r.fault ?? null])).toEqual([
      [202, null],
      [200, "processing"],
      [201, null],
    ]);
    const after = await listCredentials(u.client, { accountId: u.accountId });
    expect(after).toHaveLength(before + 1);
    expect(after.filter((c) => c.id === added.id)).toHaveLength(1);
  });

  // These two pin the backoff (SLOW): under the default one the fallback poll ends the wait as
  // well, and the test could not tell that the service's retried delivery is what ended it.
  it("relay → service: the relay answers the first delivery 503 (its store down); the service's retry is pushed and ends the wait", async () => {
    const u = await user(stack, { push: true, ...SLOW });
    const path = `/internal-accounts/${u.accountId}/export`;
    await stack.fault({ kind: "processing", match: { method: "POST", path } });
    await stack.clearRequests();
    armed.publish = 1;
    expect(await exportWallet(u.client, { accountId: u.accountId })).toMatch(
      /^[a-z]+( [a-z]+){11}$/,
    );
    expect(armed.publish).toBe(0);
    expect(deliveriesOf(processingRequestId(u.events))).toEqual([503, 200]);
    expect(stages(u.events)).toContain("pushed");
    expect((await sends(stack, path)).map((r) => [r.status, r.fault ?? null])).toEqual([
      [202, null],
      [200, "processing"],
      [200, null],
    ]);
  });

  it("relay → service: the service's first delivery cannot reach the relay; its retry is pushed and ends the wait", async () => {
    const u = await user(stack, { push: true, ...SLOW });
    const path = `/internal-accounts/${u.accountId}/export`;
    await stack.fault({ kind: "processing", match: { method: "POST", path } });
    await stack.clearRequests();
    armed.deliveryCut = 1;
    expect(await exportWallet(u.client, { accountId: u.accountId })).toMatch(
      /^[a-z]+( [a-z]+){11}$/,
    );
    expect(armed.deliveryCut).toBe(0);
    expect(deliveriesOf(processingRequestId(u.events))).toEqual([0, 200]);
    expect(stages(u.events)).toContain("pushed");
    expect((await sends(stack, path)).map((r) => [r.status, r.fault ?? null])).toEqual([
      [202, null],
      [200, "processing"],
      [200, null],
    ]);
  });
});

describe("a kept call resumed after a reload, with push: true", () => {
  // The service settles 3 s after a PROCESSING answer: the reload's first re-send comes before
  // that (so it meets PROCESSING, not the settled answer), and only the webhook then ends its
  // wait in time.
  let settling: Stack;
  beforeAll(async () => {
    settling = await startStack({
      webhooks: { settleMs: 3_000 },
      relayWebhooks: { waitMs: 5_000 },
    });
  });
  afterAll(() => settling?.close());

  it("uses the push again: the resumed re-send's PROCESSING wait ends on the relay's push, not the backoff", async () => {
    const signedUp = await settling.signUp();
    const keyStore = createMemoryKeyStore();
    const pendingStore = sharedPendingStore();
    const first = settling.client(signedUp.customerId, { keyStore, pendingStore, ...SLOW });
    await signInWithEmail(first.client, signedUp.emailCredentialId);
    const [session] = await first.client.sessions.list(signedUp.accountId);
    const path = `/auth/sessions/${session!.id}`;
    // The page before: its sign-out answered PROCESSING once (then a wait of minutes), kept, and
    // the page goes.
    await settling.fault({ kind: "processing", match: { method: "DELETE", path }, count: 1 });
    const controller = new AbortController();
    const call = signOut(first.client, {
      accountId: signedUp.accountId,
      signal: controller.signal,
    });
    await expect.poll(async () => (await pendingStore.list()).length).toBe(1);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: "ABORTED" });
    first.client.destroy();
    const [kept] = await pendingStore.list();
    // The reload: its first re-send meets PROCESSING again, then a wait only a push ends in time.
    await settling.fault({ kind: "processing", match: { method: "DELETE", path }, count: 1 });
    await settling.clearRequests();
    const reloaded = settling.client(signedUp.customerId, {
      keyStore,
      pendingStore,
      push: true,
      ...SLOW,
    });
    const [ended] = await reloaded.client.pending.resume();
    expect(ended).toMatchObject({
      action: "signOut",
      requestId: kept!.requestId,
      outcome: "settled",
    });
    const waited = reloaded.events.find(
      (e) => e.type === "signedRequest" && e.stage === "processing",
    );
    expect((waited as { delayMs: number }).delayMs).toBeGreaterThan(150_000);
    expect(
      reloaded.events.find((e) => e.type === "signedRequest" && e.stage === "pushed"),
    ).toMatchObject({
      requestId: kept!.requestId,
      push: { operationType: "session.revoke", status: "completed", resourceId: session!.id },
    });
    // The kept stamp re-sent: PROCESSING, then after the push the one re-send that collects it.
    const sent = (await settling.requests()).filter(
      (r) => r.method === "DELETE" && r.path === path,
    );
    expect(sent.map((r) => [r.status, r.fault ?? null, r.hasRequestId])).toEqual([
      [200, "processing", true],
      [204, null, true],
    ]);
    expect(await reloaded.client.sessions.list(signedUp.accountId)).toEqual([]);
    expect(await pendingStore.list()).toEqual([]);
  });
});
