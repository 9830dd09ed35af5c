// The body of a relayed request, read only to find and check the ids it names; the bytes are
// forwarded untouched (docs/architecture.md "@signet/relay").
import { invalidInput } from "./checkQuery.js";
import { RelayRefusal } from "./errors.js";
import type { NamedId } from "./ownership.js";
import { ID_FIELDS, idKindOf, isIdOfKind, type RelayRoute } from "./routes.js";
import { parseStrictJson, StrictJsonError } from "./strictJson.js";

/**
 * Finds every id of the body, at any depth: the id fields of {@link ID_FIELDS}, and any string
 * that is an id of a checked kind, whatever its key. A service whose JSON binding folds case
 * (`AccountId`), maps aliases (`account_id`) or reads fields the table does not list would
 * otherwise act on an id the relay never checked.
 */
function collectBodyIds(value: unknown, where: string, ids: NamedId[]): void {
  if (typeof value === "string") {
    const kind = idKindOf(value);
    if (kind !== undefined) ids.push({ kind, value, where });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      collectBodyIds(item, `${where}[${index}]`, ids);
    });
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, field] of Object.entries(value)) {
    const at = `${where}.${key}`;
    const kind = Object.hasOwn(ID_FIELDS, key) ? ID_FIELDS[key] : undefined;
    if (kind !== undefined) {
      if (typeof field !== "string" || !isIdOfKind(field, kind)) {
        throw invalidInput("A body field does not hold a well-formed id.", { field: at });
      }
      ids.push({ kind, value: field, where: at });
    } else {
      collectBodyIds(field, at, ids);
    }
  }
}

/** Parses the body (only to read ids; the bytes are forwarded untouched) and checks its fields. */
export function checkBody(
  route: RelayRoute,
  bytes: Uint8Array,
  contentType: string | null,
): NamedId[] {
  const rule = route.body ?? {};
  const required = rule.required ?? [];
  if (bytes.byteLength === 0) {
    if (required.length > 0 || rule.exactlyOneOf !== undefined) {
      throw invalidInput("This route needs a JSON body.");
    }
    return [];
  }
  if (contentType === null) throw invalidInput("A body needs Content-Type: application/json.");
  let json: unknown;
  try {
    json = parseStrictJson(
      new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes),
    );
  } catch (error) {
    throw invalidInput("The body is not valid JSON.", {
      reason: error instanceof StrictJsonError ? error.message : "not UTF-8",
    });
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw invalidInput("The body must be a JSON object.");
  }
  const body = json as Record<string, unknown>;
  for (const field of required) {
    if (!Object.hasOwn(body, field))
      throw invalidInput("A required body field is missing.", { field });
  }
  if (rule.exactlyOneOf !== undefined) {
    const allowed = rule.exactlyOneOf;
    const also = rule.alsoAllowed ?? {};
    for (const [field, values] of Object.entries(also)) {
      if (Object.hasOwn(body, field) && !values.includes(body[field] as string)) {
        throw new RelayRefusal(
          "RELAY_FORBIDDEN",
          "The relay does not forward this value of the field on this route.",
          {
            field,
          },
        );
      }
    }
    const extra = Object.keys(body).filter(
      (key) => !allowed.includes(key) && !Object.hasOwn(also, key),
    );
    if (extra.length > 0) {
      throw new RelayRefusal(
        "RELAY_FORBIDDEN",
        "The relay forwards only these fields on this route.",
        { allowedFields: allowed },
      );
    }
    const present = Object.keys(body).filter((key) => allowed.includes(key));
    const type = rule.valueType ?? "string";
    if (present.length !== 1 || typeof body[present[0]!] !== type) {
      throw invalidInput(`The body must set exactly one of these fields, to a ${type}.`, {
        oneOf: allowed,
      });
    }
  }
  const ids: NamedId[] = [];
  collectBodyIds(body, "body", ids);
  return ids;
}
