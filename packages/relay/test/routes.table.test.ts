// The relay's route table against core's table of actions (docs/architecture.md "Adding an
// action"): every route an action uses is forwarded with the same method and path, and the relay
// forwards no route that no action uses. A test-time import only: the relay's code never loads core.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { actionRoutes } from "../../core/src/catalog/actionTable.js";
import { idKindOf, isOpaqueSegment, RELAY_ROUTES } from "../src/routes.js";

const key = ({ method, path }: { method: string; path: string }) => `${method} ${path}`;

describe("the relay's routes and the table of actions", () => {
  const table = actionRoutes().map(key);
  const relay = RELAY_ROUTES.map(key);

  it("forwards every route an action uses", () => {
    expect(table.filter((route) => !relay.includes(route))).toEqual([]);
  });

  it("forwards no route that no action uses", () => {
    expect(relay.filter((route) => !table.includes(route))).toEqual([]);
  });

  it("lists each route once", () => {
    expect(new Set(relay).size).toBe(relay.length);
  });

  it("names only id kinds it checks, or opaque segments it matches, in the table's paths", () => {
    for (const { path } of actionRoutes()) {
      for (const [, kind] of path.matchAll(/\{([A-Za-z]+)\}/g)) {
        const known =
          (kind !== undefined && isOpaqueSegment(kind)) ||
          idKindOf(`${kind}:00000000-0000-4000-8000-000000000000`) === kind;
        expect(known, `${path}: {${kind}}`).toBe(true);
      }
    }
  });

  it("the README's route table has a row for each route", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const rows = new Set(
      [...readme.matchAll(/^\|\s*(GET|POST|PATCH|DELETE)\s*\|\s*`([^`]+)`/gm)].map(
        ([, method, path]) => `${method} ${path}`,
      ),
    );
    expect(relay.filter((route) => !rows.has(route))).toEqual([]);
    expect([...rows].filter((route) => !relay.includes(route))).toEqual([]);
  });
});
