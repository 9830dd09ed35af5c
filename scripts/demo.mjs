#!/usr/bin/env node
// Runs the demo on a machine with only Node 20 and npm: installs pnpm and the workspace,
// builds, then starts apps/demo. Until the demo app exists it serves the local emulator.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const PNPM_VERSION = "10.34.9";
const sh = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
let pnpmOk = false;
try {
  pnpmOk = execFileSync("pnpm", ["--version"]).toString().trim() === PNPM_VERSION;
} catch {}
if (!pnpmOk) sh("npm", ["install", "-g", `pnpm@${PNPM_VERSION}`]);
sh("pnpm", ["install", "--frozen-lockfile"]);
sh("pnpm", ["run", "build"]);
if (existsSync(join(root, "apps/demo/package.json"))) {
  sh("pnpm", ["--filter", "@signet/demo", "start"]);
} else {
  console.log("The demo app is not built yet (apps/demo). Serving the local emulator instead:");
  sh("node", ["packages/emulator/dist/cli.js", "--port", process.env.PORT ?? "8787"]);
}
