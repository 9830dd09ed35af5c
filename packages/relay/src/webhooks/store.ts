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
  /** The most keys kept at once (default 100 000); the oldest go first. */
  maxEntries?: number;
  /** The clock, for tests (default `Date.now`). */
  now?: () => number;
}

/**
 * A {@link WebhookStore} in this process's memory: right for one relay instance. Relays behind a
 * load balancer share one in Redis instead, or a webhook reaching one instance misses the device
 * waiting on another.
 *
 * @example
 * ```ts
 * createRelay({ …, webhooks: { publicKey, store: createMemoryWebhookStore() } });
 * ```
 */
export function createMemoryWebhookStore(options: MemoryWebhookStoreOptions = {}): WebhookStore {
  const maxEntries = options.maxEntries ?? 100_000;
  if (!Number.isSafeInteger(maxEntries) || maxEntries <= 0)
    throw new TypeError(`"maxEntries" expected a positive integer, got ${maxEntries}`);
  const now = options.now ?? Date.now;
  const values = new Map<string, { value: string; expiresAt: number }>();
  const listeners = new Map<string, Set<(message: string) => void>>();

  function read(key: string): string | undefined {
    const entry = values.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now()) {
      values.delete(key);
      return undefined;
    }
    return entry.value;
  }

  function write(key: string, value: string, ttlMs: number): void {
    values.delete(key);
    // Insertion order is age: past the bound, the oldest key goes.
    if (values.size >= maxEntries) values.delete(values.keys().next().value as string);
    values.set(key, { value, expiresAt: now() + ttlMs });
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
