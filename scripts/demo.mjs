#!/usr/bin/env node
// Runs the demo on a machine with only Node 20 and npm: installs pnpm and the workspace,
// builds, then starts apps/demo. Until the demo app exists it serves the local emulator.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensurePnpm } from "./pnpm.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const sh = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const [pnpm, ...pnpmArgs] = ensurePnpm();
const shPnpm = (args) => sh(pnpm, [...pnpmArgs, ...args]);
shPnpm(["install", "--frozen-lockfile"]);
shPnpm(["run", "build"]);
if (existsSync(join(root, "apps/demo/package.json"))) {
  shPnpm(["--filter", "@signet/demo", "start"]);
} else {
  console.log("The demo app is not built yet (apps/demo). Serving the local emulator instead:");
  sh("node", ["packages/emulator/dist/cli.js", "--port", process.env.PORT ?? "8787"]);
}
