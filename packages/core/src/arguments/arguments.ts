// Argument checks shared by the actions. Ids go into relay paths: checked to be `Prefix:<uuid>` so
// nothing can alter the path.
import type { SignetClient } from "../client.js";
import { SignetError } from "../errors/errors.js";

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
