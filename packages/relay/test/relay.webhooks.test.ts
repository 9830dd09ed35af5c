// The relay's webhook receiver and the device's wait, over real HTTP: the emulator signs and
// sends its wallet-operation webhooks (the service's #802) to one relay, which pushes each to the
// customer whose signed request it forwarded; a second relay verifies with a key this test holds,
// so forged, stale, replayed and other customers' webhooks can be made here and shown to reach
// nobody (its store counts every message published, the only way one reaches a device).
import { type EmulatorServer, startEmulatorServer } from "@signet/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningRelay, serveRelay } from "../../test/src/stubService.js";
import { createRelay, type RelayWebhooks } from "../src/createRelay.js";
import { createMemoryWebhookStore, type WebhookStore } from "../src/webhooks/store.js";
import {
  as,
  emulatorRelayOptions,
  newKey,
  platform,
  signedRetry,
  signUp,
  type Wallet,
} from "./nodeWallet.js";
import { countingStore, deliver, waitFor, webhookBody, webhookSignature } from "./webhookWallet.js";

let emulator: EmulatorServer;
const relays: RunningRelay[] = [];
/** Verifies the emulator's webhooks. */
let api: string;
/** Verifies webhooks signed with `serviceKey`, held by this test. */
let testApi: string;
const serviceKey = newKey();
const emulatorStore = countingStore(createMemoryWebhookStore());
const testStore = countingStore(createMemoryWebhookStore());
let alice: Wallet;
let bob: Wallet;

async function startRelay(webhooks: RelayWebhooks): Promise<string> {
  const running = await serveRelay(
    createRelay(emulatorRelayOptions(emulator.url, { rateLimit: false, webhooks })),
  );
  relays.push(running);
  return `${running.url}/api/grid`;
}

/** A wallet export through `through`, answered PROCESSING: the request id the relay recorded. */
async function processingExport(through: string, wallet: Wallet) {
  await platform(emulator.url, "POST", "/_emulator/faults", {
    kind: "processing",
    match: { method: "POST", path: `/internal-accounts/${wallet.wallet}/export` },
  });
  const body = JSON.stringify({ clientPublicKey: newKey().uncompressed });
  const run = await signedRetry(
    through,
    wallet,
    "POST",
    `/internal-accounts/${wallet.wallet}/export`,
    body,
    wallet.sessionKey,
  );
  expect(run.final.status).toBe(200);
  expect(await run.final.json()).toMatchObject({ status: "PROCESSING" });
  return { requestId: run.challenge.requestId as string, resend: run.resend };
}

beforeAll(async () => {
  emulator = await startEmulatorServer({
    port: 0,
    webhooks: { baseDelayMs: 20, maxAttempts: 3, settleMs: 20 },
  });
  const keys = await platform(emulator.url, "GET", "/_emulator/keys");
  api = await startRelay({
    publicKey: keys.webhookPublicKey as string,
    waitMs: 3_000,
    store: emulatorStore,
  });
  testApi = await startRelay({ publicKey: serviceKey.compressed, waitMs: 300, store: testStore });
  emulator.emulator.setWebhookUrl(`${api}/webhooks`);
  const attestation = keys.attestationPublicKey as string;
  alice = await signUp(api, emulator.url, attestation, "alice@example.com");
  bob = await signUp(api, emulator.url, attestation, "bob@example.com");
});

afterAll(async () => {
  await Promise.all(relays.map((relay) => relay.close()));
  await emulator.close();
});

beforeEach(async () => {
  await fetch(`${emulator.url}/_emulator/faults`, { method: "DELETE" });
});

describe("the emulator's webhooks through the relay", () => {
  it("pushes a PROCESSING export's end to the device that sent it; one re-send collects it", async () => {
    const { requestId, resend } = await processingExport(api, alice);
    const waited = await waitFor(api, alice, requestId);
    expect(waited.status).toBe(200);
    expect(waited.event).toMatchObject({
      type: "WALLET_OPERATION.COMPLETED",
      data: {
        requestId,
        operationType: "wallet.export",
        resourceType: "INTERNAL_ACCOUNT",
        resourceId: alice.wallet,
        status: "completed",
      },
    });
    const collected = await resend();
    expect(collected.status).toBe(200);
    expect(((await collected.json()) as { id: string }).id).toBe(alice.wallet);
    // The emulator's delivery was taken at the first attempt.
    const deliveries = emulator.emulator
      .webhookDeliveries()
      .filter((d) => d.requestId === requestId);
    expect(deliveries.map((d) => [d.attempt, d.status])).toEqual([[1, 200]]);
  });

  it("never lets another customer's device wait on it, before or after it arrives", async () => {
    const { requestId } = await processingExport(api, alice);
    const before = await waitFor(api, bob, requestId);
    expect(before.status).toBe(403);
    await expect.poll(() => emulatorStore.published.some((m) => m.includes(requestId))).toBe(true);
    const after = await fetch(`${api}/wallet-operations/${requestId}`, {
      headers: { Cookie: `user=${encodeURIComponent(bob.customerId)}` },
    });
    expect(after.status).toBe(403);
    expect(await after.json()).toMatchObject({ code: "RELAY_FORBIDDEN" });
    // Alice still gets it.
    expect((await waitFor(api, alice, requestId)).event).toBeDefined();
  });

  it("refuses a wait on a request id nobody sent through it, and a malformed one", async () => {
    const unknown = `Request:${crypto.randomUUID()}`;
    expect((await waitFor(api, alice, unknown)).status).toBe(403);
    expect((await waitFor(api, alice, "Request:nope")).status).toBe(400);
    const anonymous = await fetch(`${api}/wallet-operations/${unknown}`);
    expect(anonymous.status).toBe(401);
  });
});

describe("webhooks that must reach nobody", () => {
  it("refuses a forged signature (401) and publishes nothing", async () => {
    const { requestId } = await processingExport(testApi, alice);
    const body = webhookBody(requestId, { resourceId: alice.wallet });
    const published = testStore.published.length;
    const forger = newKey();
    for (const signature of [
      webhookSignature(body, forger),
      undefined,
      "not base64 !",
      webhookSignature(body.replace("completed", "completed "), serviceKey),
    ]) {
      const answer = await deliver(testApi, body, signature);
      expect(answer.status).toBe(401);
      expect(await answer.json()).toMatchObject({ code: "WEBHOOK_SIGNATURE_INVALID" });
    }
    // Unsigned, the body is not even read: over the relay's 1 MiB limit, still 401 (not 413).
    const unsigned = await deliver(testApi, "x".repeat(1024 * 1024 + 1), undefined);
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ code: "WEBHOOK_SIGNATURE_INVALID" });
    expect(testStore.published.length).toBe(published);
    expect((await waitFor(testApi, alice, requestId)).status).toBe(204);
  });

  it("refuses a stale or future timestamp (400 WEBHOOK_STALE)", async () => {
    const { requestId } = await processingExport(testApi, alice);
    const published = testStore.published.length;
    for (const timestamp of [Date.now() - 10 * 60_000, Date.now() + 10 * 60_000]) {
      const body = webhookBody(requestId, { timestamp });
      const answer = await deliver(testApi, body, webhookSignature(body, serviceKey));
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ code: "WEBHOOK_STALE" });
    }
    expect(testStore.published.length).toBe(published);
    expect((await waitFor(testApi, alice, requestId)).status).toBe(204);
  });

  it("takes a delivery once: its replay is 409 WEBHOOK_DUPLICATE and publishes nothing", async () => {
    const { requestId } = await processingExport(testApi, alice);
    const body = webhookBody(requestId, { resourceId: alice.wallet });
    const published = testStore.published.length;
    // r‖s is accepted as well as DER: the service's document names neither.
    const first = await deliver(testApi, body, webhookSignature(body, serviceKey, true));
    expect(first.status).toBe(200);
    const replay = await deliver(testApi, body, webhookSignature(body, serviceKey));
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({ code: "WEBHOOK_DUPLICATE" });
    expect(testStore.published.length).toBe(published + 1);
    expect((await waitFor(testApi, alice, requestId)).event).toMatchObject({
      data: { requestId, status: "completed" },
    });
  });

  it("a delivery whose publish failed is taken by the service's retry (503, then 200), not refused as a duplicate", async () => {
    const inner = countingStore(createMemoryWebhookStore());
    let failures = 1;
    const flaky = {
      ...inner,
      async publish(channel: string, message: string, ttlMs: number) {
        if (failures-- > 0) throw new Error("the store is away");
        await inner.publish(channel, message, ttlMs);
      },
    };
    const flakyApi = await startRelay({
      publicKey: serviceKey.compressed,
      waitMs: 300,
      store: flaky,
    });
    const { requestId } = await processingExport(flakyApi, alice);
    const body = webhookBody(requestId, { resourceId: alice.wallet });
    const signature = webhookSignature(body, serviceKey);
    const first = await deliver(flakyApi, body, signature);
    expect(first.status).toBe(503);
    expect(await first.json()).toMatchObject({ code: "RELAY_STORE_UNAVAILABLE" });
    const retried = await deliver(flakyApi, body, signature);
    expect(retried.status).toBe(200);
    expect(inner.published).toHaveLength(1);
    expect((await waitFor(flakyApi, alice, requestId)).event).toMatchObject({
      data: { requestId, status: "completed" },
    });
    const replay = await deliver(flakyApi, body, signature);
    expect(replay.status).toBe(409);
    expect(inner.published).toHaveLength(1);
  });

  it("a request id sent on a read (no stamp) is claimed by nobody: only a stamped request the service took records its sender", async () => {
    const requestId = `Request:${crypto.randomUUID()}`;
    const read = await fetch(`${testApi}/customers/internal-accounts?type=EMBEDDED_WALLET`, {
      headers: as(bob, { "Request-Id": requestId }),
    });
    expect(read.status).toBe(200);
    const body = webhookBody(requestId, { resourceId: bob.wallet });
    expect((await deliver(testApi, body, webhookSignature(body, serviceKey))).status).toBe(200);
    expect((await waitFor(testApi, bob, requestId)).status).toBe(403);
  });

  it("keeps another customer's webhook from this customer's device", async () => {
    const own = await processingExport(testApi, alice);
    const theirs = await processingExport(testApi, bob);
    const body = webhookBody(theirs.requestId, { failed: true });
    expect((await deliver(testApi, body, webhookSignature(body, serviceKey))).status).toBe(200);
    expect((await waitFor(testApi, alice, theirs.requestId)).status).toBe(403);
    expect((await waitFor(testApi, alice, own.requestId)).status).toBe(204);
    expect((await waitFor(testApi, bob, theirs.requestId)).event).toMatchObject({
      type: "WALLET_OPERATION.FAILED",
      data: { status: "failed", error: { code: "SIGNER_PROVIDER_REJECTED" } },
    });
  });

  it("refuses a signed body that is not a wallet operation's end, and accepts other types", async () => {
    const requestId = `Request:${crypto.randomUUID()}`;
    const published = testStore.published.length;
    const broken = webhookBody(requestId).replace('"wallet.export"', '"wallet.steal"');
    const refused = await deliver(testApi, broken, webhookSignature(broken, serviceKey));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "INVALID_INPUT" });
    const other = JSON.stringify({
      id: `Webhook:${crypto.randomUUID()}`,
      type: "CUSTOMER.KYC_APPROVED",
      timestamp: new Date().toISOString(),
      data: {},
    });
    expect((await deliver(testApi, other, webhookSignature(other, serviceKey))).status).toBe(200);
    expect(testStore.published.length).toBe(published);
    const get = await fetch(`${testApi}/webhooks`);
    expect(get.status).toBe(405);
  });
});

describe("the relay's own bounds", () => {
  it("holds at most maxWaits device waits at once: the next is 503 with Retry-After and a typed reason, and the held ones still get their end", async () => {
    const inner = createMemoryWebhookStore();
    const subscribed = { open: 0 };
    const store: WebhookStore = {
      claim: (key, value, ttlMs) => inner.claim(key, value, ttlMs),
      get: (key) => inner.get(key),
      publish: (channel, message, ttlMs) => inner.publish(channel, message, ttlMs),
      async subscribe(channel, listener) {
        const off = await inner.subscribe(channel, listener);
        subscribed.open++;
        return () => {
          subscribed.open--;
          off();
        };
      },
    };
    const capped = await startRelay({
      publicKey: serviceKey.compressed,
      waitMs: 5_000,
      maxWaits: 2,
      store,
    });
    const { requestId } = await processingExport(capped, alice);
    const held = [waitFor(capped, alice, requestId), waitFor(capped, alice, requestId)];
    await expect.poll(() => subscribed.open).toBe(2);
    const refused = await fetch(`${capped}/wallet-operations/${requestId}`, { headers: as(alice) });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({
      status: 503,
      code: "RELAY_STORE_UNAVAILABLE",
      details: { reason: "too many waits", retryAfterSeconds: 1 },
    });
    const body = webhookBody(requestId, { resourceId: alice.wallet });
    expect((await deliver(capped, body, webhookSignature(body, serviceKey))).status).toBe(200);
    for (const waited of await Promise.all(held)) expect(waited.status).toBe(200);
    // Both ended: the relay takes a wait again (the kept end, at once).
    expect(subscribed.open).toBe(0);
    expect((await waitFor(capped, alice, requestId)).status).toBe(200);
  });

  it("a webhook key that is not a point on P-256, or a bad maxWaits, fails at createRelay with a TypeError naming the option", () => {
    const make = (webhooks: RelayWebhooks) => () =>
      createRelay(emulatorRelayOptions(emulator.url, { rateLimit: false, webhooks }));
    const real = newKey();
    const x = real.uncompressed.slice(2, 66);
    const yWrong = (BigInt(`0x${real.uncompressed.slice(66)}`) ^ 1n).toString(16).padStart(64, "0");
    for (const publicKey of [`04${x}${yWrong}`, `02${"00".repeat(31)}01`, `04${"00".repeat(64)}`])
      expect(make({ publicKey })).toThrowError(
        expect.objectContaining({
          name: "TypeError",
          message: expect.stringMatching(/^"webhooks\.publicKey" expected .*point on the curve/),
        }),
      );
    for (const maxWaits of [0, -1, 1.5, Number.NaN])
      expect(make({ publicKey: real.compressed, maxWaits })).toThrowError(
        new TypeError(`"webhooks.maxWaits" expected a positive integer, got ${maxWaits}`),
      );
    expect(make({ publicKey: real.compressed })).not.toThrow();
    expect(make({ publicKey: real.uncompressed, maxWaits: 1 })).not.toThrow();
  });
});
