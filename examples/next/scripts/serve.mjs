#!/usr/bin/env node
// Serves the example: `node scripts/serve.mjs start` (after `next build`) or `… dev`. Unless
// GRID_BASE_URL names the sandbox (with GRID_CLIENT_ID and GRID_CLIENT_SECRET), it starts the
// emulator in this process first and hands its URL to Next through the environment, which the
// route handlers read on their first request. PORT (default 3000) is where Next listens, on
// localhost: WebAuthn needs a domain, never an IP address. SIGNET_NEXT_EDGE=1 serves the edge
// variant (.next-edge, see next.config.ts).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { startEmulatorServer } from "@signet/emulator";

const mode = process.argv[2] === "dev" ? "dev" : "start";
const port = Number(process.env.PORT ?? 3000);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

let emulator;
if (!env.GRID_BASE_URL) {
  emulator = await startEmulatorServer({
    port: 0,
    webauthn: { rpId: "localhost", origins: [`http://localhost:${port}`] },
    settlementDelayMs: 1_500,
  });
  Object.assign(env, {
    GRID_BASE_URL: emulator.url,
    GRID_CLIENT_ID: "emulator",
    GRID_CLIENT_SECRET: "emulator",
    GRID_EMULATOR: "1",
  });
  console.log(`emulator on ${emulator.url} (sandbox codes: email 000000, SMS 123456)`);
}
// A fresh secret per run signs everyone out of the demo on restart; set one to keep sessions.
env.SESSION_SECRET ??= randomBytes(32).toString("base64url");

const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const next = spawn(
  process.execPath,
  [nextBin, mode, "--port", String(port), "--hostname", "localhost"],
  { env, stdio: "inherit" },
);

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  if (next.exitCode === null) next.kill("SIGTERM");
  await emulator?.close();
  process.exit(code);
}
next.on("exit", (code) => void stop(code ?? 1));
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
