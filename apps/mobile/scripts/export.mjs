// `expo export` for Android and iOS, offline and without an Expo account: Metro bundles the app and
// compiles it to Hermes bytecode; fails unless both platforms' .hbc bundles are written.
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const app = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(app, "dist");
rmSync(out, { recursive: true, force: true });
const run = spawnSync(
  "npx",
  ["expo", "export", "--platform", "android", "--platform", "ios", "--output-dir", out],
  {
    cwd: app,
    stdio: "inherit",
    env: { ...process.env, CI: "1", EXPO_OFFLINE: "1", EXPO_NO_TELEMETRY: "1" },
  },
);
if (run.status !== 0) process.exit(run.status ?? 1);
for (const platform of ["android", "ios"]) {
  const dir = join(out, "_expo", "static", "js", platform);
  const bundles = readdirSync(dir).filter((name) => name.endsWith(".hbc"));
  if (bundles.length === 0) {
    console.error(`no Hermes bundle for ${platform} in ${dir}`);
    process.exit(1);
  }
  console.log(`${platform}: Hermes bundle ${bundles[0]}`);
}
