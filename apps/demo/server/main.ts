// `npm run demo` ends here: starts the demo on http://localhost:5173 and prints the address.
// Environment (apps/demo/README.md): GRID_* for the real sandbox, PORT, HOST (default localhost:
// loopback only), DEMO_HTTPS=1 behind a TLS proxy, DEMO_TRUST_PROXY=1 to believe its
// X-Forwarded-* headers, DEMO_ATTACK to play a compromised backend, DEMO_SCA_LOGIN_AT_EXECUTE=1
// for an emulator whose execute needs the customer's SCA login (409 SCA_SESSION_REQUIRED),
// DEMO_CONTACT_CHANGES=resource for contact changes through the service's contact-change resource
// (its #853) instead of the PATCH, DEMO_WEBHOOKS=1 for the emulator's wallet-operation webhooks
// pushed through the relay to the waiting tab (the service's #802), DEMO_FRAME=1 for the signer
// frame (@signet/frame) on a second port (DEMO_FRAME_PORT, default PORT + 1) holding the keys.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDemoAttack } from "./attack.js";
import { type DemoUpstream, startDemoServer } from "./server.js";

const {
  GRID_BASE_URL,
  GRID_CLIENT_ID,
  GRID_CLIENT_SECRET,
  PORT,
  HOST,
  DEMO_HTTPS,
  DEMO_TRUST_PROXY,
  DEMO_ATTACK,
  DEMO_SCA_LOGIN_AT_EXECUTE,
  DEMO_CONTACT_CHANGES,
  DEMO_WEBHOOKS,
  DEMO_FRAME,
  DEMO_FRAME_PORT,
} = process.env;
if (
  DEMO_CONTACT_CHANGES &&
  DEMO_CONTACT_CHANGES !== "patch" &&
  DEMO_CONTACT_CHANGES !== "resource"
) {
  console.error('DEMO_CONTACT_CHANGES is "patch" (the default) or "resource".');
  process.exit(1);
}
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

const flag = (value: string | undefined) => value === "1" || value === "true";
let attack: ReturnType<typeof parseDemoAttack>;
try {
  attack = parseDemoAttack(DEMO_ATTACK);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

const host = HOST || "localhost";
const appDir = join(dirname(fileURLToPath(import.meta.url)), "..", "app");
const demo = await startDemoServer({
  appDir,
  upstream,
  port: PORT ? Number(PORT) : 5173,
  host,
  https: flag(DEMO_HTTPS),
  trustProxy: flag(DEMO_TRUST_PROXY),
  ...(attack ? { attack } : {}),
  ...(DEMO_CONTACT_CHANGES === "resource" ? { contactChanges: "resource" as const } : {}),
  ...(flag(DEMO_SCA_LOGIN_AT_EXECUTE) ? { emulator: { requireScaSessionAtExecute: true } } : {}),
  ...(flag(DEMO_WEBHOOKS) ? { webhooks: true } : {}),
  ...(flag(DEMO_FRAME)
    ? { frame: DEMO_FRAME_PORT ? { port: Number(DEMO_FRAME_PORT) } : true }
    : {}),
});
console.log(
  `Signet demo on ${demo.url} (${upstream.kind === "emulator" ? "local emulator in process" : `sandbox ${GRID_BASE_URL}`})${attack ? `, PLAYING A COMPROMISED BACKEND (DEMO_ATTACK=${attack})` : ""}${demo.frameUrl ? `, keys in the signer frame at ${demo.frameUrl}` : ""}. Ctrl-C stops it.`,
);
if (host !== "localhost" && host !== "127.0.0.1" && host !== "::1")
  console.warn(
    `Listening on ${host}: the demo is reachable from the network. It is a sandbox whose email sign-in proves nothing; never let it guard real money.`,
  );
const stop = () => void demo.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
