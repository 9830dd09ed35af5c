// The Redis stores against a real redis-server (Debian's package, started here on 127.0.0.1):
// the rate-limit script runs by EVALSHA when the client has it, falls back to EVAL on NOSCRIPT,
// and counts the hits of one turn of the event loop in one call, each exactly once.
import type { ChildProcess } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RateLimitStore } from "../src/rateLimit.js";
import {
  createRedisStores,
  type RedisClientLike,
  RelayStoreUnavailableError,
} from "../src/redis.js";
import { freePort, killRedisServer, startRedisServer } from "./redisServer.js";

let redisProcess: ChildProcess | undefined;
let redis: Redis;

beforeAll(async () => {
  const port = await freePort();
  redisProcess = await startRedisServer(port);
  redis = new Redis({
    host: "127.0.0.1",
    port,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
  });
  redis.on("error", () => {});
  await new Promise<void>((resolve) => redis.once("ready", () => resolve()));
}, 30_000);

afterAll(async () => {
  redis?.disconnect();
  await killRedisServer(redisProcess);
});

beforeEach(async () => {
  await redis.flushall();
  await redis.script("FLUSH");
});

/** The real client, with every script call it makes written down. */
function recorded(options: { evalsha: boolean }) {
  const calls: { command: "eval" | "evalsha"; keys: number; error?: string }[] = [];
  const note = <T>(command: "eval" | "evalsha", keys: number, call: Promise<T>) =>
    call.then(
      (value) => {
        calls.push({ command, keys });
        return value;
      },
      (error: unknown) => {
        calls.push({ command, keys, error: String((error as Error).message).split(" ")[0] ?? "" });
        throw error;
      },
    );
  const client: RedisClientLike = {
    eval: (script, numKeys, ...args) => note("eval", numKeys, redis.eval(script, numKeys, ...args)),
    get: (key) => redis.get(key),
    set: (key, value, mode, ttlMs) => redis.set(key, value, mode, ttlMs),
    ...(options.evalsha
      ? {
          evalsha: (sha1: string, numKeys: number, ...args: (string | number)[]) =>
            note("evalsha", numKeys, redis.evalsha(sha1, numKeys, ...args)),
        }
      : {}),
  };
  return { client, calls };
}

/** Lets the background SHA-1 digest of the script finish (it is computed once, off the hot path). */
const digestReady = () => new Promise((resolve) => setTimeout(resolve, 50));

/** One hit (an EVAL: Redis now holds the script), the digest, and the record cleared. */
async function warm(store: RateLimitStore, calls: unknown[]): Promise<void> {
  await store.hit("warm-up", 60_000, 1);
  await digestReady();
  calls.length = 0;
}

/** `n` hits on `key` made in one turn of the event loop. */
const hitsTogether = (store: RateLimitStore, key: string, n: number, limit: number) =>
  Promise.all(Array.from({ length: n }, () => store.hit(key, 60_000, limit)));

describe("the Redis rate limit", () => {
  it("runs by EVALSHA once Redis holds the script and its digest is known, before by EVAL", async () => {
    const { client, calls } = recorded({ evalsha: true });
    const { rateLimit } = createRedisStores(client, { prefix: "t:", leases: false });
    await rateLimit.hit("a", 60_000, 5);
    await digestReady();
    await rateLimit.hit("a", 60_000, 5);
    await rateLimit.hit("a", 60_000, 5);
    expect(calls.map((c) => c.command)).toEqual(["eval", "evalsha", "evalsha"]);
    expect(await redis.get("t:rate:a")).toBe("3");
  });

  it("falls back to EVAL on NOSCRIPT (a flushed script cache) and counts the hit once", async () => {
    const { client, calls } = recorded({ evalsha: true });
    const { rateLimit } = createRedisStores(client, { prefix: "t:", leases: false });
    await rateLimit.hit("b", 60_000, 5);
    await digestReady();
    await redis.script("FLUSH");
    const result = await rateLimit.hit("b", 60_000, 5);
    expect(result.allowed).toBe(true);
    expect(calls).toEqual([
      { command: "eval", keys: 1 },
      { command: "evalsha", keys: 1, error: "NOSCRIPT" },
      { command: "eval", keys: 1 },
    ]);
    // The EVAL cached it again: the next hit is an EVALSHA.
    await rateLimit.hit("b", 60_000, 5);
    expect(calls.at(-1)).toEqual({ command: "evalsha", keys: 1 });
    expect(await redis.get("t:rate:b")).toBe("3");
  });

  it("works with a client that has no evalsha: every call an EVAL", async () => {
    const { client, calls } = recorded({ evalsha: false });
    const { rateLimit } = createRedisStores(client, { prefix: "t:", leases: false });
    await rateLimit.hit("c", 60_000, 5);
    await digestReady();
    await rateLimit.hit("c", 60_000, 5);
    expect(calls.map((c) => c.command)).toEqual(["eval", "eval"]);
  });

  it("counts the hits of one turn in one call, each exactly once, and judges each on its count", async () => {
    const { client, calls } = recorded({ evalsha: true });
    const { rateLimit } = createRedisStores(client, { prefix: "t:", leases: false });
    await warm(rateLimit, calls);
    const results = await hitsTogether(rateLimit, "d", 12, 5);
    expect(calls).toEqual([{ command: "evalsha", keys: 12 }]);
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    // In order: the first five hits are the allowed ones.
    expect(results.map((r) => r.allowed)).toEqual([
      ...Array(5).fill(true),
      ...Array(7).fill(false),
    ]);
    for (const r of results) expect(r.retryAfterMs).toBeGreaterThan(59_000);
    expect(await redis.get("t:rate:d")).toBe("12");
  });

  it("keeps one limit across instances whose batches interleave", async () => {
    const one = createRedisStores(recorded({ evalsha: true }).client, {
      prefix: "t:",
      leases: false,
    }).rateLimit;
    const two = createRedisStores(recorded({ evalsha: true }).client, {
      prefix: "t:",
      leases: false,
    }).rateLimit;
    const results = (
      await Promise.all([
        hitsTogether(one, "e", 30, 40),
        hitsTogether(two, "e", 30, 40),
        hitsTogether(one, "f", 3, 40),
      ])
    ).flat();
    expect(results.filter((r) => r.allowed)).toHaveLength(43);
    expect(await redis.get("t:rate:e")).toBe("60");
    expect(await redis.get("t:rate:f")).toBe("3");
  });

  it("sends each hit alone with batch: false (Redis Cluster)", async () => {
    const { client, calls } = recorded({ evalsha: true });
    const { rateLimit } = createRedisStores(client, { prefix: "t:", batch: false, leases: false });
    await warm(rateLimit, calls);
    const results = await hitsTogether(rateLimit, "g", 4, 3);
    expect(calls).toEqual(Array(4).fill({ command: "evalsha", keys: 1 }));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
  });

  it("caps a batch at 256 hits", async () => {
    const { client, calls } = recorded({ evalsha: true });
    const { rateLimit } = createRedisStores(client, { prefix: "t:", leases: false });
    await warm(rateLimit, calls);
    const results = await hitsTogether(rateLimit, "h", 600, 1_000);
    expect(calls.map((c) => c.keys).sort((x, y) => y - x)).toEqual([256, 256, 88]);
    expect(results.every((r) => r.allowed)).toBe(true);
    expect(await redis.get("t:rate:h")).toBe("600");
  });

  it("starts a window on the first hit and keeps its expiry on the later ones", async () => {
    const { rateLimit } = createRedisStores(recorded({ evalsha: true }).client, {
      prefix: "t:",
      leases: false,
    });
    await hitsTogether(rateLimit, "i", 2, 5);
    const ttl = await redis.pttl("t:rate:i");
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("rejects every hit of a batch with RelayStoreUnavailableError when Redis fails", async () => {
    const failing: RedisClientLike = {
      eval: async () => {
        throw new Error("connection lost to 10.0.0.7:6379");
      },
      evalsha: async () => {
        throw new Error("connection lost to 10.0.0.7:6379");
      },
      get: async () => null,
      set: async () => "OK",
    };
    const { rateLimit } = createRedisStores(failing);
    const settled = await Promise.allSettled([
      rateLimit.hit("j", 60_000, 5),
      rateLimit.hit("k", 60_000, 5),
    ]);
    for (const outcome of settled) {
      expect(outcome.status).toBe("rejected");
      const reason = (outcome as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(RelayStoreUnavailableError);
      // The cause may name the host: never the message.
      expect(reason.message).not.toContain("10.0.0.7");
    }
  });

  it("gives up on a Redis that does not answer within commandTimeoutMs, once", async () => {
    let answer: ((reply: unknown) => void) | undefined;
    const hanging: RedisClientLike = {
      eval: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
      get: async () => null,
      set: async () => "OK",
    };
    const { rateLimit } = createRedisStores(hanging, { commandTimeoutMs: 50 });
    const started = performance.now();
    const outcome = rateLimit.hit("n", 60_000, 5);
    await expect(outcome).rejects.toThrow(/did not answer a rate-limit hit in 50 ms/);
    expect(performance.now() - started).toBeLessThan(1_000);
    // A late answer changes nothing: the hit was settled once, by the deadline.
    answer?.([1, 60_000]);
    await expect(outcome).rejects.toBeInstanceOf(RelayStoreUnavailableError);
  });

  it("rejects the hits when the client throws instead of rejecting", async () => {
    const throwing: RedisClientLike = {
      eval: () => {
        throw new Error("not connected");
      },
      get: async () => null,
      set: async () => "OK",
    };
    const { rateLimit } = createRedisStores(throwing);
    await expect(rateLimit.hit("m", 60_000, 5)).rejects.toBeInstanceOf(RelayStoreUnavailableError);
  });

  it("rejects a reply of the wrong shape", async () => {
    const odd: RedisClientLike = {
      eval: async () => [1],
      get: async () => null,
      set: async () => "OK",
    };
    const { rateLimit } = createRedisStores(odd);
    await expect(rateLimit.hit("l", 60_000, 5)).rejects.toBeInstanceOf(RelayStoreUnavailableError);
  });
});
