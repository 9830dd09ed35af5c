// `npm run demo` ends here: starts the demo on http://localhost:5173 and prints the address.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DemoUpstream, startDemoServer } from "./server.js";

const { GRID_BASE_URL, GRID_CLIENT_ID, GRID_CLIENT_SECRET, PORT } = process.env;
const sandbox = [GRID_BASE_URL, GRID_CLIENT_ID, GRID_CLIENT_SECRET];
if (sandbox.some(Boolean) && !sandbox.every(Boolean)) {
  console.error("Set all of GRID_BASE_URL, GRID_CLIENT_ID and GRID_CLIENT_SECRET, or none.");
  process.exit(1);
}
const upstream: DemoUpstream =
  GRID_BASE_URL && GRID_CLIENT_ID && GRID_CLIENT_SECRET
    ? {
        kind: "sandbox",
        baseUrl: GRID_BASE_URL,
        clientId: GRID_CLIENT_ID,
        clientSecret: GRID_CLIENT_SECRET,
      }
    : { kind: "emulator" };

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..", "app");
const demo = await startDemoServer({ appDir, upstream, port: PORT ? Number(PORT) : 5173 });
console.log(
  `Signet demo on ${demo.url} (${upstream.kind === "emulator" ? "local emulator in process" : `sandbox ${GRID_BASE_URL}`}). Ctrl-C stops it.`,
);
const stop = () => void demo.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
