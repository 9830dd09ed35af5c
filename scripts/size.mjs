#!/usr/bin/env node
// Size budgets: each entry is bundled for the browser with esbuild, minified and gzipped.
// Lazily imported chunks are reported but do not count against the entry's budget.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Budgets in bytes of min+gzip (1 KB = 1,000 bytes). */
const budgets = [
  { name: "@signet/core (browser entry)", entry: "packages/core/dist/index.js", limit: 20_000 },
];

let failed = false;
for (const { name, entry, limit } of budgets) {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    splitting: true,
    outdir: "out",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const entryOut = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint);
  const files = new Map(result.outputFiles.map((f) => [f.path.split("/out/")[1], f.contents]));
  const entryName = entryOut[0].split("out/")[1];
  const size = gzipSync(files.get(entryName), { level: 9 }).length;
  const lazy = [...files].filter(([n]) => n !== entryName && n.endsWith(".js"));
  const ok = size <= limit;
  failed ||= !ok;
  console.log(
    `${ok ? "ok  " : "FAIL"} ${name}: ${(size / 1000).toFixed(1)} KB min+gzip (budget ${(limit / 1000).toFixed(1)} KB)`,
  );
  for (const [n, c] of lazy)
    console.log(`     lazy chunk ${n}: ${(gzipSync(c, { level: 9 }).length / 1000).toFixed(1)} KB`);
}
process.exit(failed ? 1 : 0);
