#!/usr/bin/env node
// Size budgets: each entry is bundled for the browser with esbuild, minified and gzipped.
// What a page loads up front (the entry and every chunk it imports statically) counts against
// the budget; chunks reached only through a dynamic import() are reported beside it.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Budgets in bytes of min+gzip (1 KB = 1,000 bytes). */
const budgets = [
  { name: "@signet/core (browser entry)", entry: "packages/core/dist/index.js", limit: 20_000 },
];

const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

let failed = false;
for (const { name, entry, limit } of budgets) {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    splitting: true,
    outdir: join(root, ".size-out"),
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const contents = new Map(
    result.outputFiles.map((file) => [file.path.slice(root.length + 1), file.contents]),
  );
  const entryName = Object.keys(outputs).find((path) => outputs[path].entryPoint);
  // Everything loaded up front: the entry and its static imports, transitively.
  const eager = new Set();
  const visit = (path) => {
    if (eager.has(path)) return;
    eager.add(path);
    for (const imported of outputs[path].imports) {
      if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
    }
  };
  visit(entryName);
  const eagerBytes = new Uint8Array(Buffer.concat([...eager].map((path) => contents.get(path))));
  const size = gz(eagerBytes);
  const lazy = Object.keys(outputs).filter((path) => path.endsWith(".js") && !eager.has(path));
  const ok = size <= limit;
  failed ||= !ok;
  console.log(
    `${ok ? "ok  " : "FAIL"} ${name}: ${kb(size)} min+gzip loaded up front (${size} of ${limit} bytes)`,
  );
  for (const path of lazy)
    console.log(`     lazy chunk ${path.split("/").pop()}: ${kb(gz(contents.get(path)))}`);
}
process.exit(failed ? 1 : 0);
