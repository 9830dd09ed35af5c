// Argument checks shared by the actions. Ids go into relay paths: checked to be `Prefix:<uuid>` so
// nothing can alter the path.
import type { SignetClient } from "../client.js";
import { assertArgument, SignetError } from "../errors/errors.js";

const kind = (value: unknown) => (value === null ? "null" : typeof value);

/**
 * Checks the two arguments every action takes and returns the parameters.
 * @throws {SignetError} `INVALID_ARGUMENT` for a non-client or non-object parameters.
 */
export function assertCall<T>(client: SignetClient, parameters: T): T {
  if (typeof (client as Partial<SignetClient> | null)?.signed !== "function") {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"client" expected a client from createClient, got ${kind(client)}`,
    );
  }
  if (typeof parameters !== "object" || parameters === null) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"parameters" expected an object, got ${kind(parameters)}`,
    );
  }
  return parameters;
}

const ID = /^[A-Za-z]+:[0-9A-Za-z][0-9A-Za-z-]{0,63}$/;

/**
 * Asserts that `value` is a service id with the given prefix (`Session:…`).
 * @throws {SignetError} `INVALID_ARGUMENT`.
 */
export function assertServiceId(
  name: string,
  value: unknown,
  prefix: string,
): asserts value is string {
  if (typeof value !== "string" || !ID.test(value) || !value.startsWith(`${prefix}:`)) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"${name}" expected an id of the form ${prefix}:<uuid>, got ${typeof value === "string" ? `"${value.slice(0, 80)}"` : typeof value}`,
    );
  }
}

/**
 * A query string from defined values, percent-encoded (RFC 3986) without URLSearchParams: React
 * Native's takes no list of pairs, and Hermes alone has none.
 * @throws {SignetError} `INVALID_ARGUMENT` for a value with a lone surrogate.
 */
export function query(values: Record<string, string | undefined>): string {
  try {
    const pairs = Object.entries(values).flatMap(([k, v]) =>
      v === undefined ? [] : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`,
    );
    return pairs.length ? `?${pairs.join("&")}` : "";
  } catch {
    throw new SignetError("INVALID_ARGUMENT", "a query value holds a lone surrogate");
  }
}

// docs/protocol.md §10: the service's field rules, no stricter and no looser.

/** The transports the service accepts (WebAuthn's `AuthenticatorTransport`, without the rest). */
const SERVICE_TRANSPORTS = ["usb", "nfc", "ble", "internal", "hybrid"];

/** A value as an error message shows it: a string's start, quoted, or its type. */
export const shown = (value: unknown) =>
  typeof value === "string" ? `"${value.slice(0, 40)}"` : kind(value);

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
