// Where the webhook receiver keeps what outlives one request: the delivery ids it has seen (so a
// replay reaches nobody), who sent each signed request (so a push reaches only its sender), and
// each operation's end until its device asks (a webhook may beat the device's wait). In memory for
// one relay; `createRedisWebhookStore` (`@signet/relay/redis`) for many.

/**
 * The webhook receiver's store. Keys are the relay's own (`event:…`, `owner:…`, `operation:…`);
 * values are short strings. Every method may reject when the store is down.
 */
export interface WebhookStore {
  /** Sets `key` to `value` for `ttlMs` unless it is set; `true` when this call set it. */
  claim(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** The value of `key`, or `undefined`. */
  get(key: string): Promise<string | undefined>;
  /** Keeps `message` under `channel` for `ttlMs` and hands it to every current subscriber. */
  publish(channel: string, message: string, ttlMs: number): Promise<void>;
  /**
   * Hands each message published to `channel` from now on to `listener`; resolves, once the
   * subscription is live, to the function that ends it.
   */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => void>;
}

/** Options of {@link createMemoryWebhookStore}. */
export interface MemoryWebhookStoreOptions {
  /**
   * The most delivery ids kept at once (default 100 000), each for twice the receiver's window
   * and a second. At the bound, after the expired ones are swept, a new delivery is refused (the
   * receiver answers 503 and the service retries) rather than a kept id evicted: an evicted id
   * would let its replay through.
   */
  maxDeliveries?: number;
  /**
   * The most senders (who sent which signed request) kept at once (default 100 000); past it the
   * oldest go first, which costs that request's push only (its device polls).
   */
  maxOwners?: number;
  /**
   * The most operation ends kept for a device that has not asked yet (default 100 000); past it
   * the oldest go first, as for senders.
   */
  maxEnds?: number;
  /**
   * @deprecated Use `maxDeliveries`, `maxOwners` and `maxEnds`: one bound for all three let a
   * flood of one kind evict the others (delivery ids, and with them replay protection). When
   * given, it is the default of each of the three.
   */
  maxEntries?: number;
  /** The clock, for tests (default `Date.now`). */
  now?: () => number;
}

/** The kinds of keys the receiver keeps (its `webhook:event:`, `webhook:owner:` and `webhook:operation:`). */
type Kind = "deliveries" | "owners" | "ends";

const kindOf = (key: string): Kind =>
  key.startsWith("webhook:event:")
    ? "deliveries"
    : key.startsWith("webhook:owner:")
      ? "owners"
      : "ends";

/** One kind's entries: insertion order is age, so expired entries are swept from the front. */
type Shelf = {
  readonly max: number;
  /** At the bound: evict the oldest, or refuse the write. */
  readonly full: "evict" | "refuse";
  readonly entries: Map<string, { value: string; expiresAt: number }>;
  /** When every entry was last looked at for expiry (a full sweep at most once a second). */
  sweptAt: number;
};

/** A whole sweep of a full shelf runs at most this often: a full shelf of live entries stays O(1) a write. */
const FULL_SWEEP_INTERVAL_MS = 1_000;

function bound(name: string, value: number | undefined, fallback: number): number {
  const max = value ?? fallback;
  if (!Number.isSafeInteger(max) || max <= 0)
    throw new TypeError(`"${name}" expected a positive integer, got ${max}`);
  return max;
}

/**
 * A {@link WebhookStore} in this process's memory: right for one relay instance. Relays behind a
 * load balancer share one in Redis instead, or a webhook reaching one instance misses the device
 * waiting on another. Each kind of entry has its own bound, and expired entries are swept as new
 * ones come (from the oldest, and the whole kind when it is full), so nothing grows without end.
 *
 * @throws {TypeError} when a bound is not a positive integer.
 * @example
 * ```ts
 * createRelay({ …, webhooks: { publicKey, store: createMemoryWebhookStore({ maxOwners: 10_000 }) } });
 * ```
 */
export function createMemoryWebhookStore(options: MemoryWebhookStoreOptions = {}): WebhookStore {
  const fallback = bound("maxEntries", options.maxEntries, 100_000);
  const shelf = (max: number, full: Shelf["full"]): Shelf => ({
    max,
    full,
    entries: new Map(),
    sweptAt: Number.NEGATIVE_INFINITY,
  });
  const shelves: Record<Kind, Shelf> = {
    deliveries: shelf(bound("maxDeliveries", options.maxDeliveries, fallback), "refuse"),
    owners: shelf(bound("maxOwners", options.maxOwners, fallback), "evict"),
    ends: shelf(bound("maxEnds", options.maxEnds, fallback), "evict"),
  };
  const now = options.now ?? Date.now;
  const listeners = new Map<string, Set<(message: string) => void>>();

  function read(key: string): string | undefined {
    const { entries } = shelves[kindOf(key)];
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Drops expired entries: from the front always, every entry when the shelf is full. */
  function sweep(shelf: Shelf, at: number): void {
    for (const [key, entry] of shelf.entries) {
      if (entry.expiresAt > at) break;
      shelf.entries.delete(key);
    }
    if (shelf.entries.size < shelf.max || at - shelf.sweptAt < FULL_SWEEP_INTERVAL_MS) return;
    shelf.sweptAt = at;
    for (const [key, entry] of shelf.entries) if (entry.expiresAt <= at) shelf.entries.delete(key);
  }

  function write(key: string, value: string, ttlMs: number): void {
    const shelf = shelves[kindOf(key)];
    const at = now();
    shelf.entries.delete(key);
    sweep(shelf, at);
    if (shelf.entries.size >= shelf.max) {
      if (shelf.full === "refuse")
        throw new Error(`the webhook store holds its most ${kindOf(key)} (${shelf.max})`);
      shelf.entries.delete(shelf.entries.keys().next().value as string);
    }
    shelf.entries.set(key, { value, expiresAt: at + ttlMs });
  }

  return {
    async claim(key, value, ttlMs) {
      if (read(key) !== undefined) return false;
      write(key, value, ttlMs);
      return true;
    },
    async get(key) {
      return read(key);
    },
    async publish(channel, message, ttlMs) {
      write(channel, message, ttlMs);
      for (const listener of [...(listeners.get(channel) ?? [])]) listener(message);
    },
    async subscribe(channel, listener) {
      let set = listeners.get(channel);
      if (set === undefined) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(channel) === set) listeners.delete(channel);
      };
    },
  };
}
