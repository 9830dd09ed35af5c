// Rate-limit leases against a real redis-server (Debian's package, started here on 127.0.0.1):
// an instance takes several hits of a user's window in one script call and answers from them
// in memory. Never more than the limit across instances; exactly the limit for one instance; a
// lease ends before its window; a slow user holds no reserve; a lease outlives a lost Redis; a user
// with none is refused a write while Redis is down and counted exactly again once it is back.
import type { ChildProcess } from "node:child_process";
import { startEmulatorServer } from "@signet/emulator";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serveRelay } from "../../test/src/stubService.js";
import { createRelay } from "../src/createRelay.js";
import { usersHeld } from "../src/leases.js";
import { type RateLimitResult, type RateLimitStore, syncHit } from "../src/rateLimit.js";
import {
  createRedisStores,
  type RedisClientLike,
  RelayStoreUnavailableError,
} from "../src/redis.js";
import { as, emulatorRelayOptions, json, platform } from "./nodeWallet.js";
import { freePort, killRedisServer, startRedisServer } from "./redisServer.js";

let redisProcess: ChildProcess | undefined;
let redisPort: number;
let redis: Redis;
const clients: Redis[] = [];

async function connect(port: number): Promise<Redis> {
  const client = new Redis({
    host: "127.0.0.1",
    port,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  await new Promise<void>((resolve) => client.once("ready", () => resolve()));
  clients.push(client);
  return client;
}

beforeAll(async () => {
  redisPort = await freePort();
  redisProcess = await startRedisServer(redisPort);
  redis = await connect(redisPort);
}, 30_000);

afterAll(async () => {
  for (const client of clients) client.disconnect();
  await killRedisServer(redisProcess);
});

beforeEach(async () => {
  await redis.flushall();
});

/** A client of its own (another relay instance), with its script calls counted. */
async function instance(port = redisPort) {
  const client = await connect(port);
  const counted = { scripts: 0 };
  const recorded: RedisClientLike = {
    eval: (script, numKeys, ...args) => {
      counted.scripts++;
      return client.eval(script, numKeys, ...args);
    },
    evalsha: (sha1, numKeys, ...args) => {
      counted.scripts++;
      return client.evalsha(sha1, numKeys, ...args);
    },
    get: (key) => client.get(key),
    set: (key, value, mode, ttlMs) => client.set(key, value, mode, ttlMs),
  };
  return { client, recorded, counted };
}

/** The hits Redis counted for `key` (granted to some instance, used or not). */
const counted = async (key: string) => Number((await redis.get(`t:rate:${key}`)) ?? 0);

/** A turn of the event loop: a server takes each request in a turn of its own. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * `n` hits of `key`, each sent when the last is answered (one user, one request at a time, each
 * in a turn of its own), answered without a promise when the store can.
 */
async function oneByOne(
  store: RateLimitStore,
  key: string,
  n: number,
  windowMs: number,
  limit: number,
): Promise<RateLimitResult[]> {
  const hitNow = syncHit(store);
  const results: RateLimitResult[] = [];
  for (let i = 0; i < n; i++) {
    results.push(hitNow?.(key, windowMs, limit) ?? (await store.hit(key, windowMs, limit)));
    await nextTurn();
  }
  return results;
}

const allowed = (results: RateLimitResult[]) => results.filter((r) => r.allowed).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("rate-limit leases", () => {
  it("never allow more than the limit across three instances hitting one user at once", async () => {
    const limit = 190;
    const stores = await Promise.all(
      [0, 1, 2].map(async () => {
        const { recorded } = await instance();
        return createRedisStores(recorded, { prefix: "t:", leaseMaxHits: 16 }).rateLimit;
      }),
    );
    // Each instance: a user's requests one at a time (its leases grow) and bursts in one turn.
    const runs = stores.flatMap((store) => [
      oneByOne(store, "u", 150, 60_000, limit),
      Promise.all(Array.from({ length: 40 }, () => store.hit("u", 60_000, limit))),
      oneByOne(store, "u", 60, 60_000, limit),
    ]);
    const results = (await Promise.all(runs)).flat();
    expect(results).toHaveLength(3 * 250);
    const yes = allowed(results);
    expect(yes).toBeLessThanOrEqual(limit);
    // Unused leases only make it stricter, by at most 16 + 8 per instance.
    expect(yes).toBeGreaterThanOrEqual(limit - 3 * 24);
    expect(await counted("u")).toBeGreaterThan(limit);
  });

  it("with batch: false (Redis Cluster) too", async () => {
    const limit = 120;
    const stores = await Promise.all(
      [0, 1].map(async () => {
        const { recorded } = await instance();
        return createRedisStores(recorded, { prefix: "t:", batch: false, leaseMaxHits: 8 })
          .rateLimit;
      }),
    );
    const results = (
      await Promise.all(
        stores.flatMap((store) => [
          oneByOne(store, "c", 100, 60_000, limit),
          Promise.all(Array.from({ length: 30 }, () => store.hit("c", 60_000, limit))),
        ]),
      )
    ).flat();
    expect(allowed(results)).toBeLessThanOrEqual(limit);
    expect(allowed(results)).toBeGreaterThanOrEqual(limit - 2 * 12);
  });

  it("allow one instance alone exactly the limit, then refuse with the window's rest", async () => {
    const { recorded } = await instance();
    const { rateLimit } = createRedisStores(recorded, { prefix: "t:", leaseMaxHits: 8 });
    const started = Date.now();
    const results = await oneByOne(rateLimit, "one", 70, 60_000, 50);
    expect(results.map((r) => r.allowed)).toEqual([
      ...Array(50).fill(true),
      ...Array(20).fill(false),
    ]);
    for (const refused of results.slice(50)) {
      expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
      expect(refused.retryAfterMs).toBeGreaterThan(60_000 - (Date.now() - started) - 50);
    }
    // In one turn as well: the hits waiting for one lease are served from it, the rest refused.
    const burst = await Promise.all(
      Array.from({ length: 70 }, () => rateLimit.hit("two", 60_000, 50)),
    );
    expect(allowed(burst)).toBe(50);
    expect(burst.slice(0, 50).every((r) => r.allowed)).toBe(true);
  });

  it("answer a user's quick requests from leases: few script calls, the rest without a promise", async () => {
    const { recorded, counted: calls } = await instance();
    const { rateLimit } = createRedisStores(recorded, { prefix: "t:", leaseMaxHits: 64 });
    const hitNow = syncHit(rateLimit)!;
    expect(hitNow).toBeTypeOf("function");
    // No lease yet: no answer without Redis, and nothing counted.
    expect(hitNow("q", 60_000, 10_000)).toBeUndefined();
    expect(await counted("q")).toBe(0);
    let withoutPromise = 0;
    for (let i = 0; i < 1_000; i++) {
      const now = hitNow("q", 60_000, 10_000);
      if (now !== undefined) {
        expect(now.allowed).toBe(true);
        withoutPromise++;
      } else {
        expect((await rateLimit.hit("q", 60_000, 10_000)).allowed).toBe(true);
      }
      // Requests one at a time, each a turn of the event loop apart (a fetched-ahead lease lands).
      await nextTurn();
    }
    // Leases of 1, 2, 4 … 64, then 64 each: about 20 calls for 1,000 hits.
    expect(calls.scripts).toBeLessThanOrEqual(30);
    expect(withoutPromise).toBeGreaterThan(950);
    // Redis counted the hits used and at most one lease and a half more.
    const inRedis = await counted("q");
    expect(inRedis).toBeGreaterThanOrEqual(1_000);
    expect(inRedis).toBeLessThanOrEqual(1_000 + 64 + 32);
  });

  it("hold no reserve for a slow user: every hit is one hit in Redis, none fetched ahead", async () => {
    const { recorded, counted: calls } = await instance();
    const { rateLimit } = createRedisStores(recorded, { prefix: "t:", leaseMaxHits: 64 });
    // A 1.6 s window: quick is within 200 ms; these come 250 ms apart.
    for (let i = 1; i <= 5; i++) {
      expect((await rateLimit.hit("slow", 1_600, 1_000)).allowed).toBe(true);
      expect(await counted("slow")).toBe(i);
      expect(calls.scripts).toBe(i);
      await sleep(250);
    }
    expect(await counted("slow")).toBe(5);
  });

  it("end a lease before its window: after the window, the next hit goes to Redis", async () => {
    const { recorded, counted: calls } = await instance();
    const { rateLimit } = createRedisStores(recorded, { prefix: "t:", leaseMaxHits: 64 });
    const hitNow = syncHit(rateLimit)!;
    let used = 0;
    for (; used < 200; used++) {
      if (hitNow("w", 800, 10_000) === undefined) await rateLimit.hit("w", 800, 10_000);
      await nextTurn();
    }
    await sleep(20); // a lease fetched ahead has landed
    // This instance holds leased hits it has not used…
    expect(await counted("w")).toBeGreaterThan(used);
    expect(hitNow("w", 800, 10_000)?.allowed).toBe(true);
    const ttl = await redis.pttl("t:rate:w");
    expect(ttl).toBeGreaterThan(100);
    // …until a little before the window ends (timers may fire a millisecond early: 5 ms before).
    await sleep(ttl - 5);
    expect(hitNow("w", 800, 10_000)).toBeUndefined();
    await sleep(30);
    expect(await redis.exists("t:rate:w")).toBe(0);
    const before = calls.scripts;
    expect((await rateLimit.hit("w", 800, 10_000)).allowed).toBe(true);
    expect(calls.scripts).toBe(before + 1);
    // A new window, started by this hit.
    expect(await counted("w")).toBeGreaterThanOrEqual(1);
    expect(await redis.pttl("t:rate:w")).toBeGreaterThan(700);
  });

  it("keep a lease through a lost Redis; without one, the hit fails as today", async () => {
    const port = await freePort();
    const lost = await startRedisServer(port);
    try {
      const { client, recorded } = await instance(port);
      const { rateLimit } = createRedisStores(recorded, { prefix: "t:", leaseMaxHits: 32 });
      const hitNow = syncHit(rateLimit)!;
      for (let i = 0; i < 100; i++) {
        if (hitNow("r", 60_000, 10_000) === undefined) await rateLimit.hit("r", 60_000, 10_000);
        await nextTurn();
      }
      await sleep(50); // the last lease fetched ahead has landed
      const held = Number(await client.get("t:rate:r")) - 100;
      expect(held).toBeGreaterThan(0);
      await killRedisServer(lost);
      // Every hit the lease holds passes (Redis granted it), through the promise as well; the
      // fetch ahead that fails meanwhile rejects none of them.
      const results: RateLimitResult[] = [];
      for (let i = 0; i < held; i++) {
        results.push(await rateLimit.hit("r", 60_000, 10_000));
        await nextTurn();
      }
      expect(results.every((r) => r.allowed)).toBe(true);
      // Then none is left: the hit fails, and the relay answers as it does today.
      await expect(rateLimit.hit("r", 60_000, 10_000)).rejects.toBeInstanceOf(
        RelayStoreUnavailableError,
      );
      await expect(rateLimit.hit("new", 60_000, 10_000)).rejects.toBeInstanceOf(
        RelayStoreUnavailableError,
      );
    } finally {
      await killRedisServer(lost);
    }
  });

  it("drop the leases of idle users once many are held", async () => {
    const { recorded } = await instance();
    const { rateLimit } = createRedisStores(recorded, { prefix: "t:", leaseMaxHits: 64 });
    const hitNow = syncHit(rateLimit)!;
    // One busy user, holding hits leased ahead.
    for (let i = 0; i < 50; i++) {
      if (hitNow("busy", 60_000, 10_000) === undefined) await rateLimit.hit("busy", 60_000, 10_000);
      await nextTurn();
    }
    expect(await counted("busy")).toBeGreaterThan(50);
    // 10,000 users with one request each: each lease of one hit, used at once.
    for (let start = 0; start < 9_999; start += 1_000) {
      const users = Array.from({ length: Math.min(1_000, 9_999 - start) }, (_, i) => start + i);
      await Promise.all(users.map((u) => rateLimit.hit(`idle-${u}`, 60_000, 10_000)));
    }
    expect(usersHeld(rateLimit.hit)).toBe(10_000);
    // The next new user sweeps the idle ones; the busy user's lease stays.
    await rateLimit.hit("late", 60_000, 10_000);
    expect(usersHeld(rateLimit.hit)).toBe(2);
    expect(hitNow("busy", 60_000, 10_000)?.allowed).toBe(true);
  });

  it("validate their options at creation", () => {
    const make = (options: object) => () => createRedisStores(redis, options);
    expect(make({ leases: "yes" })).toThrow(TypeError);
    for (const leaseMaxHits of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "8"])
      expect(make({ leaseMaxHits })).toThrow(/"leaseMaxHits" expected a positive integer/);
    expect(make({ leases: false, leaseMaxHits: 4 })).not.toThrow();
    // Off: exact shared counting, no answer without Redis.
    const exact = createRedisStores(redis, { leases: false }).rateLimit;
    expect(syncHit(exact)).toBeUndefined();
  });
});

describe("the relay with leases", () => {
  it("answers a user's requests from leases; with Redis lost, a write a lease holds passes, then 503", async () => {
    const emulator = await startEmulatorServer({ port: 0 });
    const port = await freePort();
    const lost = await startRedisServer(port);
    try {
      const { client, recorded, counted: calls } = await instance(port);
      const stores = createRedisStores(recorded, { prefix: "t:", commandTimeoutMs: 300 });
      const relay = await serveRelay(
        createRelay(
          emulatorRelayOptions(emulator.url, {
            rateLimit: { limit: 10_000, windowMs: 60_000, store: stores.rateLimit },
            ownershipCache: stores.ownershipCache,
          }),
        ),
      );
      const api = `${relay.url}/api/grid`;
      try {
        const user = {
          customerId: (
            await platform(emulator.url, "POST", "/customers", {
              customerType: "INDIVIDUAL",
              email: "leases@example.com",
            })
          ).id as string,
        };
        const accounts = `${api}/customers/internal-accounts?type=EMBEDDED_WALLET`;
        const wallet = (
          (await (await fetch(accounts, { headers: as(user) })).json()) as {
            data: { id: string }[];
          }
        ).data[0]!.id;
        const listCredentials = () =>
          fetch(`${api}/auth/credentials?accountId=${wallet}`, { headers: as(user) });
        const credential = (
          (await (await listCredentials()).json()) as {
            data: { id: string; type: string }[];
          }
        ).data.find((c) => c.type === "EMAIL_OTP")!.id;
        const challenge = () =>
          fetch(`${api}/auth/credentials/${credential}/challenge`, {
            method: "POST",
            headers: json(user),
          });

        const before = calls.scripts;
        for (let i = 0; i < 100; i++) {
          const response = await listCredentials();
          await response.arrayBuffer();
          expect(response.status).toBe(200);
        }
        // 100 requests, a handful of lease asks.
        expect(calls.scripts - before).toBeLessThanOrEqual(12);
        await sleep(50); // the last lease fetched ahead has landed
        const held = Number(await client.get("t:rate:signet-relay:" + user.customerId)) - 102;
        expect(held).toBeGreaterThanOrEqual(1);

        await killRedisServer(lost);
        // A write the lease holds a hit for passes the limit (Redis granted it)…
        const write = await challenge();
        await write.arrayBuffer();
        expect(write.status).toBe(200);
        // …reads spend the rest (and would pass anyway)…
        for (let i = 1; i < held; i++) {
          const response = await listCredentials();
          await response.arrayBuffer();
          expect(response.status).toBe(200);
        }
        // …and with no lease left, a write fails closed as it does today.
        const refused = await challenge();
        expect(refused.status).toBe(503);
        expect(((await refused.json()) as { code: string }).code).toBe("RELAY_STORE_UNAVAILABLE");
        const read = await listCredentials();
        await read.arrayBuffer();
        expect(read.status).toBe(200);
      } finally {
        await relay.close();
      }
    } finally {
      await killRedisServer(lost);
      await emulator.close();
    }
  }, 30_000);

  it("refuses a write of a user with no lease while Redis is down, and counts exactly once it is back", async () => {
    const emulator = await startEmulatorServer({ port: 0 });
    const port = await freePort();
    let server: ChildProcess | undefined = await startRedisServer(port);
    // A client that reconnects (every 50 ms) and fails commands at once while disconnected.
    const client = new Redis({
      host: "127.0.0.1",
      port,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => 50,
    });
    client.on("error", () => {});
    clients.push(client);
    const ready = () =>
      client.status === "ready"
        ? Promise.resolve()
        : new Promise<void>((resolve) => client.once("ready", () => resolve()));
    await ready();
    try {
      // A limit under 64: each lease is one hit (the default cap is the limit ÷ 32), so no
      // hit is ever held here and every request is counted in Redis as it comes.
      const limit = 5;
      const calls = { eval: 0, evalsha: 0 };
      const recorded: RedisClientLike = {
        eval: (script, numKeys, ...args) => {
          calls.eval++;
          return client.eval(script, numKeys, ...args);
        },
        evalsha: (sha1, numKeys, ...args) => {
          calls.evalsha++;
          return client.evalsha(sha1, numKeys, ...args);
        },
        get: (key) => client.get(key),
        set: (key, value, mode, ttlMs) => client.set(key, value, mode, ttlMs),
      };
      const stores = createRedisStores(recorded, { prefix: "t:", commandTimeoutMs: 300 });
      const relay = await serveRelay(
        createRelay(
          emulatorRelayOptions(emulator.url, {
            rateLimit: { limit, windowMs: 60_000, store: stores.rateLimit },
            ownershipCache: stores.ownershipCache,
          }),
        ),
      );
      const api = `${relay.url}/api/grid`;
      try {
        // The user's ids from the platform API, not through the relay: no hit counted before.
        const customerId = (
          await platform(emulator.url, "POST", "/customers", {
            customerType: "INDIVIDUAL",
            email: "restart@example.com",
          })
        ).id as string;
        const user = { customerId };
        const accounts = (await platform(
          emulator.url,
          "GET",
          `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&type=EMBEDDED_WALLET`,
        )) as { data: { id: string }[] };
        const wallet = accounts.data[0]!.id;
        const credentials = (await platform(
          emulator.url,
          "GET",
          `/auth/credentials?accountId=${encodeURIComponent(wallet)}`,
        )) as { data: { id: string; type: string }[] };
        const credential = credentials.data.find((c) => c.type === "EMAIL_OTP")!.id;
        const key = `t:rate:signet-relay:${customerId}`;
        const read = async () => {
          const response = await fetch(`${api}/auth/credentials?accountId=${wallet}`, {
            headers: as(user),
          });
          const body = (await response.json()) as { code?: string };
          return { status: response.status, code: body.code };
        };
        const write = async () => {
          const response = await fetch(`${api}/auth/credentials/${credential}/challenge`, {
            method: "POST",
            headers: json(user),
          });
          const body = (await response.json()) as { code?: string };
          return { status: response.status, code: body.code };
        };

        // One write while Redis is up, by EVAL: Redis caches the script (EVALSHA from then on).
        expect(await write()).toEqual({ status: 200, code: undefined });
        expect(await client.get(key)).toBe("1");
        expect(calls).toEqual({ eval: 1, evalsha: 0 });

        await killRedisServer(server);
        server = undefined;
        // Down: no lease to spend, so a write fails closed; a read goes on.
        expect(await write()).toEqual({ status: 503, code: "RELAY_STORE_UNAVAILABLE" });
        expect((await read()).status).toBe(200);
        expect(await write()).toEqual({ status: 503, code: "RELAY_STORE_UNAVAILABLE" });

        // Back on the same port, empty (nothing persisted, the script no longer cached).
        server = await startRedisServer(port);
        await ready();
        // The next ask is granted, and counted in the new window (its EVALSHA met NOSCRIPT and
        // was sent again as an EVAL)…
        const before = { ...calls };
        expect(await write()).toEqual({ status: 200, code: undefined });
        expect(await client.get(key)).toBe("1");
        expect(calls).toEqual({ eval: before.eval + 1, evalsha: before.evalsha + 1 });
        // …exactly: the limit and no more, each hit past it refused (and counted, as one INCR).
        const after: { status: number; code: string | undefined }[] = [];
        for (let i = 1; i < limit + 2; i++) after.push(i % 2 === 0 ? await write() : await read());
        expect(after.slice(0, limit - 1).map((a) => a.status)).toEqual(Array(limit - 1).fill(200));
        expect(after.slice(limit - 1)).toEqual([
          { status: 429, code: "RATE_LIMITED" },
          { status: 429, code: "RATE_LIMITED" },
        ]);
        expect(Number(await client.get(key))).toBe(limit + 2);
        expect(await client.pttl(key)).toBeGreaterThan(50_000);
      } finally {
        await relay.close();
      }
    } finally {
      client.disconnect();
      await killRedisServer(server);
      await emulator.close();
    }
  }, 30_000);
});
