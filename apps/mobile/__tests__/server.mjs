// Jest global setup: the web demo's server (its relay at /api/grid, its demo endpoints and the
// emulator in process) on 127.0.0.1, as `npm run demo` starts it (with execute needing the SCA
// login, DEMO_SCA_LOGIN_AT_EXECUTE); the screens reach it over real
// HTTP. Its address goes to the tests in EXPO_PUBLIC_SIGNET_SERVER.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const main = join(here, "..", "..", "demo", "server", "main.ts");

export default async function setup() {
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    // Its emulator refuses an EU customer's execute without an SCA login (409
    // SCA_SESSION_REQUIRED), as the service may: the journeys meet that path too.
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DEMO_SCA_LOGIN_AT_EXECUTE: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error(`the demo server did not start: ${out}`)),
      60_000,
    );
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const found = /Signet demo on (http:\/\/[^\s]+?)\s/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`the demo server exited (${code}): ${out}`)));
  });
  const port = new URL(url).port;
  process.env.EXPO_PUBLIC_SIGNET_SERVER = `http://127.0.0.1:${port}`;
  // The origin the emulator expects in passkey assertions (the demo's own page).
  process.env.SIGNET_TEST_ORIGIN = `http://localhost:${port}`;
  globalThis.__signetDemoServer = child;
}
