// The per-user rate limit seam: a fixed-window counter that several relay instances can share.

/** The answer of {@link RateLimitStore.hit}. */
export interface RateLimitResult {
  /** Whether this hit is within the limit. */
  allowed: boolean;
  /** Milliseconds until the window resets; sent as `Retry-After` (rounded up to seconds) when refused. */
  retryAfterMs: number;
}

/**
 * Where the relay counts requests. The in-memory default ({@link createMemoryRateLimitStore})
 * counts per process; to share one limit between several relay instances, implement `hit`
 * over a shared store, e.g. Redis with `INCR key` then, on the first hit, `PEXPIRE key windowMs`,
 * and `PTTL key` for `retryAfterMs` (see the README).
 *
 * @example
 * const store: RateLimitStore = {
 *   async hit(key, windowMs, limit) {
 *     const count = await redis.incr(key);
 *     if (count === 1) await redis.pexpire(key, windowMs);
 *     const ttl = await redis.pttl(key);
 *     return { allowed: count <= limit, retryAfterMs: ttl > 0 ? ttl : windowMs };
 *   },
 * };
 */
export interface RateLimitStore {
  /**
   * Counts one request for `key` in the current window of `windowMs` and tells whether the
   * count is at most `limit`. Must not throw for an unknown key.
   */
  hit(key: string, windowMs: number, limit: number): Promise<RateLimitResult>;
}

/**
 * A hit answered without a promise: the result, or `undefined` when it cannot be answered now
 * (a Redis store with no lease left for the key), in which case it counted nothing and the
 * caller calls `hit`.
 */
type SyncHit = (key: string, windowMs: number, limit: number) => RateLimitResult | undefined;

/**
 * The synchronous count behind each `hit` this package makes (stores in this process's memory,
 * and the Redis store's leases), keyed by that `hit` function: a store whose `hit` an app
 * replaced or wrapped is never bypassed. Not part of {@link RateLimitStore}: a store an app
 * writes may live anywhere.
 */
const syncHits = new WeakMap<RateLimitStore["hit"], SyncHit>();

/** The count of `store` without a promise, when its `hit` is one of this package's. */
export function syncHit(store: RateLimitStore): SyncHit | undefined {
  return syncHits.get(store.hit);
}

/** Makes `hitNow` the synchronous count of `hit` (a store of this package only). */
export function setSyncHit(hit: RateLimitStore["hit"], hitNow: SyncHit): void {
  syncHits.set(hit, hitNow);
}

/** Options of {@link createMemoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /** Clock in milliseconds; defaults to `Date.now`. */
  now?: () => number;
  /** Expired windows are swept once the map holds this many keys (default 10 000). */
  sweepAt?: number;
}

/**
 * A fixed-window {@link RateLimitStore} in this process's memory. No timers: expired windows
 * are swept lazily, so it runs on edge runtimes too.
 *
 * @example createRelay({ …, rateLimit: { limit: 60, windowMs: 60_000, store: createMemoryRateLimitStore() } })
 */
export function createMemoryRateLimitStore(
  options: MemoryRateLimitStoreOptions = {},
): RateLimitStore {
  const now = options.now ?? Date.now;
  const sweepAt = options.sweepAt ?? 10_000;
  const windows = new Map<string, { count: number; resetAt: number }>();
  const hitNow = (key: string, windowMs: number, limit: number): RateLimitResult => {
    const t = now();
    if (windows.size >= sweepAt) {
      for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
    }
    let window = windows.get(key);
    if (window === undefined || window.resetAt <= t) {
      window = { count: 0, resetAt: t + windowMs };
      windows.set(key, window);
    }
    window.count++;
    return { allowed: window.count <= limit, retryAfterMs: window.resetAt - t };
  };
  const hit: RateLimitStore["hit"] = async (key, windowMs, limit) => hitNow(key, windowMs, limit);
  setSyncHit(hit, hitNow);
  return { hit };
}
