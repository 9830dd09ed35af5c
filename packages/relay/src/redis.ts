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
import { type LeaseAsk, leasedHits, type SendAsk } from "./leases.js";
import type { OwnershipCache } from "./ownership.js";
import { type RateLimitResult, type RateLimitStore, setSyncHit } from "./rateLimit.js";
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
  /**
   * Rate-limit leases (default `true`): an instance takes several hits of a user's window from
   * Redis in one atomic step (never more than the window has left) and answers that user's next
   * requests from them in memory, with no round trip. A lease starts at one hit, doubles only
   * while its user needs the next one within a second (an eighth of a shorter window), is
   * fetched ahead only for such a user, and ends a little before its window. The limit is never
   * exceeded across instances; hits an instance leased but did not use make it stricter for that
   * user elsewhere, by at most `leaseMaxHits` + ⌊`leaseMaxHits` / 2⌋ per instance per window.
   * While Redis is down, hits a lease already holds are allowed (Redis granted them).
   *
   * `false`: every hit is counted in Redis as it comes (exact shared counting: no instance holds
   * hits the others could use), at one Redis round trip per request when requests come one at
   * a time.
   */
  leases?: boolean;
  /**
   * The most hits one lease takes (default: the limit ÷ 32, rounded down, at least 1; so up to
   * a limit of 63 a lease is one hit, which is exact counting).
   */
  leaseMaxHits?: number;
}

/** Thrown by the stores when Redis fails or times out; the relay answers 503 for writes. */
export class RelayStoreUnavailableError extends Error {
  override readonly name = "RelayStoreUnavailableError";
}

// For each key in turn, one atomic step (two relay instances can never both start a window or
// lose a count): INCRBY the hits wanted; when that passes the limit, DECRBY back to what the
// window had left, granted = min(wanted, limit - count before), or, when nothing was left, to
// one hit more (the refused hit is counted, as one INCR would); PEXPIRE when the window has no
// expiry yet (its first hit); PTTL. KEYS[i] is asked for with the window ARGV[i], ARGV[n + i]
// hits wanted and the limit ARGV[2n + i]; the reply is the hits granted and the ttl of each key
// in turn. One script for one ask or a batch of them (the same key may come more than once:
// each is granted in order).
const LEASES = `local n = #KEYS
local out = {}
for i = 1, n do
  local key = KEYS[i]
  local wanted = tonumber(ARGV[n + i])
  local limit = tonumber(ARGV[2 * n + i])
  local count = redis.call("INCRBY", key, wanted)
  local granted = wanted
  if count > limit then
    granted = math.max(0, limit - (count - wanted))
    local back = wanted - math.max(granted, 1)
    if back > 0 then redis.call("DECRBY", key, back) end
  end
  local ttl = redis.call("PTTL", key)
  if ttl < 0 then redis.call("PEXPIRE", key, ARGV[i]); ttl = tonumber(ARGV[i]) end
  out[2 * i - 1] = granted
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
 * Sends rate-limit asks to Redis: each waits for the end of this turn of the event loop, and
 * every ask of the turn goes in one script call (or, unbatched, each in its own).
 */
function leaseAsks(
  client: RedisClientLike,
  prefix: string,
  attempt: Attempt,
  batch: boolean,
): SendAsk {
  const script = scriptRunner(client, LEASES);
  let pending: LeaseAsk[] = [];
  const send = (group: readonly LeaseAsk[]): void => {
    const n = group.length;
    const args: (string | number)[] = new Array(n * 4);
    for (let i = 0; i < n; i++) {
      const ask = group[i]!;
      args[i] = `${prefix}rate:${ask.key}`;
      args[n + i] = Math.max(1, Math.ceil(ask.windowMs));
      args[2 * n + i] = ask.sending();
      args[3 * n + i] = ask.limit;
    }
    const what = n === 1 ? "a rate-limit hit" : "rate-limit hits";
    const fail = (error: unknown): void => {
      for (const ask of group) ask.failed(error);
    };
    const judge = (reply: unknown): void => {
      if (!Array.isArray(reply) || reply.length !== n * 2) {
        fail(new RelayStoreUnavailableError("Redis answered a rate-limit hit with a bad reply"));
        return;
      }
      for (let i = 0; i < n; i++) {
        const ask = group[i]!;
        const granted = Number(reply[2 * i]);
        const ttl = Number(reply[2 * i + 1]);
        if (!Number.isInteger(granted) || granted < 0 || !Number.isFinite(ttl)) {
          ask.failed(
            new RelayStoreUnavailableError("Redis answered a rate-limit hit with a bad reply"),
          );
        } else {
          ask.granted(granted, Math.max(0, ttl));
        }
      }
    };
    const bySha = script.bySha();
    attempt(
      what,
      () => script.call(n, args, bySha),
      judge,
      (error) => {
        // Redis no longer holds the script: the same call by text (nothing was counted).
        if (bySha && isNoScript(error.cause)) {
          attempt(what, () => script.call(n, args, false), judge, fail);
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
  return (ask) => {
    if (!batch) send([ask]);
    else if (pending.push(ask) === 1) afterThisTurn(flush);
    else if (pending.length === MAX_BATCH) flush();
  };
}

/** The rate limit's `hit` with every hit counted in Redis as it comes (`leases: false`). */
function exactHits(send: SendAsk): RateLimitStore["hit"] {
  return (key, windowMs, limit) =>
    new Promise<RateLimitResult>((resolve, reject) => {
      send({
        key,
        windowMs,
        limit,
        sending: () => 1,
        granted: (hits, ttlMs) => resolve({ allowed: hits > 0, retryAfterMs: ttlMs }),
        failed: reject,
      });
    });
}

/** The rate limit over Redis: leased (answered at once while a lease lasts) or exact. */
function redisRateLimit(
  client: RedisClientLike,
  prefix: string,
  attempt: Attempt,
  options: RedisStoresOptions,
): RateLimitStore {
  const { leases = true, leaseMaxHits } = options;
  if (typeof leases !== "boolean")
    throw new TypeError(`"leases" expected a boolean, got ${leases}`);
  if (leaseMaxHits !== undefined && !(Number.isSafeInteger(leaseMaxHits) && leaseMaxHits >= 1))
    throw new TypeError(`"leaseMaxHits" expected a positive integer, got ${leaseMaxHits}`);
  const send = leaseAsks(client, prefix, attempt, options.batch ?? true);
  if (!leases) return { hit: exactHits(send) };
  const { hit, hitNow } = leasedHits(send, leaseMaxHits);
  setSyncHit(hit, hitNow);
  return { hit };
}

/**
 * A {@link RateLimitStore} and an {@link OwnershipCache} in one Redis, for relays that scale out:
 * every instance counts against the same per-user window and reuses the same ownership facts.
 *
 * The rate limit takes leases of several hits of a user's window by default (see
 * {@link RedisStoresOptions.leases}): a user's requests are then mostly answered without a
 * Redis round trip, never beyond the limit across instances.
 *
 * Failure behaviour: when Redis fails or times out, the rate limit cannot be enforced, so the
 * relay refuses writes with 503 `RELAY_STORE_UNAVAILABLE` (fail closed) and lets reads through,
 * except for hits a lease already holds (Redis granted them), which are allowed;
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
    rateLimit: redisRateLimit(client, prefix, attempt, options),
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
