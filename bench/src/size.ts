// Bundle size, min+gzip, one bundler and one setting for every contender: esbuild, browser
// conditions, ESM, minified, code splitting on; gzip level 9. "Up front" is the entry and every
// chunk it imports statically; "whole" adds the chunks reached only through dynamic import().
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import type { Chart } from "./node.js";
import { fmt, type Section } from "./report.js";
import { barChart } from "./svg.js";

export type Measured = { upFront: number; whole: number };

/** The name esbuild gives the measured module (its metafile `entryPoint`). */
const SOURCE_FILE = "entry.ts";

/** Bundles `code` (an ES module importing packages) and measures it. React stays external. */
export async function measureBundle(code: string, resolveDir: string): Promise<Measured> {
  const result = await build({
    stdin: { contents: code, resolveDir, loader: "ts", sourcefile: SOURCE_FILE },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    splitting: true,
    outdir: "/virtual-out",
    write: false,
    metafile: true,
    logLevel: "silent",
    external: ["react", "react-dom", "react/jsx-runtime", "react-native"],
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const outputs = result.metafile.outputs;
  // Metafile paths are relative to the working directory, output paths absolute: match by name.
  const key = (p: string) => p.slice(p.lastIndexOf("/") + 1);
  const contents = new Map(result.outputFiles.map((f) => [key(f.path), f.contents]));
  // The stdin module's own output. A chunk that only dynamic import() reaches is an entry point
  // in the metafile too, so "the first output with an entry point" can be a lazy chunk.
  const entry = Object.keys(outputs).find((p) => outputs[p]!.entryPoint === SOURCE_FILE);
  if (entry === undefined) throw new Error("esbuild wrote no output for the measured entry");
  const eager = new Set<string>();
  const visit = (path: string) => {
    if (eager.has(path)) return;
    eager.add(path);
    for (const imp of outputs[path]!.imports)
      if (imp.kind === "import-statement" && !imp.external) visit(imp.path);
  };
  visit(entry);
  const gz = (paths: string[]) =>
    gzipSync(
      Buffer.concat(paths.map((p) => Buffer.from(contents.get(key(p)) ?? new Uint8Array()))),
      {
        level: 9,
      },
    ).length;
  const js = Object.keys(outputs).filter((p) => p.endsWith(".js"));
  return { upFront: gz([...eager]), whole: gz(js) };
}

const CONTENDERS: {
  name: string;
  label: string;
  ours: boolean;
  code: string;
  optional?: string;
}[] = [
  {
    label: "@signet/core (whole)",
    name: "@signet/core, everything an app can import (stamp, OTP seal, passkeys, flows)",
    ours: true,
    code: 'export * from "@signet/core";',
  },
  {
    label: "@signet/core (typical app)",
    name: "@signet/core, a typical app (client, OTP sign-in, passkey, execute)",
    ours: true,
    code: 'export { createClient, requestOtp, verifyOtp, signInWithPasskey, addPasskey, executeQuote, waitForTransaction } from "@signet/core";',
  },
  {
    label: "@signet/react",
    name: "@signet/react (over @signet/core; react external)",
    ours: true,
    optional: "@signet/react",
    code: 'export * from "@signet/react";',
  },
  {
    label: "Turnkey stamper + crypto",
    name: "Turnkey, smallest set that stamps and seals an OTP bundle (@turnkey/api-key-stamper + @turnkey/crypto)",
    ours: false,
    code: 'export { ApiKeyStamper } from "@turnkey/api-key-stamper"; export { encryptOtpCodeToBundle } from "@turnkey/crypto";',
  },
  {
    label: "@turnkey/sdk-browser",
    name: "@turnkey/sdk-browser (Turnkey)",
    ours: false,
    code: 'export { Turnkey } from "@turnkey/sdk-browser";',
  },
  {
    label: "@turnkey/react-wallet-kit",
    name: "@turnkey/react-wallet-kit (TurnkeyProvider, useTurnkey; react external)",
    ours: false,
    code: 'export { TurnkeyProvider, useTurnkey } from "@turnkey/react-wallet-kit";',
  },
];

export async function bundleSizes(benchDir: string, charts: Chart[]): Promise<Section> {
  const rows: (string | number)[][] = [];
  const bars = [];
  const skipped: string[] = [];
  const sizes = new Map<string, Measured>();
  for (const c of CONTENDERS) {
    let m: Measured;
    try {
      m = await measureBundle(c.code, benchDir);
    } catch (error) {
      if (c.optional) {
        skipped.push(`${c.optional} is not in this workspace build, so it was not measured.`);
        continue;
      }
      throw error;
    }
    sizes.set(c.name, m);
    rows.push([c.name, kib(m.upFront), kib(m.whole)]);
    bars.push({
      label:
        c.name.split(" (")[0]!.split(",")[0]! +
        (c.name.includes("typical") ? " (typical app)" : ""),
      value: m.whole / 1024,
      ours: c.ours,
    });
  }
  charts.push({
    file: "bundle-size.svg",
    alt: "Bundle size, min+gzip",
    svg: barChart("Bundle size, min+gzip KiB (everything loadable)", "KiB", bars),
  });
  const all = sizes.get(CONTENDERS[0]!.name)!;
  const smallestTurnkey = sizes.get(CONTENDERS[3]!.name)!;
  return {
    title: "Bundle size",
    method:
      "esbuild (browser conditions, ESM, minify, code splitting), gzip level 9, the same for every contender; `react` and `react-dom` are external for the React packages. Up front: the entry and every chunk it imports statically; whole: every chunk, lazy ones included.",
    table: { columns: ["bundle", "up front, KiB", "whole, KiB"], rows },
    targets: [
      {
        label: "@signet/core loaded up front",
        value: all.upFront / 1024,
        unit: " KiB",
        kind: "max",
        bound: 20,
      },
      {
        label: "@signet/core whole, lazy chunks included",
        value: all.whole / 1024,
        unit: " KiB",
        kind: "max",
        bound: 32,
      },
      {
        label: "@signet/core whole ÷ smallest Turnkey stamp + OTP seal bundle",
        value: all.whole / smallestTurnkey.whole,
        unit: "×",
        kind: "max",
        bound: 1,
      },
    ],
    charts: [{ file: "bundle-size.svg", alt: "Bundle size, min+gzip" }],
    notes: skipped,
  };
}

const kib = (bytes: number) => `${fmt(bytes / 1024, 1)}`;
