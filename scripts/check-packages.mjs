#!/usr/bin/env node
// publint and attw over every publishable package (ESM only, so attw uses the esm-only profile),
// and the tarball each would publish: no test, test helper or fixture may ship.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
let failed = false;
// Tests, their helpers and fixtures, wherever they sit (a public "testing" entry is not one).
const TEST_FILE = /(^|\/)(test|tests|__tests__|fixtures?)\/|\.(test|spec)\.[cm]?[jt]sx?$/;
// Code for an app's own tests (@signet/emulator/testing, @signet/core/jest) ships only as a
// deliberate public entry: its folder must be the target of an explicit `exports` subpath, so
// nothing an app imports reaches it and no test helper rides along unnoticed.
const TEST_SUPPORT = /^(?:dist|src)\/(testing|jest)\//;
const exportedFolders = (manifest) =>
  new Set(
    JSON.stringify(manifest.exports ?? {})
      .match(/"\.\/dist\/(testing|jest)\//g)
      ?.map((target) => target.slice(8, -1)) ?? [],
  );
for (const dir of readdirSync(join(root, "packages"))) {
  const pkgDir = join(root, "packages", dir);
  const manifest = join(pkgDir, "package.json");
  if (!existsSync(manifest)) continue;
  const pkg = JSON.parse(readFileSync(manifest, "utf8"));
  if (pkg.private) continue;
  const entries = exportedFolders(pkg);
  const pack = spawnSync("npm", ["pack", "--dry-run", "--json"], { cwd: pkgDir, encoding: "utf8" });
  const files = pack.status === 0 ? JSON.parse(pack.stdout)[0].files.map((f) => f.path) : null;
  const testOnly = (files ?? []).filter(
    (path) =>
      TEST_FILE.test(path) || (TEST_SUPPORT.test(path) && !entries.has(TEST_SUPPORT.exec(path)[1])),
  );
  if (files === null || testOnly.length > 0) {
    console.error(
      files === null
        ? `npm pack --dry-run failed for packages/${dir}: ${pack.stderr}`
        : `packages/${dir} would publish test code: ${testOnly.join(", ")} (exclude it in "files")`,
    );
    failed = true;
  } else console.log(`packages/${dir}: ${files.length} files in the tarball, no test code`);
  for (const [cmd, args] of [
    ["publint", ["--strict", pkgDir]],
    ["attw", ["--pack", pkgDir, "--profile", "esm-only", "--format", "table-flipped"]],
  ]) {
    const bin = join(root, "node_modules", ".bin", cmd);
    const r = spawnSync(bin, args, { cwd: root, stdio: "inherit" });
    if (r.status !== 0) {
      console.error(`${cmd} failed for packages/${dir}`);
      failed = true;
    }
  }
}
process.exit(failed ? 1 : 0);
