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
for (const dir of readdirSync(join(root, "packages"))) {
  const pkgDir = join(root, "packages", dir);
  const manifest = join(pkgDir, "package.json");
  if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, "utf8")).private) continue;
  const pack = spawnSync("npm", ["pack", "--dry-run", "--json"], { cwd: pkgDir, encoding: "utf8" });
  const files = pack.status === 0 ? JSON.parse(pack.stdout)[0].files.map((f) => f.path) : null;
  const testOnly = (files ?? []).filter((path) => TEST_FILE.test(path));
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
