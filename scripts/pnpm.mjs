// Finds pnpm 10.34.9 for the repository's scripts on a machine that may have only Node and npm:
// an installed pnpm of that version, else a global install, else npx (no root needed).
import { execFileSync, spawnSync } from "node:child_process";

export const PNPM_VERSION = "10.34.9";

function version(command, args) {
  try {
    return execFileSync(command, [...args, "--version"], { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

/** The command (and leading arguments) that runs pnpm 10.34.9. */
export function ensurePnpm() {
  if (version("pnpm", []) === PNPM_VERSION) return ["pnpm"];
  const installed = spawnSync("npm", ["install", "-g", `pnpm@${PNPM_VERSION}`], {
    stdio: "inherit",
  });
  if (installed.status === 0 && version("pnpm", []) === PNPM_VERSION) return ["pnpm"];
  const npx = ["npx", "--yes", `pnpm@${PNPM_VERSION}`];
  if (version(npx[0], npx.slice(1)) === PNPM_VERSION) return npx;
  throw new Error(`could not run pnpm@${PNPM_VERSION} (npm install -g and npx both failed)`);
}
