// What a route handler receives about one request.
import type { ArmedFaultJson } from "../faults.js";
import type { Runtime } from "../runtime.js";
import { idPattern, type Schema, validate } from "../validation.js";
import { parseJsonBody } from "./body.js";
import { invalidInput, ServiceError } from "./errors.js";

/** One service request, as handlers see it. */
export interface RequestContext {
  readonly rt: Runtime;
  readonly method: string;
  /** The path without the version prefix. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: Headers;
  /** The body exactly as received. */
  readonly rawBody: Uint8Array;
  /** Emulator time now (epoch ms). */
  now(): number;
  /** Consumes a matching `processing` fault, if one is armed. */
  takeProcessingFault(): boolean;
  /**
   * Where a stamp has passed (signed retry, quote execute): consumes a matching `processing` or
   * `error` `at: "signed"` fault, if one is armed.
   */
  takeSignedFault(): ArmedFaultJson | undefined;
}

/**
 * Parses and validates the JSON body; throws 400 `INVALID_INPUT` naming every bad field.
 * `emptyAs` is used for an empty body where the endpoint allows one.
 */
export function readBody<T>(ctx: RequestContext, schema: Schema<T>, emptyAs?: unknown): T {
  const value = parseJsonBody(ctx.rawBody, ctx.headers.get("content-type"), emptyAs);
  const result = validate(schema, value);
  if (!result.ok) throw invalidInput(result.errors);
  return result.value;
}

/** Refuses any body on endpoints that take none (DELETE and bodiless POSTs). */
export function expectNoBody(ctx: RequestContext): void {
  if (ctx.rawBody.byteLength === 0) return;
  const text = new TextDecoder().decode(ctx.rawBody).trim();
  if (text === "" || text === "{}") return;
  throw invalidInput([{ field: "body", message: "this endpoint takes no body" }]);
}

/** The 404 code of a resource kind (docs/protocol.md §10). */
const NOT_FOUND_CODES: Readonly<Record<string, string>> = {
  Customer: "USER_NOT_FOUND",
  Quote: "QUOTE_NOT_FOUND",
  Transaction: "TRANSACTION_NOT_FOUND",
};

/**
 * A path parameter that must be an id `<prefix>:<uuid>`. A malformed one is 400 where the service
 * documents one (writes), and on reads, whose only documented refusals are 401 and 404, it is
 * not found.
 */
export function pathId(ctx: RequestContext, name: string, prefix: string): string {
  const value = ctx.params[name] ?? "";
  if (!idPattern(prefix).test(value) && ctx.method === "GET") {
    throw new ServiceError(
      404,
      NOT_FOUND_CODES[prefix] ?? "REFERENCE_NOT_FOUND",
      `${prefix} not found.`,
      {
        id: value.slice(0, 100),
      },
    );
  }
  if (!idPattern(prefix).test(value)) {
    throw invalidInput([
      {
        field: name,
        message: `must be an id of the form ${prefix}:<uuid>`,
        constraint: { pattern: idPattern(prefix).source },
      },
    ]);
  }
  return value;
}

/** A query parameter validated by a schema; absent gives `undefined` unless `required`. */
export function queryParam<T>(
  ctx: RequestContext,
  name: string,
  schema: Schema<T>,
  required = false,
): T | undefined {
  const raw = ctx.query.get(name);
  if (raw === null) {
    if (required) throw invalidInput([{ field: name, message: "is required" }]);
    return undefined;
  }
  const result = validate(schema, raw, name);
  if (!result.ok) throw invalidInput(result.errors);
  return result.value;
}
