#!/usr/bin/env node
// The fresh Expo app (test/expo-app: create-expo-app's default template, SDK 57, plus what
// packages/core/README.md's Expo path adds) on the PACKED @signet/core, as a user installs it:
//   node scripts/expo-app.mjs install     pack core (built), `npm ci` from the committed lockfile
//   node scripts/expo-app.mjs typecheck   `tsc --noEmit` of the app and its tests
//   node scripts/expo-app.mjs export      `expo export` for Android and iOS (Hermes bytecode)
//   node scripts/expo-app.mjs jest FILE   the app's jest suite, its JSON report in FILE
// With no step, all four in order. Each exits non-zero when it fails.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const app = join(root, "test", "expo-app");
const core = join(root, "packages", "core");
const quiet = { ...process.env, CI: "1", EXPO_NO_TELEMETRY: "1", npm_config_fund: "false" };

function run(cmd, args, options = {}) {
  console.log(`\n$ (test/expo-app) ${[cmd, ...args].join(" ")}`);
  const started = performance.now();
  const r = spawnSync(cmd, args, { cwd: app, stdio: "inherit", env: quiet, ...options });
  console.log(
    `  ${r.status === 0 ? "ok" : "FAILED"} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return r.status === 0;
}

/** Packs the built core as `npm publish` would, to test/expo-app/signet-core.tgz. */
function pack() {
  if (!existsSync(join(core, "dist", "index.js"))) {
    console.error("packages/core is not built: run `pnpm build` first");
    return false;
  }
  const r = spawnSync("npm", ["pack", "--json", "--pack-destination", app], {
    cwd: core,
    encoding: "utf8",
    env: quiet,
  });
  if (r.status !== 0) {
    console.error(r.stderr);
    return false;
  }
  renameSync(join(app, JSON.parse(r.stdout)[0].filename), join(app, "signet-core.tgz"));
  return true;
}

/**
 * The lockfile records the packed package's dependencies; `npm ci` installs what it records. When
 * core's own dependencies change, the lock must be refreshed (`npm install ./signet-core.tgz` in
 * test/expo-app, then drop that entry's `integrity`, which changes with every build).
 */
function lockMatchesCore() {
  const manifest = JSON.parse(readFileSync(join(core, "package.json"), "utf8"));
  const lock = JSON.parse(readFileSync(join(app, "package-lock.json"), "utf8"));
  const locked = lock.packages["node_modules/@signet/core"] ?? {};
  const same = (a = {}, b = {}) => JSON.stringify(a) === JSON.stringify(b);
  if (
    locked.version === manifest.version &&
    same(locked.dependencies, manifest.dependencies) &&
    same(locked.peerDependencies, manifest.peerDependencies)
  )
    return true;
  console.error(
    "test/expo-app/package-lock.json records other dependencies of @signet/core than packages/core/package.json: refresh it (see scripts/expo-app.mjs)",
  );
  return false;
}

const steps = {
  install: () => pack() && lockMatchesCore() && run("npm", ["ci", "--no-audit"]),
  typecheck: () => {
    // What `npx expo start` writes on a developer's machine (and the template ignores in git):
    // the reference to Expo's types, which the template's tsconfig includes.
    writeFileSync(
      join(app, "expo-env.d.ts"),
      '/// <reference types="expo/types" />\n\n// NOTE: This file should not be edited and should be in your git ignore',
    );
    return run("npx", ["tsc", "--noEmit"]);
  },
  export: () => {
    const out = join(app, "dist");
    rmSync(out, { recursive: true, force: true });
    const ok = run(
      "npx",
      ["expo", "export", "--platform", "android", "--platform", "ios", "--output-dir", out],
      { env: { ...quiet, EXPO_OFFLINE: "1" } },
    );
    if (!ok) return false;
    for (const platform of ["android", "ios"]) {
      const dir = join(out, "_expo", "static", "js", platform);
      const bundle = existsSync(dir) && readdirSync(dir).find((name) => name.endsWith(".hbc"));
      if (!bundle) {
        console.error(`no Hermes bundle for ${platform} in ${dir}`);
        return false;
      }
      console.log(`  ${platform}: Hermes bundle ${bundle}`);
    }
    return true;
  },
  jest: (report) =>
    run("npx", ["jest", "--ci", ...(report ? ["--json", `--outputFile=${report}`] : [])]),
};

const [step, argument] = process.argv.slice(2);
if (step && !(step in steps)) {
  console.error(`unknown step ${step}: install, typecheck, export or jest`);
  process.exit(2);
}
const started = performance.now();
const ok = step
  ? steps[step](argument)
  : steps.install() && steps.typecheck() && steps.export() && steps.jest();
if (!step) console.log(`\ntest/expo-app: ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exit(ok ? 0 : 1);
