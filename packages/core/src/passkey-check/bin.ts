#!/usr/bin/env node
// The `signet` bin: `npx @signet/core check-passkeys --rp-id … --ios … --android … --origin …`.
import { main } from "./cli.js";

type NodeProcess = { argv: string[]; exitCode?: number | undefined };
const nodeProcess = (globalThis as unknown as { process: NodeProcess }).process;

main(nodeProcess.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then(
  (status) => {
    nodeProcess.exitCode = status;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    nodeProcess.exitCode = 2;
  },
);
