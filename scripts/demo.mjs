#!/usr/bin/env node
// Runs the demo on a machine with only Node 20 and npm: installs pnpm and the workspace, builds,
// then starts apps/demo on http://localhost:5173 (emulator in process, or the sandbox when
// GRID_BASE_URL, GRID_CLIENT_ID and GRID_CLIENT_SECRET are set; see apps/demo/README.md).
//
// Only what changed is done again: the install when the lockfile differs from the one installed,
// and a package's build when a file it is built from is newer than its build (or a package it
// depends on was built again). `DEMO_REBUILD=1` builds everything anyway.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensurePnpm } from "./pnpm.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const started = Date.now();
const sh = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const [pnpm, ...pnpmArgs] = ensurePnpm();
const shPnpm = (args) => sh(pnpm, [...pnpmArgs, ...args]);

// pnpm keeps a copy of the lockfile it installed: the same bytes mean nothing to install.
const read = (path) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);
if (read(join(root, "pnpm-lock.yaml")) !== read(join(root, "node_modules/.pnpm/lock.yaml")))
  shPnpm(["install", "--frozen-lockfile"]);

/** The workspace's packages by name: their folder and their workspace dependencies. */
function workspace() {
  const packages = new Map();
  for (const group of ["packages", "apps"])
    for (const name of readdirSync(join(root, group))) {
      const dir = join(root, group, name);
      const manifest = read(join(dir, "package.json"));
      if (!manifest) continue;
      const json = JSON.parse(manifest);
      const deps = Object.entries({ ...json.dependencies, ...json.devDependencies })
        .filter(([, range]) => String(range).startsWith("workspace:"))
        .map(([dep]) => dep);
      packages.set(json.name, { dir, deps, build: json.scripts?.build !== undefined });
    }
  return packages;
}

/** `name` and every workspace package it depends on, dependencies first. */
function chain(packages, name, out = [], seen = new Set()) {
  if (seen.has(name) || !packages.has(name)) return out;
  seen.add(name);
  for (const dep of packages.get(name).deps) chain(packages, dep, out, seen);
  out.push(name);
  return out;
}

const SKIP = new Set(["node_modules", "dist", "test", "screenshots", ".turbo"]);
/** The newest modification time of the files a package is built from (not its tests). */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!/\.test\.[cm]?[jt]sx?$/.test(entry.name))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}
/** The oldest file of a build (every build writes all of them), or 0 when there is none. */
function oldestBuilt(dir) {
  const dist = join(dir, "dist");
  if (!existsSync(dist)) return 0;
  let oldest = Number.POSITIVE_INFINITY;
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else oldest = Math.min(oldest, statSync(path).mtimeMs);
    }
  };
  walk(dist);
  return oldest === Number.POSITIVE_INFINITY ? 0 : oldest;
}

// The demo and the packages it is built from, in order; not the other apps and examples.
const packages = workspace();
const rebuilt = new Set();
for (const name of chain(packages, "@signet/demo")) {
  const { dir, deps, build } = packages.get(name);
  if (!build) continue;
  const built = oldestBuilt(dir);
  // Stale: asked to, a dependency was built again (now, or since this one was), or a source is
  // newer than the build.
  const stale =
    process.env.DEMO_REBUILD === "1" ||
    deps.some((dep) => rebuilt.has(dep) || oldestBuilt(packages.get(dep).dir) > built) ||
    newestSource(dir) >= built;
  if (!stale) {
    console.log(`${name}: up to date`);
    continue;
  }
  shPnpm(["--filter", name, "run", "build"]);
  rebuilt.add(name);
}
console.log(`Ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
sh("node", [join(root, "apps/demo/dist/server/main.js")]);
