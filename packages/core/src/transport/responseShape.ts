// Schema checks of the service's answers: a wrong shape is MALFORMED_RESPONSE, never a crash later.
import { SignetError } from "../errors/errors.js";
import type { AuthenticationOptionsJSON } from "../webauthn/types.js";
import { isPlainObject } from "./responseError.js";

/**
 * The default PROCESSING check: `{ status: "PROCESSING" }` without an `id`.
 *
 * @example
 * ```ts
 * isProcessingBody({ status: "PROCESSING", message: "settling" }); // true
 * isProcessingBody({ id: "Quote:…", status: "PROCESSING" });      // false: an executed quote
 * ```
 */
export function isProcessingBody(body: unknown): boolean {
  return isPlainObject(body) && body.status === "PROCESSING" && body.id === undefined;
}

/**
 * Checks that `body` is an object whose `fields` are non-empty strings, and narrows it.
 * @throws {SignetError} `MALFORMED_RESPONSE`.
 */
export function expectShape<T>(body: unknown, fields: readonly string[], what: string): T {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new SignetError("MALFORMED_RESPONSE", `Expected ${what} to be an object`);
  }
  const record = body as Record<string, unknown>;
  const missing = fields.filter(
    (field) => typeof record[field] !== "string" || record[field] === "",
  );
  if (missing.length) {
    throw new SignetError("MALFORMED_RESPONSE", `${what} lacks ${missing.join(", ")}`, {
      details: { missing },
    });
  }
  return body as T;
}

/**
 * Checks a `{ data: [...] }` list envelope, each item with `fields`.
 * @throws {SignetError} `MALFORMED_RESPONSE`.
 */
export function expectList<T>(body: unknown, fields: readonly string[], what: string): T[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data))
    throw new SignetError("MALFORMED_RESPONSE", `Expected a list of ${what}`);
  return data.map((item) => expectShape<T>(item, fields, what));
}

/**
 * Reads the service's opaque WebAuthn request options (the OpenAPI types them as any object):
 * the options themselves, or wrapped as the browser API takes them (`{ publicKey: {...} }`).
 *
 * @throws {SignetError} `MALFORMED_RESPONSE` when neither shape carries a challenge.
 */
export function readPasskeyOptions(options: unknown): AuthenticationOptionsJSON {
  const object = (value: unknown): Record<string, unknown> | undefined =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  const outer = object(options);
  const inner = object(outer?.publicKey) ?? outer;
  if (typeof inner?.challenge !== "string" || inner.challenge === "") {
    throw new SignetError("MALFORMED_RESPONSE", "The passkey challenge has no WebAuthn options");
  }
  return inner as AuthenticationOptionsJSON;
}
