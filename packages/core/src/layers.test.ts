// docs/architecture.md "Layers": every source file imports only from its own layer or the layers
// below it; `client.ts` imports no action; core's root holds only the entries and the client.
// Type-only imports of the client (which carries the seams every layer uses) and the shared
// vocabulary (errors, wire types) are allowed anywhere.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = dirname(fileURLToPath(import.meta.url));

/**
 * Lower ranks sit below higher ones; the first prefix that matches a file gives its rank, so a
 * file named alone comes before its folder. Each folder is one layer, but for `session/expiry/`
 * (every answer to "when does this session lapse", docs/architecture.md "Sessions") and
 * `catalog/`, whose files sit on both sides of the actions they describe.
 */
const RANKS: [prefix: string, rank: number][] = [
  ["crypto/", 1],
  ["keys/", 2],
  ["webauthn/", 2],
  ["transport/", 3],
  // The lapse rule itself: the store judges by it, so it sits in the session layer.
  ["session/expiry/lapse.ts", 4],
  // The expired session told as one: asks the service's list (an action).
  ["session/expiry/sessionExpiry.ts", 6],
  // The watcher and automatic refresh, which the entries wire (they are handed `refreshSession`).
  ["session/expiry/", 7],
  ["session/", 4],
  // Calls still processing: kept beside the key store (keys/), tracked for the session layer's events.
  // The resume of a kept passkey sign-in finishes as the action does (its proof and adoption):
  // above the actions, loaded by the entry on first use (entry.ts `keptPasskey`).
  ["pending/keptPasskey.ts", 7],
  ["pending/", 4],
  ["client.ts", 5],
  ["clientOptions.ts", 5],
  // What the actions share below them: argument checks, the row type with the generated table and
  // error unions, the SCA proof and its binding, the payload readers.
  ["arguments/", 5],
  // The lazy actions' stubs and their chunks' modules stand in for actions (an action may call
  // another through its stub): the actions' layer.
  ["catalog/chunks/", 6],
  ["catalog/", 5],
  ["sca/", 5],
  ["payloads/", 5],
  ["actions/", 6],
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
// The shared vocabulary every layer may use: the errors (with `defined`, a helper without imports
// that errors.ts uses too) and the service's wire shapes.
const SHARED = new Set([
  "errors/errors.ts",
  "errors/codes.ts",
  "errors/errorGroups.ts",
  "errors/defined.ts",
  "errors/refusedByService.ts",
  "transport/wire.ts",
]);

/** Core's root: the entries and the client, nothing else (docs/architecture.md "Layout"). */
const ROOT_FILES = new Set([
  "index.ts",
  "index.node.ts",
  "index.native.ts",
  "entry.ts",
  "exports.ts",
  "client.ts",
  "clientOptions.ts",
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

  it("core's root holds only the entries and the client", () => {
    const loose = files.map(([file]) => file).filter((f) => !f.includes("/") && !ROOT_FILES.has(f));
    expect(loose).toEqual([]);
  });

  it("the React Native adapters and the passkey checker are entries of their own: nothing else imports them", () => {
    const apart = ["react-native/", "passkey-check/"];
    const inward = files
      .filter(([file]) => !apart.some((folder) => file.startsWith(folder)))
      .flatMap(([file, path]) => imports(path).map(([target]) => `${file} → ${target}`))
      .filter((edge) => apart.some((folder) => edge.includes(`→ ${folder}`)));
    expect(inward).toEqual([]);
  });
});
