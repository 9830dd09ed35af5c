// Chromium: the page-side contenders (browser-page.ts) bundled with esbuild, served on localhost,
// driven by Playwright in Debian's Chromium.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium } from "@playwright/test";
import { build } from "esbuild";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../e2e/chromium.js";
import type { BrowserBenchApi } from "./browser-page.js";
import type { Chart, Mode } from "./node.js";
import { PAYLOAD } from "./node.js";
import { type Section, spread, times } from "./report.js";
import { median, percentile, ratio, type Throughput } from "./stats.js";
import { barChart } from "./svg.js";
import type { Inputs } from "./vectors.js";

type Api = BrowserBenchApi;
declare const signetBench: Api;

export async function browserBenches(
  inputs: Inputs,
  mode: Mode,
  charts: Chart[],
): Promise<Section[]> {
  const bundle = await build({
    entryPoints: [new URL("./browser-page.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    platform: "browser",
    minify: true,
    write: false,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const script = bundle.outputFiles[0]!.text;
  const html =
    '<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="/bench.js"></script>';
  const server = createServer((req, res) => {
    if (req.url === "/bench.js")
      res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    else res.writeHead(200, { "content-type": "text/html" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage();
    await page.goto(origin);
    await page.waitForFunction(() => "signetBench" in globalThis);
    const version = browser.version();

    // Stamps with a held key.
    const stamps = (await page.evaluate(([i, p, r, t]) => signetBench.stamps(i, p, r, t), [
      inputs,
      PAYLOAD,
      mode.runs,
      mode.timeMs,
    ] as const)) as Throughput[];
    const [reimport, held] = stamps as [Throughput, Throughput];
    const stampRatio = ratio(held, reimport);
    charts.push({
      file: "stamp-chromium.svg",
      alt: "Stamps per second in Chromium",
      svg: barChart(`Stamps per second in Chromium ${version}`, "stamps/s", [
        {
          label: "Turnkey (re-imports the key per stamp)",
          value: reimport.median,
          min: reimport.min,
          max: reimport.max,
        },
        {
          label: "Signet (held non-extractable key)",
          value: held.median,
          min: held.min,
          max: held.max,
          ours: true,
        },
      ]),
    });

    // HPKE.
    const hpke = (await page.evaluate(([i, r, t]) => signetBench.hpke(i, r, t), [
      inputs,
      mode.runs,
      mode.timeMs,
    ] as const)) as [Throughput, Throughput][];

    // Key generation (the first stamp after a page load has its own section: first-stamp.ts).
    const keygen = (await page.evaluate(
      (n) => signetBench.keyGeneration(n),
      mode.quick ? 10 : 50,
    )) as number[];

    return [
      {
        title: "Stamp throughput in Chromium",
        method: `In Chromium ${version} (headless, Debian's build), one page: Signet signs with a non-extractable CryptoKey generated once and held; the baseline is Turnkey's ApiKeyStamper on its WebCrypto path, which imports the private key for every stamp. ${mode.runs} interleaved runs of ${mode.timeMs} ms.`,
        table: {
          columns: ["contender", "stamps/s, median (min–max)"],
          rows: stamps.map((s) => [s.name, spread(s)]),
        },
        targets: [
          {
            label: "Signet held key ÷ per-stamp import (Chromium)",
            value: stampRatio.median,
            unit: "×",
            kind: "min",
            bound: 1,
          },
        ],
        charts: [{ file: "stamp-chromium.svg", alt: "Stamps per second in Chromium" }],
        notes: [`Ratio run by run: ${times(stampRatio)}.`],
      },
      {
        title: "HPKE bundles in Chromium",
        method: `The Node section's operations, in the page, on the same vectors, ${mode.runs} interleaved runs of ${mode.timeMs} ms.`,
        table: {
          columns: ["Signet", "ops/s", "Turnkey", "ops/s", "Signet ÷ Turnkey"],
          rows: hpke.map(([a, b]) => [
            `Signet \`${a.name}\``,
            spread(a),
            `Turnkey \`${b.name}\``,
            spread(b),
            times(ratio(a, b)),
          ]),
        },
        targets: hpke.map(([a, b]) => ({
          label: `Signet ${a.name} ÷ Turnkey ${b.name} (Chromium)`,
          value: ratio(a, b).median,
          unit: "×",
          kind: "min" as const,
          bound: 1,
        })),
        charts: [],
      },
      {
        title: "Key generation (Chromium)",
        method:
          "`generateSigningKey()` (non-extractable ECDSA P-256), one call at a time. The first stamp after a page load, with a key an earlier visit stored, is measured in its own section below, in three engines.",
        table: {
          columns: ["measure", "median ms", "p90 ms", "samples"],
          rows: [
            [
              "generateSigningKey()",
              median(keygen).toFixed(2),
              percentile(keygen, 90).toFixed(2),
              keygen.length,
            ],
          ],
        },
        targets: [],
        charts: [],
      },
    ];
  } finally {
    await browser.close();
    server.close();
    server.closeAllConnections();
  }
}
