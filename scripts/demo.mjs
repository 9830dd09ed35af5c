#!/usr/bin/env node
// Runs the demo on a machine with only Node 20 and npm: installs pnpm and the workspace, builds,
// then starts apps/demo on http://localhost:5173 (emulator in process, or the sandbox when
// GRID_BASE_URL, GRID_CLIENT_ID and GRID_CLIENT_SECRET are set; see apps/demo/README.md).
import { spawnSync } from "node:child_process";
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
// The demo and the packages it is built from, in order; not the other apps and examples.
shPnpm(["--filter", "@signet/demo...", "--workspace-concurrency=1", "run", "build"]);
sh("node", [join(root, "apps/demo/dist/server/main.js")]);
