// Hermes: fixed-base P-256 multiplication (k·G, what key generation and every signature of the
// `react-native` build run) on each candidate path, in one run: Signet's comb while it exists
// (./hermes-curve-variant.ts) and noble's own precomputation of G at several window widths. Each
// variant runs in fresh VMs, alternating, so the cold figure includes building the table.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleForHermes, hermesBinary, randomHex } from "../../packages/core/test/hermes/build.js";
import type { Mode } from "./node.js";
import type { Section } from "./report.js";
import { median } from "./stats.js";

const PRELUDE = new URL("../../packages/core/test/hermes/prelude.js", import.meta.url);

type Result = {
  firstKeyMs: number;
  firstSignMs: number;
  keyMs: number;
  signMs: number;
  check: number;
};

/** Runs each variant in fresh Hermes VMs, alternating; `signet` names the one the React Native backend runs, `w6` is noble's default. */
export async function hermesCurveBench(
  mode: Mode,
  options: { variants: string[]; signet: string },
): Promise<Section> {
  const bundle = await bundleForHermes({
    driver: new URL("./hermes-curve-driver.ts", import.meta.url).pathname,
  });
  const dir = mkdtempSync(join(tmpdir(), "signet-bench-curve-"));
  // The same secrets and message for every variant and round: only the path differs.
  const secrets = Array.from({ length: 8 }, () => randomBytes(32).toString("hex"));
  const message = randomBytes(200).toString("hex");
  const run = (variant: string): Result => {
    const input = { variant, warm: mode.quick ? 5 : 40, secrets, message };
    const shimInput = { mode: "default", randomHex: randomHex(65_536), injectedRandomHex: "" };
    const file = join(dir, `${variant}.js`);
    writeFileSync(
      file,
      [
        `var __SIGNET_HERMES_INPUT__ = ${JSON.stringify(shimInput)};`,
        `var __SIGNET_CURVE_INPUT__ = ${JSON.stringify(input)};`,
        readFileSync(PRELUDE, "utf8"),
        bundle.code,
      ].join("\n"),
    );
    const out = spawnSync(hermesBinary(), [file], { encoding: "utf8", timeout: 300_000 });
    const line = out.stdout.split("\n").find((l) => l.startsWith("SIGNET_CURVE "));
    if (!line) throw new Error(`hermes ${variant}: ${out.stdout}${out.stderr}`);
    return JSON.parse(line.slice("SIGNET_CURVE ".length)) as Result;
  };
  const rounds = mode.quick ? 2 : 7;
  const results = new Map<string, Result[]>(options.variants.map((v) => [v, []]));
  try {
    for (let i = 0; i < rounds; i++)
      for (const variant of options.variants) results.get(variant)?.push(run(variant));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const checks = new Set([...results.values()].flat().map((r) => r.check));
  if (checks.size !== 1) throw new Error("the curve variants disagree on a public key");
  const m = (variant: string, key: keyof Result) =>
    median((results.get(variant) ?? []).map((r) => r[key]));
  const cold = (v: string) => m(v, "firstKeyMs") + m(v, "firstSignMs");
  const name = (v: string) =>
    v === "comb"
      ? "Signet's comb (3 × 8 teeth, 768 points)"
      : `noble precompute(${v.slice(1)})${v === "w6" ? " (noble's default)" : ""}${v === options.signet ? " ← Signet" : ""}`;
  return {
    title: "Hermes: P-256 fixed-base multiplication",
    method: `k·G as the \`react-native\` build runs it (key generation, every signature): ${options.variants.includes("comb") ? "Signet's own comb and " : ""}noble's own precomputation of G (\`Point.BASE.precompute(W)\`, signed fixed windows of W bits over the blinded 384-bit scalar), each bundled like a React Native app and run in Hermes 0.12, ${rounds} fresh VMs per variant, alternating; medians. Cold is the first public key of a VM (which builds the table) plus its first signature; warm figures average ${mode.quick ? 5 : 40} calls. The figures decide which path \`createNobleBackend\` uses (docs/architecture.md "Curve arithmetic").`,
    table: {
      columns: [
        "path",
        "cold: first key + first signature ms",
        "key ms (warm)",
        "signature ms (warm)",
        "cold ÷ noble default",
        "signature ÷ noble default",
      ],
      rows: options.variants.map((v) => [
        name(v),
        cold(v).toFixed(0),
        m(v, "keyMs").toFixed(1),
        m(v, "signMs").toFixed(1),
        `${(cold(v) / cold("w6")).toFixed(2)}×`,
        `${(m(v, "signMs") / m("w6", "signMs")).toFixed(2)}×`,
      ]),
    },
    targets: [
      {
        label: "Hermes: Signet's cold first key + signature ÷ noble's default window",
        value: cold(options.signet) / cold("w6"),
        unit: "×",
        kind: "max",
        bound: 1,
      },
      {
        label: "Hermes: Signet's warm signature ÷ noble's default window",
        value: m(options.signet, "signMs") / m("w6", "signMs"),
        unit: "×",
        kind: "max",
        bound: 1.25,
      },
    ],
    charts: [],
  };
}
