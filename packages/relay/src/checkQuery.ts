// The query of a relayed request, checked against its route and rebuilt from the checked values
// (docs/architecture.md "@signet/relay").
import { RelayRefusal } from "./errors.js";
import type { NamedId } from "./ownership.js";
import { isIdOfKind, type RelayIdKind, type RelayQueryParam, type RelayRoute } from "./routes.js";

const CODE_VALUE = /^[A-Z0-9_]{1,64}$/;
const LIMIT_VALUE = /^(?:[1-9][0-9]?|100)$/;
// A page cursor is the service's opaque token: base64 or base64url, perhaps with `:` or `.`.
const CURSOR_VALUE = /^[A-Za-z0-9._~+/=:-]{1,512}$/;
const DATE_VALUE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

const VALUE_KINDS: ReadonlySet<string> = new Set(["code", "limit", "cursor", "date", "sortOrder"]);

function isIdKindParam(kind: RelayQueryParam["kind"]): kind is RelayIdKind {
  return !VALUE_KINDS.has(kind);
}

function valid(kind: RelayQueryParam["kind"], value: string): boolean {
  switch (kind) {
    case "code":
      return CODE_VALUE.test(value);
    case "limit":
      return LIMIT_VALUE.test(value);
    case "cursor":
      return CURSOR_VALUE.test(value);
    case "date":
      return DATE_VALUE.test(value) && Number.isFinite(Date.parse(value));
    case "sortOrder":
      return value === "asc" || value === "desc";
    default:
      return isIdOfKind(value, kind);
  }
}

/** The refusal of a malformed request: 400 `INVALID_INPUT` with secret-free details. */
export function invalidInput(message: string, details?: Record<string, unknown>): RelayRefusal {
  return new RelayRefusal("INVALID_INPUT", message, details);
}

/** A query name or value decoded (`+` is a space); one with neither `%` nor `+` is itself. */
function decodeQueryPart(part: string): string {
  const spaced = part.includes("+") ? part.replaceAll("+", " ") : part;
  return spaced.includes("%") ? decodeURIComponent(spaced) : spaced;
}

/** Checks the query against the route's parameters and rebuilds it from the checked values. */
export function checkQuery(
  route: RelayRoute,
  search: string,
  customerId: string,
): { query: string; ids: NamedId[] } {
  const accepted = route.query ?? {};
  // Names and values in the order first seen (the forced ones last): a route takes a handful of
  // parameters, so two arrays searched in place, not a Map and an entry array per parameter.
  const names: string[] = [];
  const values: string[] = [];
  const raw = search.startsWith("?") ? search.slice(1) : search;
  if (raw !== "") {
    // Index loops: no iterator result per step while the function still runs unoptimised.
    const parts = raw.split("&");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const eq = part.indexOf("=");
      let name: string;
      let value: string;
      try {
        name = decodeQueryPart(eq === -1 ? part : part.slice(0, eq));
        value = decodeQueryPart(eq === -1 ? "" : part.slice(eq + 1));
      } catch {
        throw invalidInput("The query string is malformed.");
      }
      const param = Object.hasOwn(accepted, name) ? accepted[name] : undefined;
      if (param === undefined) {
        throw invalidInput("The query has a parameter this route does not accept.", {
          accepted: Object.keys(accepted),
        });
      }
      if (names.includes(name)) {
        throw invalidInput("A query parameter is repeated.", { parameter: name });
      }
      if (!valid(param.kind, value))
        throw invalidInput("A query parameter is malformed.", { parameter: name });
      names.push(name);
      values.push(value);
    }
  }
  for (const name in accepted) {
    const param = accepted[name]!;
    if (param.forced && param.kind === "Customer" && !names.includes(name)) {
      names.push(name);
      values.push(customerId);
    }
    if (param.required && !names.includes(name)) {
      throw invalidInput("A required query parameter is missing.", { parameter: name });
    }
  }
  if (route.queryOneOf !== undefined && !route.queryOneOf.some((name) => names.includes(name))) {
    throw invalidInput("The query needs one of these parameters.", { oneOf: route.queryOneOf });
  }
  const ids: NamedId[] = [];
  let query = "";
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const value = values[i]!;
    const param = accepted[name]!;
    if (i > 0) query += "&";
    if (!isIdKindParam(param.kind)) {
      // A cursor or a date may hold `+`, `/` or `=`: escaped, so the service reads it as written.
      query += `${name}=${encodeURIComponent(value)}`;
      continue;
    }
    ids.push({ kind: param.kind, value, where: `query.${name}` });
    // Checked ids: nothing in them needs escaping but the colon, kept as is.
    query += `${name}=${value}`;
  }
  return { query, ids };
}
