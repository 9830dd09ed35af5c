// Every flow of the `react-native` build in Hermes against the emulator: app-side code bundled
// by Metro from the built package (./hermes/metro.ts), run in hermes-engine-cli with no network,
// a Node driver carrying its I/O to the relay and emulator over real HTTP (./hermes/flows.ts).
// The emulator accepting the keys, OTP bundle, stamps and passkey results made in Hermes is the
// proof. The steps run as one app would over time: a fresh install, then restarts that find
// what the keychain kept.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSoftAuthenticator } from "@signet/emulator/testing";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passkeyUser, registrationChallenge } from "../../../test/support/signIn.js";
import { type Stack, startStack } from "../../../test/support/stack.js";
import type { FlowInput } from "./hermes/app/input.js";
import { type FlowRun, runFlow } from "./hermes/flows.js";
import { bundleWithMetro, type MetroBundle, modulesOf } from "./hermes/metro.js";

const here = dirname(fileURLToPath(import.meta.url));
const CORE = join(here, "..");

let stack: Stack;
let bundle: MetroBundle;
let params: FlowInput["params"];
let user: { customerId: string; accountId: string; emailCredentialId: string };
const authenticator = createSoftAuthenticator({
  rpId: "localhost",
  origin: "http://localhost:5173",
});
const runs: Partial<Record<FlowInput["scenario"], FlowRun>> = {};

/** A compromised backend, when armed: the relay's upstream swaps a refresh's new key for its own. */
let attackerKey: string | undefined;
const swappingRefresh =
  (upstream: typeof fetch): typeof fetch =>
  (input, init = {}) => {
    if (!attackerKey || !String(input).endsWith("/refresh") || !init.body)
      return upstream(input, init);
    const body = JSON.parse(new TextDecoder().decode(init.body as Uint8Array));
    const headers = new Headers(init.headers);
    headers.delete("content-length");
    return upstream(input, {
      ...init,
      headers,
      body: new TextEncoder().encode(JSON.stringify({ ...body, clientPublicKey: attackerKey })),
    });
  };

beforeAll(async () => {
  if (!existsSync(join(CORE, "dist/index.native.js")))
    throw new Error("packages/core/dist is missing: run `pnpm --filter @signet/core build` first");
  [stack, bundle] = await Promise.all([
    startStack({ relayUpstream: swappingRefresh }),
    bundleWithMetro("packages/core/test/hermes/app/app.ts"),
  ]);
  // A customer in Germany: payments need Strong Customer Authentication (docs/protocol.md §9).
  user = await stack.signUp(undefined, { region: "DE" });
  const keys = (await (await fetch(`${stack.emulator.url}/_emulator/keys`)).json()) as {
    attestationPublicKey: string;
    signerPublicKey: string;
  };
  params = {
    relayUrl: stack.relayUrl,
    ...user,
    trustedKeys: {
      otpTargetBundle: [keys.attestationPublicKey],
      exportBundle: [keys.signerPublicKey],
    },
    rpId: "localhost",
  };
  console.info(
    `hermes flows: Metro bundle ${(bundle.code.length / 1024).toFixed(0)} KiB, ${bundle.modules.size} modules, built in ${bundle.ms.toFixed(0)} ms`,
  );
}, 120_000);
afterAll(() => stack?.close());

/** Runs a scenario and keeps it for the checks every run must pass. */
async function flow(
  scenario: FlowInput["scenario"],
  options: Omit<Parameters<typeof runFlow>[1], "scenario" | "params"> = {},
  extra: Partial<FlowInput["params"]> = {},
) {
  const t0 = performance.now();
  const run = await runFlow(bundle.code, {
    scenario,
    params: { ...params, ...extra },
    authenticator,
    ...options,
  });
  console.info(
    `hermes flows: ${scenario}: ${run.io.length} I/O calls, ${run.runs} Hermes runs, ${(performance.now() - t0).toFixed(0)} ms`,
  );
  runs[scenario] = run;
  return run;
}

const deviceOnly = (items: FlowRun["keychain"]) => items.map(([, item]) => item.accessibility);

describe("hermes flows: the Metro bundle", () => {
  it("holds core's react-native build from dist and the adapter entries, and no web or Node code", () => {
    const paths = [...bundle.modules.values()];
    expect(paths).toContain("packages/core/dist/index.native.js");
    for (const entry of ["expo-secure-store", "react-native-keychain", "react-native-passkeys"])
      expect(paths).toContain(`packages/core/dist/react-native/${entry}.js`);
    expect(paths.some((p) => p.startsWith("packages/core/src/"))).toBe(false);
    for (const web of [
      "@hpke",
      "@simplewebauthn",
      "idb-keyval",
      "packages/core/dist/index.js",
      "packages/core/dist/crypto/webcrypto.js",
    ])
      expect(
        paths.filter((p) => p.includes(web)),
        web,
      ).toEqual([]);
  });

  it("no module of core uses Buffer, atob, btoa, TextEncoder/TextDecoder or a Node built-in", () => {
    const offenders: string[] = [];
    for (const [path, source] of modulesOf(bundle)) {
      if (!path.startsWith("packages/core/dist/")) continue;
      const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
      for (const name of ["Buffer", "atob", "btoa", "TextEncoder", "TextDecoder", "process"])
        if (new RegExp(`\\b${name}\\b`).test(code)) offenders.push(`${path}: ${name}`);
      if (/["']node:/.test(code)) offenders.push(`${path}: a node: import`);
    }
    expect(offenders).toEqual([]);
  });

  it("the browser build never sees the native modules", async () => {
    const web = await build({
      entryPoints: [join(CORE, "dist/index.js")],
      bundle: true,
      write: false,
      platform: "browser",
      format: "esm",
      logLevel: "silent",
    });
    const text = web.outputFiles.map((f) => f.text).join("\n");
    for (const name of ["expo-secure-store", "react-native-keychain", "react-native-passkeys"])
      expect(text.includes(name), name).toBe(false);
  });
});

// Each flow interprets the Metro bundle in Hermes, without a JIT, several times over: on a loaded
// 2-core runner one took just over the default 30 s, so these wait longer. Nothing here is timed.
describe("hermes flows: against the emulator", { timeout: 120_000 }, () => {
  it("without a random source, createClient fails with CRYPTO_UNAVAILABLE naming the fix, before any request", async () => {
    const run = await flow("noRandom", { withRandom: false });
    expect(run.result).toMatchObject({
      created: false,
      code: "CRYPTO_UNAVAILABLE",
      isSignetError: true,
    });
    expect(String(run.result.message)).toContain("react-native-get-random-values");
    expect(String(run.result.message)).toContain("crypto.getRandomValues");
    expect(run.io).toEqual([]);
  });

  it("an OTP sign-in: the emulator accepts the OTP bundle and stamps made in Hermes; the key stays on the device", async () => {
    const run = await flow("otp");
    const session = run.result.session as { id: string; accountId: string };
    expect(session.id).toMatch(/^Session:/);
    expect(run.result.held).toMatchObject({ id: session.id });
    expect(run.result.persistence).toBe("secure-store");
    expect(run.io.every((c) => c.kind === "fetch")).toBe(true);
    const log = await stack.requests();
    const verify = log.filter((r) => r.path.includes("/verify"));
    expect(verify.length).toBeGreaterThan(0);
    expect(verify.at(-1)?.status).toBe(200);
    // The session key record and the index, both readable only on this device while unlocked.
    expect(run.keychain.length).toBeGreaterThanOrEqual(2);
    expect(new Set(deviceOnly(run.keychain))).toEqual(new Set(["whenUnlockedThisDeviceOnly"]));
  });

  // Each I/O call is a Hermes run: the sign-in's proof of its key (a refresh) adds two.
  it("a passkey sign-in: after a restart, the passkey added and used through react-native-passkeys", async () => {
    const keychain = runs.otp?.keychain ?? [];
    const run = await flow(
      "passkey",
      { keychain },
      {
        passkey: {
          challenge: registrationChallenge(),
          rp: { id: "localhost", name: "Signet Hermes" },
          user: passkeyUser("hermes"),
        },
      },
    );
    expect(run.result.restored).toMatchObject({
      id: (runs.otp?.result.session as { id: string } | undefined)?.id,
    });
    expect(authenticator.credentials).toHaveLength(1);
    expect(run.result.passkeyId).toMatch(/\S/);
    expect(run.result.session).toMatchObject({ credentialId: run.result.passkeyId });
    expect(run.io.map((c) => c.kind)).toEqual(
      expect.arrayContaining(["passkey.create", "passkey.get"]),
    );
    expect(run.secureStore.length).toBeGreaterThanOrEqual(2);
    expect(new Set(deviceOnly(run.secureStore))).toEqual(new Set(["whenUnlockedThisDeviceOnly"]));
  }, 60_000);

  it("a quote execute with SCA: stamped in Hermes with the restored passkey session, a passkey enrolled for SCA and asked for on execute, the SCA login and both challenges answered through react-native-passkeys", async () => {
    // A cross-currency send (USDB to USD): the conversion, then the payout, each by passkey.
    const { quoteId } = await stack.walletQuote(user, 1_000_000);
    const run = await flow("quote", { secureStore: runs.passkey?.secureStore ?? [] }, { quoteId });
    expect(run.result).toMatchObject({
      quoteId,
      scaFactor: "PASSKEY",
      executedStatus: "PENDING_AUTHORIZATION",
      challenges: [
        { factor: "PASSKEY", purpose: "CURRENCY_CONVERSION", step: 1, login: false },
        { factor: "PASSKEY", purpose: "SCA_LOGIN", step: 1, login: true },
        { factor: "PASSKEY", purpose: "CURRENCY_CONVERSION", step: 1, login: false },
        { factor: "PASSKEY", purpose: "PAYOUT", step: 2, login: false },
      ],
      status: "PROCESSING",
    });
    const quote = await stack.platform<{ status: string }>("GET", `/quotes/${quoteId}`);
    expect(quote.status).toBe(200);
    expect(quote.body.status).not.toBe("PENDING_AUTHORIZATION");
    // One execute, signed in Hermes, with its idempotency key and the factor; the first
    // authorization waits for the SCA login, then one per challenge, each with an assertion the
    // native module made over the service's options.
    const requests = await stack.requests();
    const executes = requests.filter((r) => r.path.endsWith(`${quoteId}/execute`));
    expect(executes).toHaveLength(1);
    expect(executes[0]).toMatchObject({ status: 200, hasSignature: true, hasIdempotencyKey: true });
    const authorizations = requests.filter((r) => r.path.endsWith(`${quoteId}/authorize`));
    expect(authorizations.map((r) => r.status)).toEqual([409, 200, 200]);
    expect(requests.filter((r) => r.path.startsWith("/sca/login/")).map((r) => r.status)).toEqual([
      200, 200,
    ]);
    expect(run.io.filter((c) => c.kind === "passkey.create")).toHaveLength(1);
    expect(run.io.filter((c) => c.kind === "passkey.get")).toHaveLength(4);
  });

  it("a refresh whose key the backend swapped: refused in Hermes with PAYLOAD_MISMATCH, the session kept", async () => {
    const { generateKeyPairSync } = await import("node:crypto");
    const jwk = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey.export({
      format: "jwk",
    });
    const y = Buffer.from(jwk.y ?? "", "base64url");
    attackerKey = `0${2 + ((y.at(-1) ?? 0) & 1)}${Buffer.from(jwk.x ?? "", "base64url").toString("hex")}`;
    try {
      const run = await flow("refreshSwapped", {
        secureStore: runs.quote?.secureStore ?? runs.passkey?.secureStore ?? [],
      });
      expect(run.result).toEqual({
        refused: true,
        code: "PAYLOAD_MISMATCH",
        field: "parameters.targetPublicKey",
        retryable: false,
        kept: true,
      });
      // The challenge was fetched; no signed leg followed it.
      const refreshes = (await stack.requests()).filter((r) => r.path.endsWith("/refresh"));
      expect(refreshes.at(-1)).toMatchObject({ status: 202, hasSignature: false });
    } finally {
      attackerKey = undefined;
    }
  });

  it("a session refresh: a new key made in Hermes, stamped by the old session, then used", async () => {
    const run = await flow("refresh", {
      secureStore: runs.quote?.secureStore ?? runs.passkey?.secureStore ?? [],
    });
    const before = run.result.before as { id: string };
    const refreshed = run.result.refreshed as { id: string };
    expect(before.id).toMatch(/^Session:/);
    expect(refreshed.id).not.toBe(before.id);
    expect(run.result.listed).toContain(refreshed.id);
  });

  it("every run: Hermes, quiet, and no Buffer, atob, btoa, TextEncoder or TextDecoder touched", () => {
    expect(Object.keys(runs).sort()).toEqual([
      "noRandom",
      "otp",
      "passkey",
      "quote",
      "refresh",
      "refreshSwapped",
    ]);
    for (const [scenario, run] of Object.entries(runs)) {
      expect(run?.engine.hermes, scenario).toBe(true);
      expect(run?.console, scenario).toEqual([]);
      for (const [name, count] of Object.entries(run?.globalsTouched ?? {}))
        expect(count, `${scenario}: ${name}`).toBe(0);
    }
  });
});
