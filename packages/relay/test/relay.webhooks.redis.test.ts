// Webhooks when relays scale out: two relays share one webhook store in a real redis-server
// (Debian's package, started here on 127.0.0.1). The device's signed request goes through one
// relay, the service's webhook reaches the other, and the device waiting on the first hears it
// (Redis pub/sub); a replay to either relay is a duplicate; another customer waits on neither;
// with Redis gone a delivery is 503 (the service sends it again) and a wait 503 (the device polls).
import type { ChildProcess } from "node:child_process";
import { type EmulatorServer, startEmulatorServer } from "@signet/emulator";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningRelay, serveRelay } from "../../test/src/stubService.js";
import { createRelay } from "../src/createRelay.js";
import { createRedisWebhookStore } from "../src/redis.js";
import {
  emulatorRelayOptions,
  newKey,
  platform,
  signedRetry,
  signUp,
  type Wallet,
} from "./nodeWallet.js";
import { freePort, killRedisServer, startRedisServer } from "./redisServer.js";
import { deliver, waitFor, webhookBody, webhookSignature } from "./webhookWallet.js";

let emulator: EmulatorServer;
let redis: ChildProcess | undefined;
const clients: Redis[] = [];
const relays: RunningRelay[] = [];
const apis: string[] = [];
const serviceKey = newKey();
let alice: Wallet;
let bob: Wallet;

function redisClient(port: number): Redis {
  const client = new Redis({
    host: "127.0.0.1",
    port,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => 100,
  });
  client.on("error", () => {}); // the store answers 503 while Redis is away
  clients.push(client);
  return client;
}

/** A client of the test's Redis once connected (the stores send nothing while offline). */
async function readyClient(): Promise<Redis> {
  const client = redisClient(redisPort);
  if (client.status !== "ready") await new Promise((resolve) => client.once("ready", resolve));
  return client;
}

async function startRelay(port: number): Promise<string> {
  const store = createRedisWebhookStore(redisClient(port), redisClient(port), {
    commandTimeoutMs: 300,
  });
  const running = await serveRelay(
    createRelay(
      emulatorRelayOptions(emulator.url, {
        rateLimit: false,
        webhooks: { publicKey: serviceKey.uncompressed, waitMs: 3_000, store },
      }),
    ),
  );
  relays.push(running);
  return `${running.url}/api/grid`;
}

async function processingExport(through: string, wallet: Wallet): Promise<string> {
  await platform(emulator.url, "POST", "/_emulator/faults", {
    kind: "processing",
    match: { method: "POST", path: `/internal-accounts/${wallet.wallet}/export` },
  });
  const { challenge, final } = await signedRetry(
    through,
    wallet,
    "POST",
    `/internal-accounts/${wallet.wallet}/export`,
    JSON.stringify({ clientPublicKey: newKey().uncompressed }),
    wallet.sessionKey,
  );
  expect(final.status).toBe(200);
  return challenge.requestId as string;
}

let redisPort: number;

beforeAll(async () => {
  const port = await freePort();
  redisPort = port;
  redis = await startRedisServer(port);
  emulator = await startEmulatorServer({ port: 0 });
  apis.push(await startRelay(port), await startRelay(port));
  const keys = await platform(emulator.url, "GET", "/_emulator/keys");
  alice = await signUp(apis[0]!, emulator.url, keys.attestationPublicKey as string, "a@x.test");
  bob = await signUp(apis[0]!, emulator.url, keys.attestationPublicKey as string, "b@x.test");
});

afterAll(async () => {
  await Promise.all(relays.map((relay) => relay.close()));
  for (const client of clients) client.disconnect();
  await emulator?.close();
  await killRedisServer(redis);
});

describe("webhooks on Redis, across relays", () => {
  it("pushes a webhook received by one relay to the device waiting on another", async () => {
    const [first, second] = apis as [string, string];
    const requestId = await processingExport(first, alice);
    const waiting = waitFor(first, alice, requestId);
    // Let the wait subscribe before the webhook lands on the other relay.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const body = webhookBody(requestId, { resourceId: alice.wallet });
    const signature = webhookSignature(body, serviceKey);
    expect((await deliver(second, body, signature)).status).toBe(200);
    const heard = await waiting;
    expect(heard.status).toBe(200);
    expect(heard.event).toMatchObject({ data: { requestId, resourceId: alice.wallet } });
    // Kept for a wait that starts later, on either relay; the replay is a duplicate on both.
    expect((await waitFor(second, alice, requestId)).event).toBeDefined();
    expect((await deliver(first, body, signature)).status).toBe(409);
    expect((await deliver(second, body, signature)).status).toBe(409);
  });

  it("lets no other customer wait on it through any relay", async () => {
    const requestId = await processingExport(apis[1]!, alice);
    const body = webhookBody(requestId);
    expect((await deliver(apis[0]!, body, webhookSignature(body, serviceKey))).status).toBe(200);
    for (const api of apis) expect((await waitFor(api, bob, requestId)).status).toBe(403);
    expect((await waitFor(apis[0]!, alice, requestId)).status).toBe(200);
  });

  it("a second device waiting on the same request id here waits for the one SUBSCRIBE, so a publish right after reaches both", async () => {
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => readyClient()));
    // A SUBSCRIBE slow to take (a busy Redis): a second waiter must not start reading before it.
    const slowSubscribe = new Proxy(b!, {
      get(target, name, receiver) {
        if (name !== "subscribe") return Reflect.get(target, name, receiver);
        return async (...channels: string[]) => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          return target.subscribe(...channels);
        };
      },
    });
    const waiting = createRedisWebhookStore(a!, slowSubscribe);
    const sending = createRedisWebhookStore(c!, d!);
    const channel = `operation:Request:${crypto.randomUUID()}`;
    const heard: string[] = [];
    const first = waiting.subscribe(channel, (message) => heard.push(`first ${message}`));
    const stopSecond = await waiting.subscribe(channel, (message) =>
      heard.push(`second ${message}`),
    );
    await sending.publish(channel, "ended", 60_000);
    await expect.poll(() => heard.sort()).toEqual(["first ended", "second ended"]);
    stopSecond();
    (await first)();
  });

  it("answers 503 while Redis is down: the service retries the delivery, the device polls", async () => {
    const requestId = await processingExport(apis[0]!, alice);
    await killRedisServer(redis);
    const body = webhookBody(requestId);
    const delivered = await deliver(apis[1]!, body, webhookSignature(body, serviceKey));
    expect(delivered.status).toBe(503);
    expect(await delivered.json()).toMatchObject({ code: "RELAY_STORE_UNAVAILABLE" });
    expect((await waitFor(apis[0]!, alice, requestId)).status).toBe(503);
  });
});
