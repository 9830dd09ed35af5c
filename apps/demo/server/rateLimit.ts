// A fixed-window counter per key (a client address, an email), in memory and bounded in count:
// enough to keep one client from creating customers in bulk through the demo's sign-in.

export type WindowLimiterOptions = {
  /** Attempts allowed per key and window. */
  limit: number;
  /** The window, in ms. */
  windowMs: number;
  /** At most this many keys tracked (default 10 000); the oldest window goes first beyond it. */
  maxKeys?: number;
  now?: () => number;
};

export type WindowLimiter = {
  /** Counts one attempt for `key`: `0` when allowed, else the seconds until the window ends. */
  hit(key: string): number;
};

export function createWindowLimiter(options: WindowLimiterOptions): WindowLimiter {
  const { limit, windowMs, maxKeys = 10_000, now = Date.now } = options;
  if (!Number.isSafeInteger(limit) || limit < 1 || !(windowMs > 0))
    throw new RangeError("limit must be a positive integer and windowMs positive.");
  // Insertion order is the order windows started, and every window lasts windowMs.
  const windows = new Map<string, { count: number; endsAt: number }>();
  return {
    hit(key) {
      const at = now();
      for (const [k, w] of windows) {
        if (w.endsAt > at) break;
        windows.delete(k);
      }
      let window = windows.get(key);
      if (!window) {
        while (windows.size >= maxKeys) {
          const oldest = windows.keys().next().value;
          if (oldest === undefined) break;
          windows.delete(oldest);
        }
        window = { count: 0, endsAt: at + windowMs };
        windows.set(key, window);
      }
      if (window.count >= limit) return Math.max(1, Math.ceil((window.endsAt - at) / 1000));
      window.count++;
      return 0;
    },
  };
}
