// docs/architecture.md "Layers": every source file imports only from its own layer or the layers
// below it; `client.ts` imports no action. Type-only imports of the client (which carries the seams
// every layer uses) and the shared vocabulary (errors, events, wire types) are allowed anywhere.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = dirname(fileURLToPath(import.meta.url));

/** Lower ranks sit below higher ones. */
const RANKS: [prefix: string, rank: number][] = [
  ["crypto/", 1],
  ["keys/", 2],
  ["webauthn/", 2],
  ["transport/", 3],
  ["session/", 4],
  ["client.ts", 5],
  ["clientOptions.ts", 5],
  ["arguments.ts", 5],
  ["actions/", 6],
  ["watchSessionExpiry.ts", 7],
  ["autoRefresh.ts", 7],
  ["exports.ts", 8],
  // The one entry factory every platform entry calls with its wiring.
  ["entry.ts", 8],
  ["index.ts", 9],
  ["index.native.ts", 9],
  // Entry points of the React Native adapters (each imports its optional native module).
  ["react-native/", 9],
  // The passkey setup checker: an entry of its own (`@signet/core/check-passkeys`, the `signet`
  // bin), which imports nothing of the client.
  ["passkey-check/", 9],
  // `@signet/core/jest`: the preset for an app's own Jest tests, an entry of its own that imports
  // nothing of the client (apps never bundle it).
  ["jest/", 9],
  // The `node` condition wraps the default entry.
  ["index.node.ts", 10],
];
// Plus `defined.ts`, a helper without imports that every layer (errors.ts too) may use.
const SHARED = new Set([
  "errors.ts",
  "codes.ts",
  "errorGroups.ts",
  "events.ts",
  "wire.ts",
  "defined.ts",
]);

const rankOf = (file: string): number | undefined =>
  RANKS.find(([prefix]) => file === prefix || file.startsWith(prefix))?.[1];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Every relative import of a file: `[target relative to src, type-only?]`. */
function imports(path: string): [string, boolean][] {
  const text = readFileSync(path, "utf8");
  const found: [string, boolean][] = [];
  for (const match of text.matchAll(
    /^(?:import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["'](\.[^"']+)["']/gm,
  )) {
    const target = relative(SRC, join(dirname(path), match[2] ?? "")).replace(/\.js$/, ".ts");
    found.push([target, match[1] !== undefined]);
  }
  for (const match of text.matchAll(/import\(\s*["'](\.[^"']+)["']\s*\)/g)) {
    found.push([relative(SRC, join(dirname(path), match[1] ?? "")).replace(/\.js$/, ".ts"), false]);
  }
  return found;
}

describe("layers", () => {
  const files = sources(SRC).map((path) => [relative(SRC, path), path] as const);

  it("every source file has a layer", () => {
    const unplaced = files.map(([file]) => file).filter((f) => !SHARED.has(f) && !rankOf(f));
    expect(unplaced).toEqual([]);
  });

  it("imports only point down (or sideways within a layer)", () => {
    const upward: string[] = [];
    for (const [file, path] of files) {
      if (SHARED.has(file)) continue;
      const rank = rankOf(file) ?? 0;
      for (const [target, typeOnly] of imports(path)) {
        if (SHARED.has(target)) continue;
        if (target === "client.ts" && typeOnly) continue;
        const targetRank = rankOf(target);
        if (targetRank === undefined || targetRank > rank) upward.push(`${file} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("client.ts imports no action", () => {
    const [, path] = files.find(([file]) => file === "client.ts") ?? [];
    expect(path).toBeDefined();
    const actions = imports(path as string).filter(([target]) => target.startsWith("actions/"));
    expect(actions).toEqual([]);
  });

  it("events.ts and transport/ never import each other: transport delivers through transport/deliver.ts", () => {
    const back = files
      .filter(([file]) => file.startsWith("transport/"))
      .flatMap(([file, path]) => imports(path).map(([target]) => `${file} → ${target}`))
      .filter((edge) => edge.endsWith("→ events.ts"));
    expect(back).toEqual([]);
  });
});
