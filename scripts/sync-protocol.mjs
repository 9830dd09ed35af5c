#!/usr/bin/env node
// Writes packages/relay/src/protocol.ts, a verbatim copy of core's protocol facts
// (packages/core/src/transport/protocol.ts) under a banner: both published packages build from
// the same text while the relay keeps no runtime dependency. `--check` exits 1 when the copy is
// stale (packages/relay/src/protocol.test.ts runs the same comparison in the test suite).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(root, "packages/core/src/transport/protocol.ts");
const copy = join(root, "packages/relay/src/protocol.ts");
const BANNER =
  "// GENERATED from packages/core/src/transport/protocol.ts by scripts/sync-protocol.mjs: edit that\n" +
  "// file and run `node scripts/sync-protocol.mjs`; a test fails while this copy differs.\n";

const expected = BANNER + readFileSync(source, "utf8");
let current = "";
try {
  current = readFileSync(copy, "utf8");
} catch {}
if (process.argv.includes("--check")) {
  if (current !== expected) {
    console.error("packages/relay/src/protocol.ts is stale: run node scripts/sync-protocol.mjs");
    process.exit(1);
  }
  console.log("packages/relay/src/protocol.ts matches core's protocol facts");
} else if (current !== expected) {
  writeFileSync(copy, expected);
  console.log("wrote packages/relay/src/protocol.ts");
} else console.log("packages/relay/src/protocol.ts is up to date");
