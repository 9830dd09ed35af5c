#!/usr/bin/env node
// The catalog of actions (scripts/catalog.ts): every action file exports its row beside its
// function, and this writes what is copied from the rows (the table of actions, the relay's route
// list, react's invalidations, the docs tables). `node scripts/actions.mjs` checks: it exits 1
// naming every stale copy and every hand-written place an action still lacks (its export, its
// payload check's test, the emulator's handler and payload, the relay's rule, the
// compromised-backend row). `--write` rewrites the copies. The test command runs the check
// (scripts/test.mjs), so CI fails while any is stale or missing.
import { writeFileSync } from "node:fs";
import { register } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Before tsx's hooks, so they fall back to it: core's `#codec` read from its source.
register("./codecHook.mjs", import.meta.url);
const { catalogCopies, loadRows, missingPlaces } = await tsImport("./catalog.ts", import.meta.url);

const write = process.argv.includes("--write");
const rows = await loadRows(root);
const stale = [];
for (const copy of await catalogCopies(root, rows)) {
  if (copy.after === copy.before) continue;
  stale.push(`${copy.file} (${copy.what})`);
  if (write) writeFileSync(join(root, copy.file), copy.after);
}
// Places are judged on what is written: after --write, the relay's rules read the new list.
const missing = await missingPlaces(root, rows);
if (stale.length === 0) console.log("catalog copies: up to date");
else if (write) console.log(`catalog copies written: ${stale.join(", ")}`);
else {
  console.error(
    `catalog copies stale (run node scripts/actions.mjs --write):\n  ${stale.join("\n  ")}`,
  );
  process.exitCode = 1;
}
if (missing.length > 0) {
  console.error("actions missing hand-written places:");
  for (const { action, place } of missing) console.error(`  ${action}: ${place}`);
  process.exitCode = 1;
}
