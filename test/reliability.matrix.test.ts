// The single-fault matrix, short seed: each step of each flow's own part, on either hop, with one
// fault kind turning with the seed, the time limits of client and relay scaled down together
// (MATRIX_SCALE). `pnpm reliability` runs every cell at the libraries' defaults and writes
// RELIABILITY.md.
import { expect, it } from "vitest";
import { runMatrix } from "./reliability/matrix.js";
import { saveCounts } from "./reliability/output.js";

const SEED = Number(process.env.MATRIX_SEED ?? process.env.SOAK_SEED ?? 20261122);
const SCALE = Number(process.env.MATRIX_SCALE ?? 0.1);
const FULL = process.env.MATRIX_FULL === "1";
const CONCURRENCY = Number(process.env.MATRIX_CONCURRENCY ?? 8);

it(`single-fault matrix, seed ${SEED}${FULL ? ", every cell" : ""}: every flow completes whatever one fault it meets, on any step of either hop`, async () => {
  const counts = await runMatrix({
    seed: SEED,
    scale: SCALE,
    concurrency: CONCURRENCY,
    full: FULL,
    onProgress: (done, total) => {
      if (done % 100 === 0) process.stderr.write(`matrix: ${done} of ${total} cells\n`);
    },
  });
  saveCounts("matrix", counts);
  expect(counts.failures).toEqual([]);
  expect(counts.completed).toBe(counts.cells);
  expect(counts.notReached).toBe(0);
  expect({
    orphanSessions: counts.orphanSessions,
    keysLeftAfterSignOut: counts.keysLeftAfterSignOut,
    hungPastDeadline: counts.hungPastDeadline,
    untypedFailures: counts.untypedFailures,
    doubleExecutions: counts.doubleExecutions,
    requestIdReusedAfterTerminal: counts.requestIdReusedAfterTerminal,
    retriesWithDifferentBody: counts.retriesWithDifferentBody,
  }).toEqual({
    orphanSessions: 0,
    keysLeftAfterSignOut: 0,
    hungPastDeadline: 0,
    untypedFailures: 0,
    doubleExecutions: 0,
    requestIdReusedAfterTerminal: 0,
    retriesWithDifferentBody: 0,
  });
  // Every flow's own part has steps, each faulted on both hops.
  for (const steps of Object.values(counts.steps)) expect(steps.length).toBeGreaterThan(0);
}, 1_800_000);
