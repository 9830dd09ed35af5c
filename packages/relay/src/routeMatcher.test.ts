// The compiled route table answers exactly as routes.ts's matchRoute, over every route's own
// path, its near misses and ids of the wrong kind, for every method.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { compileRoutes } from "./routeMatcher.js";
import { isIdOfKind, matchRoute, RELAY_ROUTES, type RelayIdKind } from "./routes.js";

const METHODS = ["GET", "POST", "PATCH", "DELETE", "PUT", "HEAD"];
const CREDENTIAL_ID = "AbCdEfGhIjKlMnOpQrStUv_-12";

/** Segment lists built from each route: its own ids, other kinds' ids, literals changed, cut short, grown. */
function segmentLists(): string[][] {
  const lists: string[][] = [];
  for (const route of RELAY_ROUTES) {
    const parts = route.path.split("/").slice(1);
    const fill = (kindOf: (kind: string) => string) =>
      parts.map((part) => {
        const kind = /^\{([A-Za-z]+)\}$/.exec(part)?.[1];
        return kind === undefined ? part : kindOf(kind);
      });
    const own = fill((kind) =>
      kind === "WebAuthnCredential" ? CREDENTIAL_ID : `${kind}:${randomUUID()}`,
    );
    lists.push(own);
    lists.push(fill(() => `Quote:${randomUUID()}`));
    lists.push(fill(() => "confirm"));
    lists.push(own.slice(0, -1));
    lists.push([...own, "extra"]);
    lists.push(own.map((segment, i) => (i === 0 ? `${segment}x` : segment)));
  }
  return lists;
}

describe("compileRoutes", () => {
  it("matches as matchRoute does, with the upstream path rebuilt from the checked ids", () => {
    const match = compileRoutes(RELAY_ROUTES);
    let matched = 0;
    for (const segments of segmentLists()) {
      for (const method of METHODS) {
        const expected = matchRoute(RELAY_ROUTES, method, segments);
        const got = match(method, segments);
        if (expected.kind === "matched" && got.kind === "matched") {
          matched++;
          const { upstreamPath, ...rest } = got;
          expect(rest).toEqual(expected);
          let id = 0;
          expect(upstreamPath).toBe(
            expected.route.path.replace(/\{[A-Za-z]+\}/g, () => expected.ids[id++]!.value),
          );
        } else {
          expect(got).toEqual(expected);
        }
      }
    }
    // Every route is reached by its own path and method.
    expect(matched).toBeGreaterThanOrEqual(RELAY_ROUTES.length);
  });
});

describe("isIdOfKind", () => {
  // The reading it must give, written as a regular expression of the whole id.
  const reference = (value: string, kind: string) =>
    new RegExp(
      `^${kind}:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`,
    ).test(value) && /^[A-Za-z]+$/.test(kind);

  it("is true exactly for `<kind>:<uuid>`, whatever is around, before or after it", () => {
    const uuid = randomUUID();
    const values = [
      `Quote:${uuid}`,
      `Quote:${uuid.toUpperCase()}`,
      `Quote:${uuid}\n`,
      `Quote:${uuid}x`,
      `Quote:${uuid.slice(1)}`,
      `Quote:${uuid.replace("-", "_")}`,
      `Quote:${uuid.slice(0, -1)}g`,
      ` Quote:${uuid}`,
      `Quote::${uuid.slice(1)}`,
      `quote:${uuid}`,
      `Quotes:${uuid}`,
      `Quot:${uuid}`,
      `Quote${uuid}x`,
      `Quote:${uuid}Quote:${uuid}`,
      `Transaction:${uuid}`,
      "",
    ];
    for (const kind of ["Quote", "Transaction", "Quot"] as const) {
      for (const value of values) {
        expect([kind, value, isIdOfKind(value, kind as RelayIdKind)]).toEqual([
          kind,
          value,
          reference(value, kind),
        ]);
      }
    }
    // Called again and again on one regular expression: no state left from the last call.
    expect(isIdOfKind(`Quote:${uuid}`, "Quote")).toBe(true);
    expect(isIdOfKind(`Quote:${uuid}`, "Quote")).toBe(true);
  });
});
