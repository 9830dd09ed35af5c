// Argument checks of the service's fields that only lazy actions make (a passkey's nickname and
// transports, a value shown in a refusal): apart from ./arguments.ts, whose checks the page's own
// actions make too.
import { assertArgument } from "../errors/errors.js";

// docs/protocol.md §10: the service's field rules, no stricter and no looser.

/** The transports the service accepts (WebAuthn's `AuthenticatorTransport`, without the rest). */
const SERVICE_TRANSPORTS = ["usb", "nfc", "ble", "internal", "hybrid"];

/** A value as an error message shows it: a string's start, quoted, or its type. */
export const shown = (value: unknown) =>
  typeof value === "string" ? `"${value.slice(0, 40)}"` : value === null ? "null" : typeof value;

/**
 * Checks a passkey nickname (Unicode letters and numbers, spaces and `. _ - ' ( )`, 1–100 after
 * trimming) and returns it trimmed: the service ignores surrounding whitespace.
 * @throws {SignetError} `INVALID_ARGUMENT`.
 */
export function passkeyNickname(value: unknown): string {
  const trimmed = typeof value === "string" ? value.trim() : "";
  assertArgument(
    /^[\p{L}\p{N} ._'()-]{1,100}$/u.test(trimmed),
    "nickname",
    "1–100 letters, numbers, spaces or . _ - ' ( )",
    shown(value),
  );
  return trimmed;
}

/**
 * The authenticator's transports the service accepts. Browsers also report others
 * (`smart-card`, `cable`), which are dropped, as are duplicates.
 */
export function serviceTransports(transports: readonly unknown[] | undefined): string[] {
  return SERVICE_TRANSPORTS.filter((t) => transports?.includes(t));
}
