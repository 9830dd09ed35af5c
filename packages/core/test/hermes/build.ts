// Test-only: builds a Hermes script the way a React Native app ships `@signet/core`, and runs it.
// esbuild resolves the `react-native` condition and bundles (Metro's job), then Babel applies
// `@react-native/babel-preset` as Metro would, then the `hermes` CLI of hermes-engine-cli runs it.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { HermesInput } from "./input.js";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

export const DRIVER = join(here, "driver.ts");
export const PRELUDE_PATH = join(here, "prelude.js");

type Babel = {
  transformAsync(
    code: string,
    options: Record<string, unknown>,
  ): Promise<{ code?: string | null } | null>;
};

/** The `hermes` binary of the hermes-engine-cli dev dependency of @signet/core. */
export function hermesBinary(): string {
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      `hermes-engine-cli ships linux64-bin only; this is ${process.platform}-${process.arch}`,
    );
  }
  return join(dirname(require.resolve("hermes-engine-cli/package.json")), "linux64-bin", "hermes");
}

/** `n` bytes from Node's CSPRNG, as hex, for the script's random sources. */
export const randomHex = (n: number): string => randomBytes(n).toString("hex");

export type HermesBundle = { code: string; esbuildMs: number; babelMs: number };

/**
 * Bundles `driver` (which imports core's React Native entry) for Hermes: esbuild, then the React Native preset.
 * @throws when esbuild or Babel fails, or the output still holds syntax the preset should have lowered.
 */
export async function bundleForHermes(parameters: { driver?: string } = {}): Promise<HermesBundle> {
  const t0 = performance.now();
  const bundled = await build({
    entryPoints: [parameters.driver ?? DRIVER],
    bundle: true,
    write: false,
    platform: "neutral",
    format: "iife",
    // es2019 like Metro's targets; BigInt literals stay (Hermes has BigInt, noble needs it).
    target: "es2019",
    supported: { bigint: true },
    conditions: ["react-native"],
    mainFields: ["react-native", "browser", "module", "main"],
    legalComments: "none",
    logLevel: "silent",
  });
  const bundle = bundled.outputFiles[0]?.text;
  if (bundle === undefined) throw new Error("esbuild produced no output");
  const t1 = performance.now();

  const babel = require("@babel/core") as Babel;
  const transformed = await babel.transformAsync(bundle, {
    filename: "signet-hermes.bundle.js",
    babelrc: false,
    configFile: false,
    sourceType: "script",
    envName: "production",
    // What Metro passes for a release build; `default` lowers classes and block scoping, which
    // the Hermes 0.12 of hermes-engine-cli needs (the hermes-* profiles assume a newer Hermes).
    caller: {
      name: "metro",
      bundler: "metro",
      platform: "ios",
      unstable_transformProfile: "default",
    },
    presets: [
      [
        require.resolve("@react-native/babel-preset"),
        // No @babel/runtime imports (the bundle is already one script); the IIFE has no ES modules.
        { enableBabelRuntime: false, disableImportExportTransform: true, dev: false },
      ],
    ],
    compact: false,
    comments: false,
  });
  const code = transformed?.code;
  if (typeof code !== "string") throw new Error("Babel produced no output");
  if (/\bclass\s+[A-Za-z_$][\w$]*\s*(extends\b[^{]*)?\{/.test(code)) {
    throw new Error(
      "the Babel output still holds class syntax: the React Native preset did not run",
    );
  }
  return { code, esbuildMs: t1 - t0, babelMs: performance.now() - t1 };
}

/** The script Hermes runs: the input, the prelude (shims), the bundle. */
export function hermesScript(bundle: HermesBundle, input: HermesInput): string {
  return [
    `var __SIGNET_HERMES_INPUT__ = ${JSON.stringify(input)};`,
    readFileSync(PRELUDE_PATH, "utf8"),
    bundle.code,
  ].join("\n");
}

export type HermesRun = {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
};

/**
 * Writes `script` to a temporary file and runs it in the `hermes` CLI (with `flags`, such as
 * `-Xmicrotask-queue` for React Native's promise scheduling); kills it after `timeoutMs`.
 */
export async function runHermes(
  script: string,
  options: { timeoutMs?: number; flags?: string[] } = {},
): Promise<HermesRun> {
  const dir = mkdtempSync(join(tmpdir(), "signet-hermes-"));
  const file = join(dir, "signet-hermes.js");
  writeFileSync(file, script);
  const t0 = performance.now();
  try {
    return await new Promise<HermesRun>((resolve, reject) => {
      const child = spawn(hermesBinary(), [...(options.flags ?? []), file], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 45_000);
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on("close", (status, signal) => {
        clearTimeout(timer);
        resolve({ status, signal, stdout, stderr, ms: performance.now() - t0 });
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The one `SIGNET_HERMES_RESULT` JSON line of a run.
 * @throws with the whole output when the run failed, printed an error, or printed no result.
 */
export function parseHermesResult<T>(run: HermesRun): T {
  const output = `status ${run.status} signal ${run.signal}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
  const errorLine = run.stdout.split("\n").find((line) => line.startsWith("SIGNET_HERMES_ERROR "));
  if (errorLine !== undefined) {
    const error = JSON.parse(errorLine.slice("SIGNET_HERMES_ERROR ".length)) as Record<
      string,
      string
    >;
    throw new Error(
      `Hermes reported ${error.name}${error.code ? ` [${error.code}]` : ""}: ${error.message}\n${error.stack}\n${output}`,
    );
  }
  if (run.status !== 0 || run.signal !== null)
    throw new Error(`Hermes exited abnormally\n${output}`);
  if (/error/i.test(run.stderr)) throw new Error(`Hermes wrote an error\n${output}`);
  const lines = run.stdout.split("\n").filter((line) => line.startsWith("SIGNET_HERMES_RESULT "));
  if (lines.length !== 1) {
    throw new Error(
      `expected exactly one SIGNET_HERMES_RESULT line, got ${lines.length}\n${output}`,
    );
  }
  return JSON.parse(lines[0]!.slice("SIGNET_HERMES_RESULT ".length)) as T;
}
