#!/usr/bin/env node
// publint and attw over every publishable package (ESM only, so attw uses the esm-only profile).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
let failed = false;
for (const dir of readdirSync(join(root, "packages"))) {
  const pkgDir = join(root, "packages", dir);
  const manifest = join(pkgDir, "package.json");
  if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, "utf8")).private) continue;
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
