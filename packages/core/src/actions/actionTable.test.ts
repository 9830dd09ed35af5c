// The one table of actions against core itself (docs/architecture.md "Adding an action"): every
// exported action has a row and every row an exported action (in the type system, checked by `pnpm
// typecheck`, and at run time); each is defined in one file, and each signed request's row says
// what the action's code does: its operation, its payload check, its legs, its mode, its status.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { SignetClient } from "../client.js";
import * as exported from "../exports.js";
import * as payloadCheck from "../transport/payloadCheck.js";
import {
  type ActionName,
  type ActionRow,
  actionNames,
  actionRoutes,
  actionTable,
  type MutationChangesOf,
  type QueryReadsOf,
} from "./actionTable.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const source = (file: string) => readFileSync(join(HERE, file), "utf8");
const row = (name: ActionName): ActionRow => actionTable[name];
const sources = () => readdirSync(HERE).filter((f) => /^[a-z]\w*\.ts$/.test(f));

/** The file under actions/ that holds an action's code (`lazy.ts` and `lazyWallet.ts` only load some of them). */
function fileOf(name: ActionName): string {
  const files = sources().filter(
    (file) =>
      !/^lazy\w*\.ts$/.test(file) &&
      new RegExp(`export async function ${name}\\(`).test(source(file)),
  );
  if (files.length !== 1) throw new Error(`${name} is defined in ${files.length} files`);
  return files[0]!;
}

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

/** `exports.ts`'s value exports from `./actions/…` that come with an `XParameters` type. */
function exportedActionsByText(): string[] {
  const text = source("../exports.ts");
  const names = new Set<string>();
  const values: string[] = [];
  for (const block of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)"/g)) {
    for (const entry of (block[2] ?? "").split(",")) {
      const name = entry.trim().replace(/^type\s+/, "");
      if (name === "") continue;
      names.add(name);
      const isType = block[1] !== undefined || entry.trim().startsWith("type ");
      if (!isType && block[3]?.startsWith("./actions/")) values.push(name);
    }
  }
  const pascal = (name: string) => name[0]?.toUpperCase() + name.slice(1);
  return values.filter((name) => names.has(`${pascal(name)}Parameters`));
}

describe("the table of actions and core's exports", () => {
  it("has a row for every exported action and no other (types)", () => {
    expectTypeOf<ExportedActionName>().toEqualTypeOf<ActionName>();
  });

  it("has a row for every exported action and no other (run time)", () => {
    for (const name of actionNames) expect(typeof exported[name], name).toBe("function");
    expect([...exportedActionsByText()].sort()).toEqual([...actionNames].sort());
  });

  it("each action is defined in one file of actions/ (the lazy loaders aside)", () => {
    for (const name of actionNames) expect(() => fileOf(name), name).not.toThrow();
  });
});

/**
 * The payload-check builders: functions exported by an action's module (each operation's check is
 * written next to its action) or by `transport/payloadCheck.ts` (the engine's shared builders).
 */
async function checkBuilders(): Promise<Set<string>> {
  const found = new Set<string>();
  const modules: Record<string, unknown>[] = [payloadCheck];
  for (const file of sources()) modules.push(await import(`./${file.replace(/\.ts$/, ".js")}`));
  for (const module of modules)
    for (const [name, value] of Object.entries(module))
      if (typeof value === "function" && /Payload$|^expect/.test(name)) found.add(name);
  return found;
}

describe("signed requests: the row says what the code does", () => {
  const signedCalls = (text: string) =>
    [...text.matchAll(/\.signed\(\s*\{\s*operation:\s*"(\w+)"/g)].map((m) => m[1]);

  // A sign-in's proof by refresh runs through `adoptProvenSession`, written in refreshSession.ts.
  const proves = (text: string, name: string) =>
    name !== "refreshSession" &&
    new RegExp(`adoptProvenSession\\(client, \\{\\s*operation: "${name}"`).test(text);

  it.each(actionNames)("%s", async (name) => {
    const { requests } = row(name);
    const own = source(fileOf(name));
    const signed = requests.flatMap((request) => (request.signed ? [request.signed] : []));
    const proof = (check: string) => check === "refreshSessionPayload" && proves(own, name);
    expect(signedCalls(own).filter((operation) => operation === name)).toHaveLength(
      signed.filter((request) => !proof(request.check)).length,
    );
    const builders = await checkBuilders();
    for (const { check, legs, mode, status } of signed) {
      const text = proof(check) ? source("refreshSession.ts") : own;
      expect(builders.has(check), `${name}: ${check} is exported by a check's module`).toBe(true);
      expect(text, `${name} passes ${check}`).toMatch(new RegExp(`\\b${check}\\(`));
      expect(text, `${name} expects ${status}`).toContain(`expectedStatus: ${status}`);
      // Two legs is the engine's default; only three are written out.
      expect(text.includes("maxLegs: 3"), `${name}: maxLegs ${legs}`).toBe(legs === 3);
      expect(text.includes('mode: "direct"'), `${name}: ${mode}`).toBe(mode === "direct");
      if (mode === "direct") expect(legs).toBe(1);
    }
  });

  it("every signed call in actions/ is a row's signed request", () => {
    const rows = new Set<string>(
      actionNames.filter((name) => row(name).requests.some((request) => request.signed)),
    );
    for (const file of sources()) {
      for (const operation of signedCalls(source(file)))
        expect(rows.has(operation ?? ""), `${file}: ${operation}`).toBe(true);
    }
  });
});

describe("the table's own shape", () => {
  it("is imported by no source of core, so it is in no bundle", () => {
    const importers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/(?<!\.test)\.ts$/.test(entry.name) && path !== join(HERE, "actionTable.ts"))
          if (readFileSync(path, "utf8").includes("actionTable.js")) importers.push(path);
      }
    };
    walk(join(HERE, ".."));
    expect(importers).toEqual([]);
  });

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
