// The hooks against core's table of actions (docs/architecture.md "Adding an action"): what each
// mutation makes stale (`mutationChanges`) and what each query reads (`queryReads`) are the table's,
// in the type system (checked by `pnpm typecheck`) and at run time; every hook the table names is
// exported, and each mutation hook resolves to its action's result. The table is imported here
// only: the hooks' bundle never carries it.
import type * as core from "@signet/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type ActionName,
  actionNames,
  actionTable,
  type MutationChangesOf,
  type QueryReadsOf,
} from "../../core/src/catalog/actionTable.js";
import * as react from "../src/index.js";
import { type InvalidatedBy, invalidatedBy, mutationChanges, queryReads } from "../src/index.js";

type Row = (typeof actionTable)[ActionName];
type HookName<K extends ActionName> = (typeof actionTable)[K]["hook"] extends { name: infer N }
  ? N
  : never;
type MutationName = keyof MutationChangesOf;
type QueryName = keyof QueryReadsOf;

/** Each mutation hook's `mutateAsync` result, by its action. */
type MutationData = {
  [K in MutationName]: HookName<K> extends keyof typeof react
    ? (typeof react)[HookName<K>] extends () => { mutateAsync: (...args: never[]) => infer R }
      ? Awaited<R>
      : "not a mutation hook"
    : "not exported by @signet/react";
};

const fromTable = (kind: "mutation" | "query") =>
  Object.fromEntries(
    actionNames.flatMap((name): [string, unknown][] => {
      const { hook } = actionTable[name] as Row;
      if (hook.kind === "mutation" && kind === "mutation") return [[name, hook.invalidates]];
      if (hook.kind === "query" && kind === "query") return [[name, hook.reads]];
      return [];
    }),
  );

describe("the hooks and the table of actions", () => {
  it("mutationChanges is the table's invalidations, exactly", () => {
    expectTypeOf<typeof mutationChanges>().toEqualTypeOf<MutationChangesOf>();
    expect(mutationChanges).toEqual(fromTable("mutation"));
  });

  it("queryReads is the table's reads, exactly", () => {
    expectTypeOf<typeof queryReads>().toEqualTypeOf<QueryReadsOf>();
    expect(queryReads).toEqual(fromTable("query"));
  });

  it("a contact update refreshes the credentials (the service renames the tied OTP credential)", () => {
    expectTypeOf<InvalidatedBy<"updateCustomerContact">>().toEqualTypeOf<"listCredentials">();
    expect(invalidatedBy("updateCustomerContact")).toEqual(["listCredentials"]);
  });

  it("every hook the table names is exported, and a mutation resolves to its action's result", () => {
    expectTypeOf<HookName<MutationName | QueryName>>().toExtend<keyof typeof react>();
    expectTypeOf<MutationData>().toEqualTypeOf<{
      [K in MutationName]: Awaited<ReturnType<(typeof core)[K]>>;
    }>();
    for (const name of actionNames) {
      const { hook } = actionTable[name] as Row;
      if (hook.kind === "none") continue;
      expect(typeof (react as Record<string, unknown>)[hook.name], hook.name).toBe("function");
    }
  });
});
