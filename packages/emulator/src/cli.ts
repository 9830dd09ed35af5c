#!/usr/bin/env node
// signet-emulator: serves the emulator on 127.0.0.1 and prints `listening on <url>` when ready.
import { parseArgs } from "node:util";
import { startEmulatorServer } from "./server.js";

const HELP = `Usage: signet-emulator [options]

A local emulator of the Embedded Wallet service endpoints, with real cryptographic checks.

Options:
  --port <port>        TCP port (default 0: a free port)
  --host <host>        interface to bind (default 127.0.0.1)
  --seed <seed>        deterministic keys and ids
  --otp-code <code>    the OTP code that verifies (default 000000)
  --rp-id <rpId>       WebAuthn RP ID (default localhost)
  --origin <origin>    accepted WebAuthn origin; repeat for several (default http://localhost:5173)
  --client-id <id>     Basic auth username (default emulator)
  --client-secret <s>  Basic auth password (default emulator)
  --sca-session-ttl-ms <ms>       SCA login lifetime (default 900000)
  --no-sca-login                  quote authorize needs no SCA login session
  --sca-login-at-execute          quote execute needs an SCA login session too (409 SCA_SESSION_REQUIRED)
  --control-host <name>           a Host name, besides loopback ones, the /_emulator controls answer; repeatable
  --passkey-options-shape <shape> json (default) or publicKey ({ publicKey: {...} })
  --processing-rate <0..1>        share of #850/#854's signed retries answered PROCESSING unprompted (default 0)
  -h, --help           show this help

Prints "listening on http://127.0.0.1:<port>" once ready; stops on SIGINT or SIGTERM.`;

async function main(): Promise<void> {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse().values;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${HELP}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`--port expects an integer 0–65535, got ${values.port}\n`);
    process.exit(2);
  }
  const ttl = values["sca-session-ttl-ms"];
  if (ttl !== undefined && !/^[0-9]+$/.test(ttl)) {
    process.stderr.write(`--sca-session-ttl-ms expects milliseconds, got ${ttl}\n`);
    process.exit(2);
  }
  const shape = values["passkey-options-shape"];
  if (shape !== undefined && shape !== "json" && shape !== "publicKey") {
    process.stderr.write(`--passkey-options-shape expects json or publicKey, got ${shape}\n`);
    process.exit(2);
  }
  const rateText = values["processing-rate"];
  const rate = rateText === undefined ? undefined : Number(rateText);
  if (rate !== undefined && !(rate >= 0 && rate <= 1)) {
    process.stderr.write(`--processing-rate expects a number from 0 to 1, got ${rateText}\n`);
    process.exit(2);
  }
  const server = await startEmulatorServer({
    port,
    host: values.host ?? "127.0.0.1",
    ...(values.seed !== undefined ? { seed: values.seed } : {}),
    ...(values["otp-code"] !== undefined ? { otpCode: values["otp-code"] } : {}),
    ...(values["client-id"] !== undefined ? { clientId: values["client-id"] } : {}),
    ...(values["client-secret"] !== undefined ? { clientSecret: values["client-secret"] } : {}),
    ...(ttl !== undefined ? { scaSessionTtlMs: Number(ttl) } : {}),
    ...(values["no-sca-login"] ? { requireScaLogin: false } : {}),
    ...(values["sca-login-at-execute"] ? { requireScaSessionAtExecute: true } : {}),
    ...(values["control-host"] !== undefined ? { controlHosts: values["control-host"] } : {}),
    ...(shape !== undefined ? { passkeyOptionsShape: shape } : {}),
    ...(rate !== undefined ? { processingRate: rate } : {}),
    webauthn: {
      ...(values["rp-id"] !== undefined ? { rpId: values["rp-id"] } : {}),
      ...(values.origin !== undefined ? { origins: values.origin } : {}),
    },
  });
  process.stdout.write(`listening on ${server.url}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

function parse() {
  return parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      seed: { type: "string" },
      "otp-code": { type: "string" },
      "rp-id": { type: "string" },
      origin: { type: "string", multiple: true },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      "sca-session-ttl-ms": { type: "string" },
      "no-sca-login": { type: "boolean" },
      "sca-login-at-execute": { type: "boolean" },
      "control-host": { type: "string", multiple: true },
      "processing-rate": { type: "string" },
      "passkey-options-shape": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `signet-emulator: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
