// Test-only, Node side of the Hermes flow suite: runs the Metro bundle of ./app/app.ts in the
// `hermes` CLI over and over, each time with the answers to every I/O call it asked for so far
// (./flow-prelude.js), and performs the next call itself: an HTTP request to the relay, or a
// passkey ceremony on its software authenticator. Nothing here computes a client-side value.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FlowInput, FlowScenario, IoAnswer, PersistedItems } from "./app/input.js";
import { randomHex, runHermes } from "./build.js";

const here = dirname(fileURLToPath(import.meta.url));
const FLOW_PRELUDE = readFileSync(join(here, "flow-prelude.js"), "utf8");

/** Answers the passkey calls of the stand-in `react-native-passkeys` module. */
export type PasskeyAuthenticator = {
  createCredential(request: never): Promise<unknown>;
  getAssertion(request: never): Promise<unknown>;
};

export type FlowRun<TScenario extends string = FlowScenario> = {
  scenario: TScenario;
  result: Record<string, unknown>;
  globalsTouched: Record<string, number>;
  console: { level: string; message: string }[];
  keychain: PersistedItems;
  secureStore: PersistedItems;
  engine: { hermes: boolean };
  /** The I/O calls of the flow, in order, as the driver performed them. */
  io: { kind: IoAnswer["kind"]; request: { url?: string; method?: string } }[];
  /** Hermes runs it took (one more than the I/O calls). */
  runs: number;
};

type Pending = { index: number; kind: IoAnswer["kind"]; request: Record<string, unknown> };

/**
 * Runs one scenario of the app to its end.
 * @throws with the Hermes output when a run fails, diverges from its replay, or the flow makes
 * more than `maxIo` I/O calls.
 */
export async function runFlow<
  TScenario extends string = FlowScenario,
  TParams = FlowInput["params"],
>(
  code: string,
  parameters: {
    scenario: TScenario;
    params: TParams;
    keychain?: PersistedItems;
    secureStore?: PersistedItems;
    withRandom?: boolean;
    authenticator?: PasskeyAuthenticator;
    maxIo?: number;
    /** Performs the HTTP requests (default: Node's `fetch`; the mobile app's run keeps cookies). */
    fetch?: typeof fetch;
    /** More `hermes` CLI flags, after `-Xmicrotask-queue`. */
    hermesFlags?: string[];
  },
): Promise<FlowRun<TScenario>> {
  const input: Omit<FlowInput, "scenario" | "params"> & { scenario: TScenario; params: TParams } = {
    scenario: parameters.scenario,
    startedAt: Date.now(),
    seed: Math.floor(Math.random() * 2 ** 32),
    randomHex: parameters.withRandom === false ? "" : randomHex(16_384),
    expoRandomHex: randomHex(8_192),
    io: [],
    keychain: parameters.keychain ?? [],
    secureStore: parameters.secureStore ?? [],
    params: parameters.params,
  };
  const performed: FlowRun["io"] = [];
  const maxIo = parameters.maxIo ?? 40;
  for (let runs = 1; ; runs++) {
    const script = [
      `var __SIGNET_HERMES_INPUT__ = ${JSON.stringify(input)};`,
      FLOW_PRELUDE,
      code,
    ].join("\n");
    const run = await runHermes(script, {
      timeoutMs: 60_000,
      flags: ["-Xmicrotask-queue", ...(parameters.hermesFlags ?? [])],
    });
    const output = `scenario ${input.scenario}, run ${runs}, status ${run.status}\n--- stdout\n${run.stdout.slice(0, 4000)}\n--- stderr\n${run.stderr.slice(0, 4000)}`;
    const line = (prefix: string) =>
      run.stdout
        .split("\n")
        .find((l) => l.startsWith(`${prefix} `))
        ?.slice(prefix.length + 1);
    const error = line("SIGNET_HERMES_ERROR");
    if (error !== undefined) throw new Error(`the app failed in Hermes: ${error}\n${output}`);
    if (run.status !== 0 || run.signal !== null || run.stderr.trim() !== "")
      throw new Error(`Hermes exited abnormally\n${output}`);
    const result = line("SIGNET_HERMES_RESULT");
    if (result !== undefined)
      return { ...(JSON.parse(result) as FlowRun<TScenario>), io: performed, runs };
    const ioLine = line("SIGNET_HERMES_IO");
    if (ioLine === undefined)
      throw new Error(`the app printed neither a result nor an I/O call\n${output}`);
    const pending = JSON.parse(ioLine) as Pending;
    if (pending.index !== input.io.length) throw new Error(`replay diverged\n${output}`);
    if (input.io.length >= maxIo) throw new Error(`more than ${maxIo} I/O calls\n${output}`);
    const response = await perform(pending, parameters.authenticator, parameters.fetch ?? fetch);
    performed.push({ kind: pending.kind, request: pending.request });
    input.io.push({ kind: pending.kind, at: Date.now(), response });
  }
}

async function perform(
  pending: Pending,
  authenticator: PasskeyAuthenticator | undefined,
  fetch: typeof globalThis.fetch,
): Promise<unknown> {
  if (pending.kind === "fetch") {
    const { url, method, headers, body } = pending.request as {
      url: string;
      method: string;
      headers: Record<string, string>;
      body: string | null;
    };
    const response = await fetch(url, { method, headers, ...(body === null ? {} : { body }) });
    const kept: Record<string, string> = {};
    for (const name of ["content-type", "date", "retry-after"]) {
      const value = response.headers.get(name);
      if (value !== null) kept[name] = value;
    }
    return { status: response.status, headers: kept, body: await response.text() };
  }
  if (authenticator === undefined) throw new Error(`no authenticator for ${pending.kind}`);
  // What the platform authenticator returns through the native module (or its failure's shape).
  return pending.kind === "passkey.create"
    ? authenticator.createCredential(pending.request as never)
    : authenticator.getAssertion(pending.request as never);
}
