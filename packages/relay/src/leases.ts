// Rate-limit leases: an instance takes several hits of a user's window from the shared store in
// one atomic step (granted = min(wanted, limit − count), so the store never counts past the
// limit for them) and spends them here, with no round trip and no promise. A lease never
// outlives its window, grows only while its user spends leases quickly, and is fetched ahead
// only for such a user: a slow user holds no reserve.
import type { RateLimitResult, RateLimitStore } from "./rateLimit.js";

/** One request for hits of `key`'s window, queued to the shared store. */
export interface LeaseAsk {
  readonly key: string;
  readonly windowMs: number;
  readonly limit: number;
  /** Called once, as the ask leaves for the store: the number of hits it asks for (1 or more). */
  sending(): number;
  /** The store granted `hits` (0: the window is full, and the hit was counted as refused). */
  granted(hits: number, ttlMs: number): void;
  failed(error: unknown): void;
}

/** Sends `ask` to the shared store (now, or with the other asks of this turn). */
export type SendAsk = (ask: LeaseAsk) => void;

/** Hits leased in one grant, spent here until `endsAt` (this process's clock, ms). */
type Chunk = { left: number; readonly endsAt: number };

type Waiter = {
  readonly resolve: (result: RateLimitResult) => void;
  readonly reject: (error: unknown) => void;
};

/** What this instance holds of one user's window. */
interface UserLease {
  /** Leased hits, oldest first: at most the current one and the one fetched ahead. */
  chunks: Chunk[];
  /** Hits the next lease asks for. */
  size: number;
  /** When the last lease was asked for (`-Infinity`: never). */
  askedAt: number;
  /** A lease on its way to the store, or queued for it. */
  asking: boolean;
  /** Hits that found no lease here while one was on its way; served from it, in order. */
  waiting: Waiter[];
}

/** Expired leases are swept once this many users are held (then at twice what a sweep keeps). */
const SWEEP_AT = 10_000;

/**
 * How long a lease may last for its user to count as spending leases quickly (the next lease
 * asked for within this of the last one): a second, or an eighth of a short window.
 */
const quickMs = (windowMs: number): number => Math.min(1_000, windowMs / 8);

/**
 * How much earlier than its window a lease ends here. The window's end is taken from when the
 * ask left (before Redis measured the TTL), which is early already; this covers clock drift.
 */
const earlyMs = (ttlMs: number): number => 10 + ttlMs / 1_000;

/** The default most hits of one lease: a small fraction of the limit. */
const defaultLeaseMax = (limit: number): number => Math.max(1, Math.floor(limit / 32));

/** The users each leased `hit` holds leases for, by that `hit` (for tests: memory stays bounded). */
const holders = new WeakMap<RateLimitStore["hit"], Map<string, unknown>>();

/** How many users `hit` holds leases for, when it is a leased `hit`. */
export function usersHeld(hit: RateLimitStore["hit"]): number | undefined {
  return holders.get(hit)?.size;
}

const clock: () => number =
  typeof performance !== "undefined" && typeof performance.now === "function"
    ? () => performance.now()
    : Date.now;

/**
 * A rate limit's `hit` over leases from the shared store, and its synchronous form: a hit is
 * answered at once from a lease held here, else it waits for a lease (one ask at a time per user;
 * hits arriving meanwhile wait for the same one).
 *
 * @param maxHits - The most hits one lease takes, or `undefined` for {@link defaultLeaseMax}.
 */
export function leasedHits(
  send: SendAsk,
  maxHits: number | undefined,
): {
  hit: RateLimitStore["hit"];
  hitNow: (key: string, windowMs: number, limit: number) => RateLimitResult | undefined;
} {
  const users = new Map<string, UserLease>();
  let sweepAt = SWEEP_AT;

  const sweep = (t: number): void => {
    for (const [key, user] of users) {
      if (!user.asking && user.waiting.length === 0 && leftIn(user, t) === 0) users.delete(key);
    }
    sweepAt = Math.max(SWEEP_AT, 2 * users.size);
  };

  /**
   * Adapts the lease size to how soon the user needs another lease (doubled when soon, halved
   * when a little later, one hit when later still), and notes the ask.
   */
  const nextSize = (user: UserLease, t: number, windowMs: number, limit: number): void => {
    const max = maxHits ?? defaultLeaseMax(limit);
    const since = t - user.askedAt;
    const quick = quickMs(windowMs);
    if (since <= quick) user.size = Math.min(max, user.size * 2);
    else if (since <= 4 * quick) user.size = Math.min(max, Math.max(1, user.size >> 1));
    else user.size = 1;
    user.askedAt = t;
  };

  const ask = (user: UserLease, key: string, windowMs: number, limit: number): void => {
    user.asking = true;
    let wanted = 1;
    let sentAt = 0;
    send({
      key,
      windowMs,
      limit,
      sending() {
        sentAt = clock();
        wanted = Math.max(user.size, user.waiting.length, 1);
        return wanted;
      },
      granted(hits, ttlMs) {
        user.asking = false;
        const t = clock();
        const endsAt = sentAt + ttlMs - earlyMs(ttlMs);
        const waiting = user.waiting;
        let left = hits;
        let served = 0;
        while (served < waiting.length && left > 0) {
          left--;
          waiting[served++]!.resolve({ allowed: true, retryAfterMs: Math.max(0, endsAt - t) });
        }
        if (left > 0 && endsAt > t) user.chunks.push({ left, endsAt });
        if (served === waiting.length) {
          user.waiting = [];
        } else if (hits < wanted) {
          // The window is full: the hits that waited are refused, as they would be one by one.
          user.waiting = [];
          for (let i = served; i < waiting.length; i++)
            waiting[i]!.resolve({ allowed: false, retryAfterMs: Math.max(0, ttlMs) });
        } else {
          // More hits came while the lease was on its way than it asked for: ask for them.
          user.waiting = waiting.slice(served);
          nextSize(user, t, windowMs, limit);
          ask(user, key, windowMs, limit);
        }
      },
      failed(error) {
        user.asking = false;
        const waiting = user.waiting;
        user.waiting = [];
        for (const waiter of waiting) waiter.reject(error);
      },
    });
  };

  const hitNow = (key: string, windowMs: number, limit: number): RateLimitResult | undefined => {
    const user = users.get(key);
    if (user === undefined) return undefined;
    const t = clock();
    const chunk = take(user, t);
    if (chunk === undefined) return undefined;
    // Running low: fetch the next lease now, for a user whose leases are already more than one
    // hit and who still spends them quickly (else the next lease is asked for when needed, and
    // smaller). A failure here rejects no request: only hits that come to wait for this lease,
    // having none.
    if (
      !user.asking &&
      user.size > 1 &&
      t - user.askedAt <= quickMs(windowMs) &&
      leftIn(user, t) <= user.size >> 1
    ) {
      nextSize(user, t, windowMs, limit);
      ask(user, key, windowMs, limit);
    }
    return { allowed: true, retryAfterMs: chunk.endsAt - t };
  };

  const hit: RateLimitStore["hit"] = (key, windowMs, limit) => {
    const now = hitNow(key, windowMs, limit);
    if (now !== undefined) return Promise.resolve(now);
    return new Promise<RateLimitResult>((resolve, reject) => {
      let user = users.get(key);
      if (user === undefined) {
        if (users.size >= sweepAt) sweep(clock());
        user = {
          chunks: [],
          size: 1,
          askedAt: Number.NEGATIVE_INFINITY,
          asking: false,
          waiting: [],
        };
        users.set(key, user);
      }
      user.waiting.push({ resolve, reject });
      if (!user.asking) {
        nextSize(user, clock(), windowMs, limit);
        ask(user, key, windowMs, limit);
      }
    });
  };

  holders.set(hit, users);
  return { hit, hitNow };
}

/**
 * Takes one hit from `user`'s leases, dropping those spent or past their end (a lease that
 * ended unspent was too large: the next starts at one hit again); `undefined` when none is left.
 */
function take(user: UserLease, t: number): Chunk | undefined {
  const chunks = user.chunks;
  while (chunks.length > 0) {
    const chunk = chunks[0]!;
    if (chunk.left > 0 && chunk.endsAt > t) {
      chunk.left--;
      return chunk;
    }
    if (chunk.left > 0) user.size = 1;
    chunks.shift();
  }
  return undefined;
}

/** The hits `user` still holds at `t`. */
function leftIn(user: UserLease, t: number): number {
  let left = 0;
  for (const chunk of user.chunks) if (chunk.endsAt > t) left += chunk.left;
  return left;
}
