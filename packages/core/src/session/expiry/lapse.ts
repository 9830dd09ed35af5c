// When a held session lapses (docs/architecture.md "Sessions"), said once: the store drops a
// session by it, `signWithSession` refuses to stamp by it, the watcher wakes by it, and
// `@signet/react`'s `useSession` reads `SESSION_EXPIRY_MARGIN_MS` from here through core's exports.
// The service's `expiresAt` is authoritative; a session counts as lapsed a margin before it, since
// a stamp must reach the service in time.
import { assertArgument } from "../../errors/errors.js";

/** The service's session lifetime (docs/protocol.md §8). */
export const SESSION_LIFETIME_MS = 15 * 60_000;

/**
 * Sessions within this margin of `expiresAt` are treated as expired: a stamp must arrive in time.
 * The one expiry rule: core's actions and `@signet/react`'s `useSession` both judge by it.
 */
export const SESSION_EXPIRY_MARGIN_MS = 5_000;

/** Default `expiryWarningMs`: a minute, as the peers' SDKs warn. */
export const DEFAULT_EXPIRY_WARNING_MS = 60_000;

/** The moment (epoch ms, the service's time) from which `session` signs nothing. */
export const lapsesAt = (session: { readonly expiresAt: string }): number =>
  Date.parse(session.expiresAt) - SESSION_EXPIRY_MARGIN_MS;

/** Whether `session` is too close to `expiresAt` to sign with at `now`. */
export const isExpired = (session: { readonly expiresAt: string }, now: number): boolean =>
  lapsesAt(session) <= now;

/**
 * A session judged by two clocks: `expired` when both the service's time and the device's say so,
 * `disputed` when only one does (the service's list is then asked: docs/protocol.md §11, a `Date`
 * header alone never deletes a key), `alive` otherwise.
 */
export function expiryByClocks(
  session: { readonly expiresAt: string },
  serviceNow: number,
  deviceNow: number,
): "expired" | "disputed" | "alive" {
  const byService = isExpired(session, serviceNow);
  const byDevice = isExpired(session, deviceNow);
  return byService && byDevice ? "expired" : byService || byDevice ? "disputed" : "alive";
}

/**
 * The warning margin that `createClient`'s `sessionWarning` asks for (`false`: 0, no warning).
 * @throws {SignetError} `INVALID_ARGUMENT` for a margin that is not a number of ms in [0, 15 min):
 * every fresh session would be expiring from the start.
 */
export function expiryWarningMargin(
  option: { marginMs?: number | undefined } | boolean | undefined,
): number {
  if (option === false) return 0;
  const marginMs = option === true || option === undefined ? undefined : option.marginMs;
  if (marginMs === undefined) return DEFAULT_EXPIRY_WARNING_MS;
  assertArgument(
    typeof marginMs === "number" && marginMs >= 0 && marginMs < SESSION_LIFETIME_MS,
    "sessionWarning.marginMs",
    `a number of ms in [0, ${SESSION_LIFETIME_MS})`,
    String(marginMs),
  );
  return marginMs;
}
