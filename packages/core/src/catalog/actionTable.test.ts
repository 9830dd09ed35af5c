// The catalog of actions against core itself (docs/architecture.md "Adding an action"): every
// exported action has a row and every row an exported action (in the type system, checked by `pnpm
// typecheck`, and at run time); the generated table is the rows' (the generator's own check, which
// also names every hand-written place an action lacks); each signed request's payload check is a
// builder its module exports; and a row's routes are what its function sends.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { SignetClient } from "../client.js";
import * as exported from "../exports.js";
import * as executeQuotePayload from "../payloads/executeQuotePayload.js";
import * as quotePayload from "../payloads/quotePayload.js";
import * as payloadCheck from "../transport/payloadCheck.js";
import { type ActionSourceRow, at } from "./actionRow.js";
import {
  type ActionName,
  type ActionRow,
  actionNames,
  actionRoutes,
  actionTable,
  type MutationChangesOf,
  type QueryReadsOf,
} from "./actionTable.js";

const row = (name: ActionName): ActionRow => actionTable[name];
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

type Action = (client: never, parameters: never) => Promise<unknown>;
type Exported = typeof exported;
/** The actions of the public API, as `actions/types.test.ts` finds them: a client comes first. */
type ExportedActionName = {
  [K in keyof Exported]: Exported[K] extends Action
    ? Parameters<Exported[K]>[0] extends SignetClient
      ? K
      : never
    : never;
}[keyof Exported];

/** Every module of actions/, its tests aside. */
const modules: Record<string, unknown>[] = await Promise.all(
  readdirSync(fileURLToPath(new URL("../actions/", import.meta.url)))
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => import(`../actions/${file.replace(/\.ts$/, ".js")}`)),
);

/** Every `<action>Row` the action files export, by action name. */
const sourceRows = Object.fromEntries(
  modules.flatMap((module) =>
    Object.entries(module).flatMap(([key, value]) => {
      const name = /^([a-z]\w*)Row$/.exec(key)?.[1];
      return name ? [[name, value as ActionSourceRow] as const] : [];
    }),
  ),
);

describe("the catalog of actions and core's exports", () => {
  it("has a row for every exported action and no other (types)", () => {
    expectTypeOf<ExportedActionName>().toEqualTypeOf<ActionName>();
  });

  it("has a row for every exported action and no other (run time)", () => {
    // biome-ignore lint/performance/noDynamicNamespaceImportAccess: a test reads every export by its catalog name; nothing here is bundled.
    for (const name of actionNames) expect(typeof exported[name], name).toBe("function");
    expect(Object.keys(sourceRows).sort()).toEqual([...actionNames].sort());
  });

  it("the generated copies are current and every action has its places (node scripts/actions.mjs)", () => {
    // The generator's own check, as CI runs it: it names each stale copy and missing place.
    const run = () => execFileSync("node", ["scripts/actions.mjs"], { cwd: ROOT, stdio: "pipe" });
    expect(run).not.toThrow();
  }, 120_000);
});

describe("signed requests: the row says what the code does", () => {
  it.each(actionNames)("%s: each payload check is a builder its module exports", (name) => {
    const source = sourceRows[name]!;
    for (const { signed } of source.requests) {
      if (!signed) continue;
      // The shared builders, an action's own module, or a payload reader (payloads/).
      const exporters: Record<string, unknown>[] = [
        payloadCheck,
        executeQuotePayload,
        quotePayload,
        ...modules,
      ];
      expect(
        exporters.some((module) => module[signed.check.name] === signed.check),
        `${name}: ${signed.check.name}`,
      ).toBe(true);
    }
  });

  it("a route fills its ids in order and keeps its status, legs and mode", () => {
    const route = {
      method: "POST",
      path: "/a/{Quote}/b/{Session}",
      expectedStatus: 201,
      maxLegs: 3,
    } as const;
    expect(at(route, ["Quote:1", "Session:2"], "?x=1")).toEqual({
      ...route,
      path: "/a/Quote:1/b/Session:2?x=1",
    });
  });
});

describe("the table's own shape", () => {
  it("paths are relative, with {Kind} placeholders only", () => {
    for (const { path } of actionRoutes()) {
      expect(path).toMatch(/^(\/([a-z][a-z-]*|\{[A-Za-z]+\}))+$/);
    }
  });

  it("hooks are named once, each a use… name", () => {
    const hooks = actionNames.flatMap((name) => {
      const { hook } = row(name);
      return hook.kind === "none" ? [] : [hook.name];
    });
    expect(new Set(hooks).size).toBe(hooks.length);
  });

  it("types what a contact update and a sign-in make stale", () => {
    expectTypeOf<MutationChangesOf["updateCustomerContact"]>().toEqualTypeOf<
      readonly ["credentials"]
    >();
    expectTypeOf<MutationChangesOf["verifyOtp"]>().toEqualTypeOf<
      readonly ["sessions", "credentials"]
    >();
    expectTypeOf<QueryReadsOf["listInternalAccounts"]>().toEqualTypeOf<"balances">();
    expectTypeOf<"getSession">().not.toExtend<keyof MutationChangesOf | keyof QueryReadsOf>();
  });
});
