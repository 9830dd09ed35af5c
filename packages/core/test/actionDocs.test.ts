// The docs tables made from the catalog of actions (their currency is the generator's check, run
// by catalog/actionTable.test.ts and CI): the marker pair is required, and the parameters table of
// the README, written from each row's `parameters` and `resolvesTo`, names every action.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { withBlock } from "../../../scripts/actionDocs.js";
import { actionNames } from "../src/catalog/actionTable.js";

const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), "utf8");

describe("docs tables of the actions", () => {
  it("the core README's parameters table has a row for every action", () => {
    const readme = read("packages/core/README.md");
    const from = readme.indexOf("| action | parameters | resolves to |");
    expect(from).toBeGreaterThan(0);
    const rows = readme.slice(from).split("\n\n")[0]!.split("\n").slice(2);
    const named = new Set(
      rows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`(\w+)`/g)]).map((m) => m[1]),
    );
    expect(actionNames.filter((name) => !named.has(name))).toEqual([]);
  });

  it("a marker pair is required", () => {
    expect(() => withBlock("no markers", { file: "x.md", name: "flows", text: "" })).toThrow(
      /no <!-- actions:flows -->/,
    );
  });
});
