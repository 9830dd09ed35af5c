// The fault soak, short seed: whole flows with injected faults; every count that must be 0 is 0,
// and at least 99% of the flows that met only transient faults complete.
// `pnpm reliability` runs the long seed and writes RELIABILITY.md.
import { afterAll, beforeAll, expect, it } from "vitest";
import { saveCounts } from "./reliability/output.js";
import { runSoak } from "./reliability/soak.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ settlementDelayMs: 5 });
});
afterAll(() => stack?.close());

const FLOWS = Number(process.env.SOAK_FLOWS ?? 150);
const SEED = Number(process.env.SOAK_SEED ?? 20261122);

it(
  `fault soak, seed ${SEED}: ${FLOWS} flows, nothing paid twice, nothing hung, every failure typed, transient faults survived`,
  async () => {
    const counts = await runSoak({
      stack,
      seed: SEED,
      flows: FLOWS,
      // Progress on long runs: a line every 500 flows.
      onProgress: (done, total) => {
        if (done % 500 === 0) process.stderr.write(`soak: ${done} of ${total} flows\n`);
      },
    });
    saveCounts("soak", counts);
    expect({
      doubleExecutions: counts.doubleExecutions,
      ledgerMismatches: counts.ledgerMismatches,
      requestIdReusedAfterTerminal: counts.requestIdReusedAfterTerminal,
      retriesWithDifferentBody: counts.retriesWithDifferentBody,
      hungPastDeadline: counts.hungPastDeadline,
      untypedFailures: counts.untypedFailures,
      keysLeftAfterSignOut: counts.keysLeftAfterSignOut,
    }).toEqual({
      doubleExecutions: 0,
      ledgerMismatches: 0,
      requestIdReusedAfterTerminal: 0,
      retriesWithDifferentBody: 0,
      hungPastDeadline: 0,
      untypedFailures: 0,
      keysLeftAfterSignOut: 0,
    });
    expect(counts.flows).toBe(FLOWS);
    // Issue #22's target: at least 99% of the flows that met only transient faults (everything
    // but a clock jump past the session) complete. `pnpm reliability` measures it over 10,000
    // flows (RELIABILITY.md). At a short seed one flow is about 0.7% and the seed fixes which faults
    // meet which flows, not their timing: the documented residual (a relay restart during a
    // refresh whose answer was lost, 0.15% of the long run) can end one or two flows of this seed
    // depending on timing (two in one CI run on a loaded machine). So at most two may fail here.
    const allowed = Math.max(2, Math.floor(counts.transientFlows * 0.01));
    expect(counts.transientEndedFlow, JSON.stringify(counts.failureCodes)).toBeLessThanOrEqual(
      allowed,
    );
    expect(counts.transientCompleted + counts.transientEndedFlow).toBe(counts.transientFlows);
    // The faults that were recovered from were recovered by a retry, a wait or a fresh challenge.
    const recovered = Object.values(counts.byFault).reduce((n, f) => n + f.recovered, 0);
    expect(recovered).toBeGreaterThan(0);
    // A session that expired on the service's clock ends in a code that says so, in every flow
    // that signs with a held session (refresh, add passkey, export, execute, execute with SCA).
    for (const [key, count] of Object.entries(counts.failureCodes))
      if (/^clock jump past the session → (refresh|add passkey|export|execute)/.test(key))
        expect([key, count]).toEqual([key.replace(/: .*$/, ": SESSION_EXPIRED"), count]);
    // The faults did bite: some flows failed (typed), most completed.
    const outcomes = Object.values(counts.outcomes);
    expect(outcomes.reduce((n, o) => n + o.completed, 0)).toBeGreaterThan(FLOWS / 2);
    // Every kind of flow ran to the end at least once, EU payments through SCA included.
    for (const [kind, outcome] of Object.entries(counts.outcomes))
      expect(outcome.completed, kind).toBeGreaterThan(0);
  },
  Math.max(600_000, FLOWS * 250),
);
