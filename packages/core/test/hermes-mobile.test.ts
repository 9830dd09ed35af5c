// The mobile example app (apps/mobile) in Hermes: its own sign-in and payment code
// (apps/mobile/src/journeys.ts, the functions its screens call, and its Signet client in
// src/signet.ts), bundled with the app's Metro configuration (./hermes/mobile/metro.ts says what
// differs from the phone's bundle) and run in hermes-engine-cli by the flow harness
// (./hermes/flows.ts) against the web demo's server (relay, demo endpoints, emulator) over real
// HTTP. The emulator accepting the OTP bundle, stamps and SCA answers made in Hermes is the proof.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoServer, startDemoServer } from "../../../apps/demo/server/server.js";
import type { LoggedRequest } from "../../../test/support/stack.js";
import { type FlowRun, runFlow } from "./hermes/flows.js";
import type { MobileParams, MobileScenario } from "./hermes/mobile/input.js";
import { bundleMobileApp, MOBILE_APP, type MobileBundle } from "./hermes/mobile/metro.js";

const CORE = join(MOBILE_APP, "..", "..", "packages", "core");

let demo: DemoServer;
let server: string;
let bundle: MobileBundle;
const runs: Partial<Record<MobileScenario, FlowRun<MobileScenario>>> = {};

/** The phone's cookie store (React Native's networking keeps the demo's sign-in cookie). */
const cookies = new Map<string, string>();
const phoneFetch: typeof fetch = async (input, init = {}) => {
  const headers = new Headers(init.headers);
  if (cookies.size > 0)
    headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
  const response = await fetch(input, { ...init, headers });
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0] ?? "";
    const at = pair.indexOf("=");
    if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return response;
};

const email = `hermes-${Date.now()}@example.com`;
const params: MobileParams = {
  // As typed: spaces around the email, the region in lower case (the app tidies both).
  email: ` ${email} `,
  region: "de",
  otpCode: "000000",
  amount: "5,00",
  scaCode: "123456",
};

beforeAll(async () => {
  if (!existsSync(join(CORE, "dist/index.native.js")))
    throw new Error("packages/core/dist is missing: run `pnpm --filter @signet/core build` first");
  // The demo server as `npm run demo` starts it, with a quick settlement (the app waits for it).
  demo = await startDemoServer({
    appDir: join(MOBILE_APP, "..", "demo", "app"),
    host: "127.0.0.1",
    port: 0,
    settlementDelayMs: 1_500,
  });
  server = `http://127.0.0.1:${demo.address.port}`;
  bundle = await bundleMobileApp({ server });
  console.info(
    `hermes mobile: Metro bundle ${(bundle.code.length / 1024).toFixed(0)} KiB, ${bundle.modules.length} modules, built in ${bundle.ms.toFixed(0)} ms`,
  );
}, 120_000);
afterAll(() => demo?.close());

async function journey(scenario: MobileScenario, secureStore: FlowRun["secureStore"] = []) {
  const t0 = performance.now();
  const run = await runFlow(bundle.code, {
    scenario,
    params,
    secureStore,
    fetch: phoneFetch,
    maxIo: 60,
    // Hermes 0.12 warns of globals it does not see declared (setTimeout, TextEncoder, …): the
    // prelude installs them at run time.
    hermesFlags: ["-Wno-undefined-variable"],
  });
  console.info(
    `hermes mobile: ${scenario}: ${run.io.length} I/O calls, ${run.runs} Hermes runs, ${(performance.now() - t0).toFixed(0)} ms`,
  );
  runs[scenario] = run;
  return run;
}

async function emulatorLog(): Promise<LoggedRequest[]> {
  const emulator = demo.emulator;
  if (!emulator) throw new Error("the demo server runs no emulator");
  const log = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
    data: LoggedRequest[];
  };
  return log.data;
}

const paths = (run: FlowRun<MobileScenario>) =>
  run.io.map((call) => `${call.request.method} ${new URL(call.request.url ?? "").pathname}`);

describe("hermes mobile: the app's bundle", () => {
  it("holds the app's journeys, client and configuration, core's react-native build, and no UI, web or Node code", () => {
    const modules = bundle.modules;
    for (const file of [
      "apps/mobile/src/journeys.ts",
      "apps/mobile/src/signet.ts",
      "apps/mobile/src/demoApi.ts",
      "apps/mobile/src/config.ts",
      "apps/mobile/app.json",
      "packages/core/dist/index.native.js",
      "packages/core/dist/react-native/expo-secure-store.js",
      "packages/core/dist/react-native/react-native-passkeys.js",
    ])
      expect(modules).toContain(file);
    expect(modules.filter((m) => m.startsWith("packages/core/src/"))).toEqual([]);
    for (const absent of [
      "react-native/",
      "react/",
      "@signet/react",
      "packages/react/",
      "@hpke",
      "@simplewebauthn",
      "idb-keyval",
      "packages/core/dist/index.js",
    ])
      expect(
        modules.filter((m) => m.startsWith(absent)),
        absent,
      ).toEqual([]);
    // The server address the app was built with, inlined as on a phone.
    expect(bundle.code).toContain(server);
  });
});

describe("hermes mobile: the app's journeys against the demo server", () => {
  it("sign-in: a fresh install logs in to the demo and gets a wallet session by email code; the key stays in the secure store", async () => {
    const run = await journey("signIn");
    expect(run.result).toMatchObject({
      signedInAtStart: false,
      mode: "emulator",
      profile: { email, region: "DE", sca: true },
      persistence: "secure-store",
    });
    const { session, held } = run.result as { session: { id: string }; held: { id: string } };
    expect(session.id).toMatch(/^Session:/);
    expect(held.id).toBe(session.id);
    // The app's calls in order: its start, the demo login, the code, the verification.
    expect(paths(run)).toEqual([
      "GET /api/demo/config",
      "GET /api/demo/me",
      "POST /api/demo/signin",
      expect.stringMatching(/^POST \/api\/grid\/auth\/credentials\/.+\/challenge$/),
      expect.stringMatching(/^POST \/api\/grid\/auth\/credentials\/.+\/verify$/),
      expect.stringMatching(/^POST \/api\/grid\/auth\/credentials\/.+\/verify$/),
    ]);
    // The code never travels in the clear: it is sealed to the enclave.
    for (const call of run.io) expect(JSON.stringify(call.request)).not.toContain(`"otpCode"`);
    const verify = (await emulatorLog()).filter((r) => r.path.endsWith("/verify"));
    expect(verify.at(-1)).toMatchObject({ status: 200, hasSignature: true });
    // Signet's records only, each readable on this device only while it is unlocked.
    const items = run.secureStore;
    // (The fake store files each key under its keychain service, "app" by default.)
    const keys = items.map(([key]) => key.replace(/^app:/, ""));
    expect(keys).toEqual(expect.arrayContaining(["signet.installed", "signet.index"]));
    expect(keys.some((key) => key.startsWith("signet.k."))).toBe(true);
    expect(keys.every((key) => key.startsWith("signet."))).toBe(true);
    expect(new Set(items.map(([, item]) => item.accessibility))).toEqual(
      new Set(["whenUnlockedThisDeviceOnly"]),
    );
  }, 90_000);

  it("payment: after a restart, an EU customer's quote is signed, confirmed by SMS (conversion, SCA login, payout) and followed until it settles", async () => {
    const signIn = runs.signIn;
    if (!signIn) throw new Error("the sign-in journey did not run");
    const run = await journey("payment", signIn.secureStore);
    const result = run.result as {
      restored: { id: string };
      currency: { code: string; decimals: number };
      units: number;
      quote: { id: string };
      prompts: { factor: string; purpose: string | null; step: number; prompt: string }[];
      sent: { id: string; status: string; transactionId: string };
      settled: { id: string; status: string };
    };
    expect(result.restored.id).toBe((signIn.result.session as { id: string }).id);
    // "5,00" in the wallet currency's smallest unit.
    expect(result.units).toBe(5 * 10 ** result.currency.decimals);
    // The conversion's code is sent again by core after the SCA login (an SMS code is not asked twice).
    expect(result.prompts.map(({ factor, purpose, step }) => [factor, purpose, step])).toEqual([
      ["SMS_OTP", "CURRENCY_CONVERSION", 1],
      ["SMS_OTP", "SCA_LOGIN", 1],
      ["SMS_OTP", "PAYOUT", 2],
    ]);
    expect(result.prompts.map((p) => p.prompt)).toEqual([
      expect.stringMatching(/^Confirm the payment \(CURRENCY_CONVERSION\)/),
      expect.stringMatching(/^Confirm it is you/),
      expect.stringMatching(/^Confirm the payment \(PAYOUT\)/),
    ]);
    expect(result.sent).toMatchObject({ id: result.quote.id, status: "PROCESSING" });
    expect(result.settled).toEqual({ id: result.sent.transactionId, status: "COMPLETED" });

    // One execute, signed in Hermes with its idempotency key; then the SCA answers.
    const log = await emulatorLog();
    const executes = log.filter((r) => r.path.endsWith(`${result.quote.id}/execute`));
    expect(executes).toHaveLength(1);
    expect(executes[0]).toMatchObject({ status: 200, hasSignature: true, hasIdempotencyKey: true });
    const authorizations = log.filter((r) => r.path.endsWith(`${result.quote.id}/authorize`));
    expect(authorizations.map((r) => r.status)).toEqual([409, 200, 200]);
  }, 120_000);

  it("every run: Hermes, quiet, and no Buffer, atob, btoa, TextEncoder or TextDecoder touched", () => {
    expect(Object.keys(runs).sort()).toEqual(["payment", "signIn"]);
    for (const [scenario, run] of Object.entries(runs)) {
      expect(run?.engine.hermes, scenario).toBe(true);
      expect(run?.console, scenario).toEqual([]);
      for (const [name, count] of Object.entries(run?.globalsTouched ?? {}))
        expect(count, `${scenario}: ${name}`).toBe(0);
    }
  });
});
