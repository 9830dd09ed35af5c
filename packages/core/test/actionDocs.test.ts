// The docs tables made from the table of actions are current (regenerate them with `node
// scripts/actions.mjs --write`), the hand-written parameters table of the README names every
// action, and the compromised-backend suite attacks every signed one (docs/architecture.md "Adding
// an action").
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { actionDocBlocks, withBlock } from "../../../scripts/actionDocs.js";
import { type ActionRow, actionNames, actionTable } from "../src/actions/actionTable.js";

const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), "utf8");

describe("docs tables of the actions", () => {
  it.each(actionDocBlocks().map((block) => [`${block.file} (${block.name})`, block] as const))(
    "%s is current: node scripts/actions.mjs --write",
    (_, block) => {
      const document = read(block.file);
      expect(withBlock(document, block)).toBe(document);
    },
  );

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

describe("the compromised-backend suite and the table of actions", () => {
  it("attacks every action that signs (its rows go to RELIABILITY.md)", () => {
    const suite = read("test/reliability.compromised.test.ts");
    const signing = actionNames.filter((name) =>
      (actionTable[name] as ActionRow).requests.some((request) => request.signed),
    );
    expect(signing.filter((name) => !new RegExp(`operation: [\`"]${name}\\b`).test(suite))).toEqual(
      [],
    );
  });
});
