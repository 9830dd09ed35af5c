// The first stamp after a page load, with a key an earlier visit stored, in Chromium, Firefox ESR
// and WebKitGTK: Signet's path (first-stamp-page.ts `?signet`) against the floor of the same work
// with the bare APIs (`?floor`: IndexedDB opened and read, one WebCrypto sign), page loads
// alternating between the two in one browser profile. The page is bundled with code splitting, as
// an app's bundler ships it, so chunks Signet loads on first use are on the measured path.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium } from "@playwright/test";
import { verifyStamp } from "@signet/core";
import { build } from "esbuild";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../e2e/chromium.js";
import { type EngineName, launchEngine, waitUntil } from "../../e2e/engines/engines.js";
import type { FirstStampResult } from "./first-stamp-page.js";
import type { Mode } from "./node.js";
import { PAYLOAD } from "./node.js";
import type { Section } from "./report.js";
import { median, percentile } from "./stats.js";

/** Navigates to a URL and returns what the page left on `globalThis.firstStampResult`. */
type Loader = (url: string) => Promise<FirstStampResult>;
type Browser = { name: string; version: string; load: Loader; close: () => Promise<void> };

async function serveBundle(): Promise<{ server: Server; origin: string }> {
  const bundle = await build({
    entryPoints: { page: new URL("./first-stamp-page.ts", import.meta.url).pathname },
    bundle: true,
    format: "esm",
    platform: "browser",
    splitting: true,
    outdir: "/first-stamp",
    minify: true,
    write: false,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const files = new Map(
    bundle.outputFiles.map((f) => [f.path.slice(f.path.lastIndexOf("/")), f.text]),
  );
  const html =
    '<!doctype html><meta charset="utf-8"><title>first stamp</title><script type="module" src="/page.js"></script>';
  const server = createServer((req, res) => {
    const file = files.get((req.url ?? "/").split("?")[0]!);
    // Hashed chunks, cached as an app's host serves them: the earlier visit fetched them.
    if (file !== undefined)
      res
        .writeHead(200, {
          "content-type": "text/javascript",
          "cache-control": "public, max-age=31536000, immutable",
        })
        .end(file);
    else res.writeHead(200, { "content-type": "text/html" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

const RESULT = () =>
  (globalThis as { firstStampResult?: FirstStampResult }).firstStampResult ?? false;

async function openChromium(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const page = await browser.newPage();
  return {
    name: "Chromium",
    version: browser.version(),
    async load(url) {
      await page.goto(url);
      return (await (await page.waitForFunction(RESULT)).jsonValue()) as FirstStampResult;
    },
    close: () => browser.close(),
  };
}

async function openEngine(name: EngineName): Promise<Browser> {
  const engine = await launchEngine(name);
  const page = await engine.open();
  return {
    name: name === "firefox" ? "Firefox ESR" : "WebKitGTK",
    version: engine.version,
    async load(url) {
      await page.goto(url);
      return (await waitUntil(
        () => page.evaluate(RESULT, null),
        "the first stamp",
      )) as FirstStampResult;
    },
    async close() {
      await page.close();
      await engine.close();
    },
  };
}

type Measured = {
  browser: string;
  floor: number[];
  signet: number[];
  signetSinceNavigation: number[];
};

async function measure(browser: Browser, origin: string, rounds: number): Promise<Measured> {
  const query = `payload=${encodeURIComponent(PAYLOAD)}`;
  const load = async (what: string) => {
    const result = await browser.load(`${origin}/?${what}&${query}`);
    if (!result.ok) throw new Error(`${browser.name} ?${what}: ${result.error}`);
    return result;
  };
  const { publicKey } = await load("prepare");
  const out: Measured = {
    browser: `${browser.name} ${browser.version}`,
    floor: [],
    signet: [],
    signetSinceNavigation: [],
  };
  // One load of each first (caches warm), then alternating rounds.
  await load("floor");
  await load("signet");
  for (let i = 0; i < rounds; i++) {
    out.floor.push((await load("floor")).sinceScript);
    const ours = await load("signet");
    if (ours.publicKey !== publicKey || ours.stamp === undefined)
      throw new Error(`${browser.name}: the stored key did not come back`);
    // The stamp is real: it verifies against the stored key's public key.
    await verifyStamp({ payload: PAYLOAD, stamp: ours.stamp, publicKey });
    out.signet.push(ours.sinceScript);
    out.signetSinceNavigation.push(ours.sinceNavigation);
  }
  return out;
}

export async function firstStampBench(mode: Mode): Promise<Section> {
  const { server, origin } = await serveBundle();
  const rounds = mode.quick ? 3 : 21;
  const results: Measured[] = [];
  try {
    for (const open of [openChromium, () => openEngine("firefox"), () => openEngine("webkit")]) {
      const browser = await open();
      try {
        results.push(await measure(browser, origin, rounds));
      } finally {
        await browser.close();
      }
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  const ms = (values: number[]) =>
    `${median(values).toFixed(1)} / ${percentile(values, 90).toFixed(1)}`;
  const chromiumResult = results[0]!;
  return {
    title: "First stamp after a page load",
    method: `A session key stored in IndexedDB by an earlier visit; each page load does one thing and is timed from its script's start: Signet's path (\`createDefaultKeyStore()\`, \`get\`, \`restoreSigningKey\`, \`stampPayload\`), or the floor of the same work with the bare APIs (\`indexedDB.open\` and one \`get\`, one \`crypto.subtle.sign\` of the payload's bytes). The page is bundled with code splitting, as an app's bundler ships it, and served on localhost. ${rounds} rounds per browser, the two loads alternating in one profile after one load of each; every Signet stamp is verified against the stored public key. Milliseconds, median / p90.`,
    table: {
      columns: [
        "browser",
        "floor (IndexedDB read + sign)",
        "Signet, from script start",
        "Signet, from navigation start",
        "Signet ÷ floor (medians)",
      ],
      rows: results.map((r) => [
        r.browser,
        ms(r.floor),
        ms(r.signet),
        ms(r.signetSinceNavigation),
        `${(median(r.signet) / median(r.floor)).toFixed(2)}×`,
      ]),
    },
    targets: [
      {
        label: "First stamp from script start, Chromium (median)",
        value: median(chromiumResult.signet),
        unit: " ms",
        kind: "max",
        bound: 25,
      },
      ...results.map((r) => ({
        label: `First stamp ÷ IndexedDB read + one sign (${r.browser.split(" ").slice(0, -1).join(" ")}, medians)`,
        value: median(r.signet) / median(r.floor),
        unit: "×",
        kind: "max" as const,
        bound: 1.5,
      })),
    ],
    charts: [],
  };
}
