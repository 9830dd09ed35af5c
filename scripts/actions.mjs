#!/usr/bin/env node
// The docs tables made from core's table of actions (scripts/actionDocs.ts): `node
// scripts/actions.mjs` says which are stale (exit 1), `--write` rewrites them. Tests hold the same
// check (packages/core/test/actionDocs.test.ts), so CI fails on a stale table.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { actionDocBlocks, withBlock } = await tsImport("./actionDocs.ts", import.meta.url);

const write = process.argv.includes("--write");
const stale = [];
for (const block of actionDocBlocks()) {
  const path = join(root, block.file);
  const before = readFileSync(path, "utf8");
  const after = withBlock(before, block);
  if (after === before) continue;
  stale.push(`${block.file} (${block.name})`);
  if (write) writeFileSync(path, after);
}
if (stale.length === 0) console.log("action tables: up to date");
else if (write) console.log(`action tables written: ${stale.join(", ")}`);
else {
  console.error(`action tables stale: ${stale.join(", ")}; run node scripts/actions.mjs --write`);
  process.exitCode = 1;
}
