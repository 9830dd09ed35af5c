// The shape of the workspace's code, read from the sources with the TypeScript compiler
// (docs/architecture.md, "Layers"): no import cycle anywhere, and no screen-long closure (no
// function of 250 lines or more) anywhere either. Biome's `noImportCycles` (biome.json,
// type-only imports included) guards cycles inside each package as you type; this test also
// follows `import()`, `import("…")` types and the workspace packages' own specifiers
// (`@signet/core`, core's `#codec`) to their sources, so a cycle across packages is caught too.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cycles, functionSpans, moduleGraph, sourceFiles } from "./support/sourceGraph.js";

/** Every folder of the workspace's own code. */
const CODE = ["packages", "apps", "test", "e2e", "bench", "examples", "scripts"];
const MAX_LINES = 250;

const TEST_FILE = /\.(test|spec)\.tsx?$/;
/**
 * A test file's `describe` block is a table of cases (each `it` its own function, measured on its
 * own), not a closure of logic; only those are let through. Every other function of a test file
 * (helpers, `it` bodies, fixtures) is held to the limit.
 */
const CASE_TABLE = /^(test\.)?describe(\.(each|skip|only|sequential|concurrent)\b.*)?$/s;

/** A cycle as a readable path, each edge with how it imports (static, type, dynamic, require). */
function describeCycle(graph: ReturnType<typeof moduleGraph>, path: string[]): string {
  return path
    .map((file, i) => {
      const next = path[i + 1];
      if (next === undefined) return file;
      const kinds = [
        ...new Set((graph.get(file) ?? []).filter((e) => e.to === next).map((e) => e.kind)),
      ];
      return `${file} -(${kinds.join(",")})->`;
    })
    .join(" ");
}

describe("structure", () => {
  it("no import cycle anywhere (type-only imports, import() and re-exports included)", () => {
    const files = sourceFiles(CODE);
    // The graph is read, not assumed: core's sources alone hold hundreds of files.
    expect(files.length).toBeGreaterThan(400);
    const graph = moduleGraph(files);
    // Package specifiers resolve to sources: the demo reaches core through `@signet/core`.
    expect(graph.get("apps/demo/src/main.tsx")?.some((e) => e.to.startsWith("packages/"))).toBe(
      true,
    );
    expect(cycles(graph).map((path) => describeCycle(graph, path))).toEqual([]);
    // Parsing and resolving ~600 files takes seconds; more on a machine busy with other suites.
  }, 60_000);

  it(`no function of ${MAX_LINES} lines or more (packages, apps, tests, scripts)`, () => {
    const files = sourceFiles(CODE);
    const giants = files
      .flatMap((file) => functionSpans(file))
      .filter((span) => span.lines >= MAX_LINES)
      .filter((span) => !(TEST_FILE.test(span.file) && CASE_TABLE.test(span.callee ?? "")))
      .map((span) => `${span.file}:${span.line} ${span.name} (${span.lines} lines)`);
    expect(giants).toEqual([]);
  });
});

describe("the structure checks catch what they guard", () => {
  const root = mkdtempSync(join(tmpdir(), "signet-structure-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };

  it("names a cycle made of a type-only import and an import() call", () => {
    write("packages/p/src/a.ts", 'import type { B } from "./b.js";\nexport type A = B;\n');
    write(
      "packages/p/src/b.ts",
      'export type B = 1;\nexport const load = () => import("./a.js");\n',
    );
    write("packages/p/src/c.ts", 'export { load } from "./b.js";\n');
    const graph = moduleGraph(sourceFiles(["packages"], root), root);
    expect(cycles(graph).map((path) => describeCycle(graph, path))).toEqual([
      "packages/p/src/a.ts -(type)-> packages/p/src/b.ts -(dynamic)-> packages/p/src/a.ts",
    ]);
  });

  it('names a cycle through a re-export and an import("…") type, and a self-import', () => {
    write("packages/q/src/x.ts", 'export * from "./y.js";\n');
    write("packages/q/src/y.ts", 'export type Y = import("./x.js").Z;\nexport type Z = 1;\n');
    write(
      "packages/q/src/self.ts",
      'import type { S } from "./self.js";\nexport type S = 1;\nexport type T = S;\n',
    );
    const graph = moduleGraph(sourceFiles(["packages/q"], root), root);
    expect(
      cycles(graph)
        .map((path) => describeCycle(graph, path))
        .sort(),
    ).toEqual([
      "packages/q/src/self.ts -(type)-> packages/q/src/self.ts",
      "packages/q/src/x.ts -(static)-> packages/q/src/y.ts -(type)-> packages/q/src/x.ts",
    ]);
  });

  it("measures a function's span, and tells a describe table from other callbacks", () => {
    const body = Array.from({ length: MAX_LINES - 2 }, (_, i) => `  const v${i} = ${i};`);
    write(
      "apps/z/long.test.ts",
      [
        `describe("cases", () => {\n${body.join("\n")}\n});`,
        `export function giant() {\n${body.join("\n")}\n}`,
      ].join("\n"),
    );
    const spans = functionSpans("apps/z/long.test.ts", root).filter((s) => s.lines >= MAX_LINES);
    expect(spans.map(({ name, lines, callee }) => ({ name, lines, callee }))).toEqual([
      { name: "(anonymous)", lines: MAX_LINES, callee: "describe" },
      { name: "giant", lines: MAX_LINES, callee: undefined },
    ]);
    expect(spans.filter((s) => !CASE_TABLE.test(s.callee ?? "")).map((s) => s.name)).toEqual([
      "giant",
    ]);
  });
});
