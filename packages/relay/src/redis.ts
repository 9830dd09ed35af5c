/**
 * One rate limit and one ownership cache in Redis for many relay instances.
 *
 * @module @signet/relay/redis
 */
// Shared relay state in Redis: one rate limit and one ownership cache for many relay instances
// behind a load balancer. The client is passed in (ioredis, or an adapter over node-redis), so
// the relay itself depends on no Redis package.
import { createDeadlines } from "./deadlines.js";
import { toHex } from "./hex.js";
import type { OwnershipCache } from "./ownership.js";
import type { RateLimitResult, RateLimitStore } from "./rateLimit.js";
import type { WebhookStore } from "./webhooks/store.js";

/**
 * The Redis commands the stores use, in ioredis's calling convention (`new Redis(…)` fits as is).
 * For node-redis, adapt `eval(script, numKeys, ...args)` to `client.eval(script, { keys, arguments })`
 * and `evalsha` to `client.evalSha(sha1, { keys, arguments })` (README, "Many relays as one").
 */
export interface RedisClientLike {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  /**
   * `EVALSHA`: runs a script Redis has cached by its SHA-1, so the script's text is not sent and
   * hashed on every call. Optional: without it every call is an `EVAL`. A `NOSCRIPT` error (the
   * cache was flushed, or a failover reached a replica that never saw the script) is answered
   * by sending the same call as an `EVAL`, which caches the script again.
   */
  evalsha?(sha1: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: "PX", ttlMs: number): Promise<unknown>;
}

/** Options of {@link createRedisStores}. */
export interface RedisStoresOptions {
  /** Prefix of every key (default `signet-relay:`); give each app sharing one Redis its own. */
  prefix?: string;
  /**
   * Milliseconds a Redis command may take before it counts as failed (default 500): a Redis
   * that hangs must not hang requests. Create the ioredis client with `enableOfflineQueue: false`
   * too, so commands fail at once while it is disconnected.
   */
  commandTimeoutMs?: number;
  /**
   * Count the rate-limit hits that arrive in one turn of the event loop with one script call
   * (default `true`): under load, one Redis round trip for many requests instead of one each.
   * Each hit is still counted once, in order, atomically with the others, and judged on its own
   * count, so the limit is what it is unbatched. Set `false` on Redis Cluster, where the keys of
   * one script must share a hash slot (a batch names several users' keys).
   */
  batch?: boolean;
}

/** Thrown by the stores when Redis fails or times out; the relay answers 503 for writes. */
export class RelayStoreUnavailableError extends Error {
  override readonly name = "RelayStoreUnavailableError";
}

// For each key in turn: INCR, then PEXPIRE on the first hit of a window, then PTTL; one atomic
// step, so that two relay instances can never both start a window or lose a count. KEYS[i] is
// hit with the window ARGV[i]; the reply is count and ttl of each key in turn. One script for one
// hit or a batch of them (the same key may come more than once: each hit is counted).
const HITS = `local out = {}
for i = 1, #KEYS do
  local count = redis.call("INCR", KEYS[i])
  if count == 1 then redis.call("PEXPIRE", KEYS[i], ARGV[i]) end
  local ttl = redis.call("PTTL", KEYS[i])
  if ttl < 0 then redis.call("PEXPIRE", KEYS[i], ARGV[i]); ttl = tonumber(ARGV[i]) end
  out[2 * i - 1] = count
  out[2 * i] = ttl
end
return out`;

/** Hex SHA-1 of `text` (the name `EVALSHA` knows a script by), or `undefined` without WebCrypto. */
async function sha1Hex(text: string): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) return undefined;
  return toHex(new Uint8Array(await subtle.digest("SHA-1", new TextEncoder().encode(text))));
}

function isNoScript(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" && message.startsWith("NOSCRIPT");
}

/**
 * A script run through `client`: by `EVALSHA` once its SHA-1 is known and an `EVAL` of it has
 * succeeded (so Redis holds it: a first `EVALSHA` would only earn a `NOSCRIPT`), when the client
 * has `evalsha`; by `EVAL` otherwise. The caller answers a `NOSCRIPT` (a flushed cache, a
 * failover to a replica that never ran it) with the same call by text, which caches the script
 * again. The digest is computed once, in the background: calls made before it is ready use `EVAL`.
 */
function scriptRunner(
  client: RedisClientLike,
  script: string,
): {
  /** Whether the next call goes by `EVALSHA`. */
  bySha: () => boolean;
  call: (numKeys: number, args: (string | number)[], bySha: boolean) => Promise<unknown>;
} {
  let sha: string | undefined;
  let loaded = false;
  const hasEvalsha = typeof client.evalsha === "function";
  if (hasEvalsha) {
    sha1Hex(script).then(
      (hex) => {
        sha = hex;
      },
      () => undefined, // no digest: stay on EVAL
    );
  }
  return {
    bySha: () => sha !== undefined && loaded,
    call(numKeys, args, bySha) {
      if (bySha) return client.evalsha!(sha!, numKeys, ...args);
      const reply = client.eval(script, numKeys, ...args);
      if (!hasEvalsha || loaded) return reply;
      return reply.then((value) => {
        loaded = true;
        return value;
      });
    },
  };
}

/** Runs `flush` once, after the other callbacks of this turn of the event loop. */
const afterThisTurn: (flush: () => void) => void =
  typeof setImmediate === "function" ? (flush) => setImmediate(flush) : queueMicrotask;

/**
 * The most hits one script call counts: Redis runs a script alone, so a batch must stay short
 * (a few hundred INCRs take well under a millisecond) however many requests arrive in one turn.
 */
const MAX_BATCH = 256;

type PendingHit = {
  readonly key: string;
  readonly windowMs: number;
  readonly limit: number;
  readonly resolve: (result: RateLimitResult) => void;
  readonly reject: (error: unknown) => void;
};

/**
 * Runs `command` under the deadline and calls exactly one of `onValue` and `onError` (a
 * {@link RelayStoreUnavailableError}): a callback, not a promise, on the rate limit's hot path.
 */
type Attempt = <T>(
  what: string,
  command: () => Promise<T>,
  onValue: (value: T) => void,
  onError: (error: RelayStoreUnavailableError) => void,
) => void;

/**
 * The options both stores share, read once: the key prefix, and `run`, which gives a command
 * `commandTimeoutMs` (one timer for every command's deadline, not one per command: deadlines.ts)
 * and turns any failure into a {@link RelayStoreUnavailableError}; `attempt`, the same with callbacks.
 */
function redisRunner(options: RedisStoresOptions): {
  prefix: string;
  run: <T>(what: string, command: () => Promise<T>) => Promise<T>;
  attempt: Attempt;
} {
  const prefix = options.prefix ?? "signet-relay:";
  const timeoutMs = options.commandTimeoutMs ?? 500;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new TypeError(`"commandTimeoutMs" expected a positive number, got ${timeoutMs}`);
  const deadlines = createDeadlines(timeoutMs);
  const attempt: Attempt = (what, command, onValue, onError) => {
    let settled = false;
    const stop = deadlines.start(() => {
      settled = true;
      onError(new RelayStoreUnavailableError(`Redis did not answer ${what} in ${timeoutMs} ms`));
    });
    let pending: ReturnType<typeof command>;
    try {
      pending = command();
    } catch (cause) {
      // A client that throws instead of rejecting must not throw out of a batch's flush.
      pending = Promise.reject(cause);
    }
    pending.then(
      (value) => {
        stop();
        if (settled) return;
        settled = true;
        onValue(value);
      },
      (cause: unknown) => {
        stop();
        if (settled) return;
        settled = true;
        // The cause may name the Redis host: keep it off the message, on `cause` only.
        onError(new RelayStoreUnavailableError(`Redis failed on ${what}`, { cause }));
      },
    );
  };
  const run = <T>(what: string, command: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => attempt(what, command, resolve, reject));
  return { prefix, run, attempt };
}

/**
 * The rate limit's `hit` over Redis: each hit waits for the end of this turn of the event loop,
 * and every hit of the turn goes in one script call (or, unbatched, each in its own).
 */
function rateLimitHits(
  client: RedisClientLike,
  prefix: string,
  attempt: Attempt,
  batch: boolean,
): RateLimitStore["hit"] {
  const hits = scriptRunner(client, HITS);
  let pending: PendingHit[] = [];
  const send = (group: readonly PendingHit[]): void => {
    const args: (string | number)[] = new Array(group.length * 2);
    for (let i = 0; i < group.length; i++) {
      const hit = group[i]!;
      args[i] = `${prefix}rate:${hit.key}`;
      args[group.length + i] = Math.max(1, Math.ceil(hit.windowMs));
    }
    const what = group.length === 1 ? "a rate-limit hit" : "rate-limit hits";
    const fail = (error: unknown): void => {
      for (const hit of group) hit.reject(error);
    };
    const judge = (reply: unknown): void => {
      if (!Array.isArray(reply) || reply.length !== group.length * 2) {
        fail(new RelayStoreUnavailableError("Redis answered a rate-limit hit with a bad reply"));
        return;
      }
      for (let i = 0; i < group.length; i++) {
        const hit = group[i]!;
        const count = Number(reply[2 * i]);
        const ttl = Number(reply[2 * i + 1]);
        if (!Number.isFinite(count) || !Number.isFinite(ttl)) {
          hit.reject(
            new RelayStoreUnavailableError("Redis answered a rate-limit hit with a bad reply"),
          );
        } else {
          hit.resolve({ allowed: count <= hit.limit, retryAfterMs: Math.max(0, ttl) });
        }
      }
    };
    const bySha = hits.bySha();
    attempt(
      what,
      () => hits.call(group.length, args, bySha),
      judge,
      (error) => {
        // Redis no longer holds the script: the same call by text (nothing was counted).
        if (bySha && isNoScript(error.cause)) {
          attempt(what, () => hits.call(group.length, args, false), judge, fail);
        } else {
          fail(error);
        }
      },
    );
  };
  const flush = (): void => {
    // Already sent when the batch filled up before the end of the turn.
    if (pending.length === 0) return;
    const group = pending;
    pending = [];
    send(group);
  };
  return (key, windowMs, limit) =>
    new Promise<RateLimitResult>((resolve, reject) => {
      const hit = { key, windowMs, limit, resolve, reject };
      if (!batch) send([hit]);
      else if (pending.push(hit) === 1) afterThisTurn(flush);
      else if (pending.length === MAX_BATCH) flush();
    });
}

/**
 * A {@link RateLimitStore} and an {@link OwnershipCache} in one Redis, for relays that scale out:
 * every instance counts against the same per-user window and reuses the same ownership facts.
 *
 * Failure behaviour: when Redis fails or times out, the rate limit cannot be enforced, so the
 * relay refuses writes with 503 `RELAY_STORE_UNAVAILABLE` (fail closed) and lets reads through;
 * the ownership cache treats a failure as a miss and asks the service (slower, never wrong). Both
 * recover by themselves when Redis answers again.
 *
 * @param client - An ioredis client (or anything with its `eval`, `get` and `set` shapes, and
 *   optionally `evalsha`).
 * @example
 * ```ts
 * import Redis from "ioredis";
 * import { createRelay } from "@signet/relay";
 * import { createRedisStores } from "@signet/relay/redis";
 *
 * const stores = createRedisStores(new Redis(process.env.REDIS_URL!, { enableOfflineQueue: false }));
 * export const relay = createRelay({
 *   …,
 *   rateLimit: { limit: 120, windowMs: 60_000, store: stores.rateLimit },
 *   ownershipCache: stores.ownershipCache,
 * });
 * ```
 */
export function createRedisStores(
  client: RedisClientLike,
  options: RedisStoresOptions = {},
): { rateLimit: RateLimitStore; ownershipCache: OwnershipCache } {
  const { prefix, run, attempt } = redisRunner(options);
  return {
    rateLimit: { hit: rateLimitHits(client, prefix, attempt, options.batch ?? true) },
    ownershipCache: {
      async get(key) {
        return (await run("a read", () => client.get(`${prefix}${key}`))) ?? undefined;
      },
      async set(key, value, ttlMs) {
        if (ttlMs <= 0) return;
        await run("a write", () => client.set(`${prefix}${key}`, value, "PX", Math.ceil(ttlMs)));
      },
    },
  };
}

/**
 * The Redis commands the webhook store uses on its main connection, in ioredis's calling
 * convention (`new Redis(…)` fits as is).
 */
export interface RedisWebhookClientLike {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: "PX", ttlMs: number): Promise<unknown>;
  set(key: string, value: string, mode: "PX", ttlMs: number, nx: "NX"): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
}

/**
 * A Redis connection in subscriber mode (ioredis: a second `new Redis(…)`; a connection that
 * subscribes can run no other command).
 */
export interface RedisSubscriberLike {
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
}

/**
 * A {@link WebhookStore} in one Redis for relays that scale out: a delivery id is taken once
 * across every instance (`SET NX PX`), a request's sender is known to all of them, and an
 * operation's end is kept (`SET PX`) and published (`PUBLISH`), so the device waiting on any
 * instance hears a webhook that reached another. When Redis fails, a delivery is answered 503
 * (the service sends it again later) and a device's wait 503 (it polls instead).
 *
 * @param client - An ioredis client for commands.
 * @param subscriber - A second ioredis client, used only to subscribe.
 * @example
 * ```ts
 * import Redis from "ioredis";
 * import { createRedisWebhookStore } from "@signet/relay/redis";
 *
 * const url = process.env.REDIS_URL!;
 * const store = createRedisWebhookStore(new Redis(url), new Redis(url));
 * export const relay = createRelay({ …, webhooks: { publicKey, store } });
 * ```
 */
export function createRedisWebhookStore(
  client: RedisWebhookClientLike,
  subscriber: RedisSubscriberLike,
  options: RedisStoresOptions = {},
): WebhookStore {
  const { prefix, run } = redisRunner(options);
  // One Redis subscription per channel however many devices wait on it here. Every waiter
  // awaits the same SUBSCRIBE: a second one must not read the kept end before the subscription
  // is live (a publish in between would reach neither), nor outlive a SUBSCRIBE that failed.
  const channels = new Map<
    string,
    { listeners: Set<(message: string) => void>; ready: Promise<void> }
  >();
  subscriber.on("message", (channel, message) => {
    if (!channel.startsWith(prefix)) return;
    for (const listener of [...(channels.get(channel.slice(prefix.length))?.listeners ?? [])])
      listener(message);
  });
  return {
    async claim(key, value, ttlMs) {
      const reply = await run("a claim", () =>
        client.set(`${prefix}${key}`, value, "PX", Math.max(1, Math.ceil(ttlMs)), "NX"),
      );
      return reply === "OK";
    },
    async get(key) {
      return (await run("a read", () => client.get(`${prefix}${key}`))) ?? undefined;
    },
    async publish(channel, message, ttlMs) {
      await run("a write", () =>
        client.set(`${prefix}${channel}`, message, "PX", Math.max(1, Math.ceil(ttlMs))),
      );
      await run("a publish", () => client.publish(`${prefix}${channel}`, message));
    },
    async subscribe(channel, listener) {
      let entry = channels.get(channel);
      if (entry === undefined) {
        const created = {
          listeners: new Set<(message: string) => void>(),
          ready: run("a subscribe", () => subscriber.subscribe(`${prefix}${channel}`)).then(
            () => undefined,
          ),
        };
        created.ready.catch(() => {
          if (channels.get(channel) === created) channels.delete(channel);
        });
        channels.set(channel, created);
        entry = created;
      }
      const own = entry;
      own.listeners.add(listener);
      try {
        await own.ready;
      } catch (error) {
        own.listeners.delete(listener);
        throw error;
      }
      return () => {
        own.listeners.delete(listener);
        if (own.listeners.size === 0 && channels.get(channel) === own) {
          channels.delete(channel);
          subscriber.unsubscribe(`${prefix}${channel}`).catch(() => undefined);
        }
      };
    },
  };
}
