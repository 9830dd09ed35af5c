// The query of a relayed request, checked against its route and rebuilt from the checked values
// (docs/architecture.md "@signet/relay").
import { RelayRefusal } from "./errors.js";
import type { NamedId } from "./ownership.js";
import { isIdOfKind, type RelayRoute } from "./routes.js";

const CODE_VALUE = /^[A-Z0-9_]{1,64}$/;

/** The refusal of a malformed request: 400 `INVALID_INPUT` with secret-free details. */
export function invalidInput(message: string, details?: Record<string, unknown>): RelayRefusal {
  return new RelayRefusal("INVALID_INPUT", message, details);
}

/** Checks the query against the route's parameters and rebuilds it from the checked values. */
export function checkQuery(
  route: RelayRoute,
  search: string,
  customerId: string,
): { query: string; ids: NamedId[] } {
  const accepted = route.query ?? {};
  const seen = new Map<string, string>();
  const raw = search.startsWith("?") ? search.slice(1) : search;
  if (raw !== "") {
    for (const part of raw.split("&")) {
      const eq = part.indexOf("=");
      let name: string;
      let value: string;
      try {
        name = decodeURIComponent((eq === -1 ? part : part.slice(0, eq)).replaceAll("+", " "));
        value = decodeURIComponent((eq === -1 ? "" : part.slice(eq + 1)).replaceAll("+", " "));
      } catch {
        throw invalidInput("The query string is malformed.");
      }
      const param = Object.hasOwn(accepted, name) ? accepted[name] : undefined;
      if (param === undefined) {
        throw invalidInput("The query has a parameter this route does not accept.", {
          accepted: Object.keys(accepted),
        });
      }
      if (seen.has(name)) throw invalidInput("A query parameter is repeated.", { parameter: name });
      const ok = param.kind === "code" ? CODE_VALUE.test(value) : isIdOfKind(value, param.kind);
      if (!ok) throw invalidInput("A query parameter is malformed.", { parameter: name });
      seen.set(name, value);
    }
  }
  for (const [name, param] of Object.entries(accepted)) {
    if (param.forced && param.kind === "Customer" && !seen.has(name)) seen.set(name, customerId);
    if (param.required && !seen.has(name)) {
      throw invalidInput("A required query parameter is missing.", { parameter: name });
    }
  }
  if (route.queryOneOf !== undefined && !route.queryOneOf.some((name) => seen.has(name))) {
    throw invalidInput("The query needs one of these parameters.", { oneOf: route.queryOneOf });
  }
  const ids: NamedId[] = [];
  const parts: string[] = [];
  for (const [name, value] of seen) {
    const param = accepted[name]!;
    if (param.kind !== "code") ids.push({ kind: param.kind, value, where: `query.${name}` });
    // Values are checked ids or codes: nothing in them needs escaping but the colon, kept as is.
    parts.push(`${name}=${value}`);
  }
  return { query: parts.join("&"), ids };
}
