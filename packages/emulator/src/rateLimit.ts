// Sliding-window counters on the emulator clock (challenge re-issue, failed OTP verifies).
import { rateLimited } from "./http/errors.js";

/** A limit of `max` events per `windowMs`. */
export type Limit = { max: number; windowMs: number };

function recent(
  events: Map<string, number[]>,
  key: string,
  now: number,
  windowMs: number,
): number[] {
  const kept = (events.get(key) ?? []).filter((t) => now - t < windowMs);
  events.set(key, kept);
  return kept;
}

/**
 * Throws 429 `RATE_LIMITED` (with `Retry-After` until the oldest event leaves the window) when
 * `key` already has `max` events in the window.
 */
export function assertUnderLimit(
  events: Map<string, number[]>,
  key: string,
  now: number,
  limit: Limit,
  message: string,
  reason: string,
): void {
  const kept = recent(events, key, now, limit.windowMs);
  if (kept.length >= limit.max) {
    const oldest = kept[0] ?? now;
    throw rateLimited(oldest + limit.windowMs - now, message, reason);
  }
}

/** Records one event for `key` at `now`. */
export function recordEvent(events: Map<string, number[]>, key: string, now: number): void {
  const list = events.get(key) ?? [];
  list.push(now);
  events.set(key, list);
}
