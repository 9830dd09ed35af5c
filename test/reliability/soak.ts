// The fault soak: whole flows through core → fault proxy → relay → fault proxy → emulator, each
// with a fresh customer and a fresh client, many at once. Every request on each hop meets a fault
// with the hop's probability (several per flow), the relay restarts where a fault says so, and the
// flows that met at least one fault their device saw are the ones measured. It counts what must
// never happen; the caller asserts the counts (a short seed) or writes RELIABILITY.md (the long run).
import {
  FLOW_KINDS,
  type FlowKind,
  type FlowResult,
  type FlowTrace,
  STEP_HEADER,
  startChain,
  stepLabel,
  timing,
} from "./chain.js";
import { applicable, inject, seenFaults } from "./faults.js";
import { type Random, seeded } from "./random.js";

export type SoakOptions = {
  seed: number;
  flows: number;
  /** Flows running at once. */
  concurrency: number;
  /** 1: the libraries' default time limits; below 1, all of them scaled down together. */
  scale: number;
  /** Probability that a request between the device and the relay meets a fault. */
  deviceRate: number;
  /** Probability that a request between the relay and the service meets a fault. */
  serviceRate: number;
  /**
   * The share of the signed retries that the service's #850 and #854 say may answer PROCESSING
   * (credential add, challenge, verify, refresh, revokes, export) that the emulator answers so,
   * drawn from the seed. Default 0.
   */
  processingRate?: number;
  onProgress?: (done: number, total: number) => void;
};

/** Completed and failed, for flows (or steps) that met something. */
export type Tally = { flows: number; completed: number };

export type SoakCounts = {
  seed: number;
  flows: number;
  concurrency: number;
  scale: number;
  deviceRate: number;
  serviceRate: number;
  durationMs: number;
  /** How long flows took, from the first request to the outcome: median, 99th centile, longest. */
  flowMs: { p50: number; p99: number; max: number };
  /** The devices' requests, re-sends included. */
  requests: number;
  /** PROCESSING answers the emulator drew on its own (`processingRate`). */
  drawnProcessing: number;
  /** Faults injected per hop (silent ones and PROCESSING included). */
  injected: { device: number; service: number };
  /** Faults the devices saw (the measure's faults). */
  seen: number;
  /** Flows that met at least one fault their device saw: the denominator. */
  faultedFlows: number;
  faultedCompleted: number;
  /** Flows that met more than one. */
  multiFaultFlows: number;
  /** The most faults one flow's device saw. */
  maxFaultsInAFlow: number;
  /** Of the faulted flows that completed, those that got there through a recovery. */
  recovered: number;
  outcomes: Record<FlowKind, { completed: number; failed: number; faulted: number }>;
  /** Per fault kind (hop: name): flows that met it, and how many completed. */
  byKind: Record<string, Tally>;
  /** Per device step: flows that met a fault there, and how many completed. */
  byStep: Record<string, Tally>;
  /** Sign-ins where the app asked for a newer code (a late code request superseded one). */
  codesAskedAgain: number;
  /** Payments the app authorized again (a late SCA login start superseded the login). */
  scaAskedAgain: number;
  /** Failures of faulted flows, `flow: CODE`. */
  failureCodes: Record<string, number>;
  /**
   * Every flow that did not complete or left a session or a key behind, with its trace: the faults it met (hop, kind, step) and its
   * device's requests, retries and signed-request stages in time order, to read why.
   */
  failures: (FlowTrace & { flow: number; faulted: boolean })[];
  // What must be 0:
  doubleExecutions: number;
  ledgerMismatches: number;
  requestIdReusedAfterTerminal: number;
  /** The first few of them: the step, and the answer that had ended its request id. */
  requestIdReuses: string[];
  retriesWithDifferentBody: number;
  hungPastDeadline: number;
  untypedFailures: number;
  keysLeftAfterSignOut: number;
  /** Sessions the service still listed after the flow's sign-out, summed over flows. */
  orphanSessions: number;
};

const add = (map: Record<string, Tally>, key: string, completed: boolean) => {
  const tally = map[key] ?? { flows: 0, completed: 0 };
  tally.flows++;
  if (completed) tally.completed++;
  map[key] = tally;
};

export async function runSoak(options: SoakOptions): Promise<SoakCounts> {
  const t = timing(options.scale);
  const chain = await startChain(t, { rate: options.processingRate ?? 0, seed: options.seed });
  const counts: SoakCounts = {
    seed: options.seed,
    flows: 0,
    concurrency: options.concurrency,
    scale: options.scale,
    deviceRate: options.deviceRate,
    serviceRate: options.serviceRate,
    durationMs: 0,
    flowMs: { p50: 0, p99: 0, max: 0 },
    requests: 0,
    drawnProcessing: 0,
    injected: { device: 0, service: 0 },
    seen: 0,
    faultedFlows: 0,
    faultedCompleted: 0,
    multiFaultFlows: 0,
    maxFaultsInAFlow: 0,
    recovered: 0,
    outcomes: Object.fromEntries(
      FLOW_KINDS.map((kind) => [kind, { completed: 0, failed: 0, faulted: 0 }]),
    ) as SoakCounts["outcomes"],
    byKind: {},
    byStep: {},
    codesAskedAgain: 0,
    scaAskedAgain: 0,
    failureCodes: {},
    failures: [],
    doubleExecutions: 0,
    ledgerMismatches: 0,
    requestIdReusedAfterTerminal: 0,
    requestIdReuses: [],
    retriesWithDifferentBody: 0,
    hungPastDeadline: 0,
    untypedFailures: 0,
    keysLeftAfterSignOut: 0,
    orphanSessions: 0,
  };
  const started = performance.now();
  const durations: number[] = [];

  const tally = (result: FlowResult, flow: number) => {
    counts.flows++;
    durations.push(result.durationMs);
    const completed = result.outcome === "completed";
    const outcome = counts.outcomes[result.kind];
    if (completed) outcome.completed++;
    else outcome.failed++;
    counts.injected.device += result.device.filter((r) => r.fault?.label).length;
    counts.injected.service += result.service.filter((r) => r.fault?.label).length;
    const seen = seenFaults(result.device, result.service, (record) => {
      const step = Number(record.tags[STEP_HEADER]);
      return Number.isFinite(step) ? step : undefined;
    });
    counts.seen += seen.length;
    if (seen.length > 0) {
      counts.faultedFlows++;
      outcome.faulted++;
      if (seen.length > 1) counts.multiFaultFlows++;
      counts.maxFaultsInAFlow = Math.max(counts.maxFaultsInAFlow, seen.length);
      if (completed) {
        counts.faultedCompleted++;
        if (result.recovered) counts.recovered++;
      }
      for (const name of new Set(seen.map((fault) => fault.name)))
        add(counts.byKind, name, completed);
      const labels = new Map(result.device.map((record) => [record.index, stepLabel(record)]));
      for (const label of new Set(seen.map((fault) => labels.get(fault.step) ?? "?")))
        add(counts.byStep, label, completed);
      if (!completed) {
        const code =
          typeof result.outcome === "object" ? result.outcome.code : result.outcome.toUpperCase();
        const key = `${result.kind}: ${code}`;
        counts.failureCodes[key] = (counts.failureCodes[key] ?? 0) + 1;
      }
    }
    if (result.trace !== undefined)
      counts.failures.push({ flow, faulted: seen.length > 0, ...result.trace });
    counts.codesAskedAgain += result.codesAskedAgain;
    counts.scaAskedAgain += result.scaAskedAgain;
    if (result.outcome === "hung") counts.hungPastDeadline++;
    if (result.outcome === "untyped") counts.untypedFailures++;
    if (result.keysLeft) counts.keysLeftAfterSignOut++;
    counts.orphanSessions += result.orphans;
    if (result.ledger === "double") counts.doubleExecutions++;
    if (result.ledger === "double" || result.ledger === "mismatch") counts.ledgerMismatches++;
    options.onProgress?.(counts.flows, options.flows);
  };

  const runOne = async (i: number) => {
    const random: Random = seeded(options.seed * 10_007 + i);
    const kind = random.pick(FLOW_KINDS);
    const result = await chain.runFlow(
      kind,
      `soak-${options.seed}-${i}`,
      {
        device: (request) =>
          random.next() < options.deviceRate
            ? inject(random.pick(applicable("device", stepLabel(request))), t, random)
            : undefined,
        service: (request) =>
          random.next() < options.serviceRate
            ? inject(random.pick(applicable("service", stepLabel(request))), t, random)
            : undefined,
      },
      random,
    );
    tally(result, i);
  };

  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(options.concurrency, options.flows) }, async (_, worker) => {
        // The flows start spread over a few seconds, as users arrive, not in one burst.
        await new Promise((resolve) => setTimeout(resolve, worker * 40));
        while (next < options.flows) await runOne(next++);
      }),
    );
  } finally {
    const invariants = chain.invariants();
    counts.requests = invariants.requests;
    counts.requestIdReusedAfterTerminal = invariants.reusedAfterTerminal;
    counts.requestIdReuses = invariants.reuses;
    counts.retriesWithDifferentBody = invariants.differentBody;
    counts.durationMs = Math.round(performance.now() - started);
    const sorted = durations.sort((a, b) => a - b);
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    counts.failures.sort((a, b) => a.flow - b.flow);
    counts.flowMs = { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
    counts.drawnProcessing = (await chain.stack.requests()).filter(
      (r) => r.fault === "processing",
    ).length;
    await chain.close();
  }
  return counts;
}
