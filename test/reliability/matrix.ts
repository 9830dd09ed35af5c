// The single-fault matrix: every fault kind, on either hop, forced on every step of every flow's
// own part, one fault per run. A step is a request the device makes in a clean run of the flow
// (the first of each kind: a transaction's second poll is the first one again), named by method,
// path and leg; a service-hop fault hits the relay's call that forwards that step. Every cell must
// complete, and leave nothing behind.
import type { ProxiedRequest } from "../support/faultProxy.js";
import {
  type Chain,
  FLOW_KINDS,
  type FlowKind,
  type FlowResult,
  startChain,
  stepLabel,
  timing,
} from "./chain.js";
import { applicable, type FaultKind, inject } from "./faults.js";
import { seeded } from "./random.js";

/** A step of a flow's own part: its name, and which of the same name it is (1 for the first). */
export type Step = { label: string; occurrence: number; signed: boolean };

export type Cell = { flow: FlowKind; step: Step; kind: FaultKind };

export type CellResult = Cell & {
  /** Whether the fault was injected (the step was reached as in the clean run). */
  injected: boolean;
  outcome: FlowResult["outcome"];
  orphans: number;
  keysLeft: boolean;
  ledger: FlowResult["ledger"];
  codesAskedAgain: number;
  scaAskedAgain: number;
};

export type MatrixOptions = {
  seed: number;
  scale: number;
  concurrency: number;
  /**
   * Every cell (the long run), or a sample: each step on each hop with one kind, the kind turning
   * with the seed (a short seed), so that successive seeds cover the table.
   */
  full: boolean;
  onProgress?: (done: number, total: number) => void;
};

export type MatrixCounts = {
  seed: number;
  scale: number;
  full: boolean;
  durationMs: number;
  steps: Record<FlowKind, Step[]>;
  cells: number;
  completed: number;
  /** Cells whose step was not reached as in the clean run (the fault found nothing to hit). */
  notReached: number;
  failures: { flow: string; step: string; fault: string; code: string }[];
  /** Per fault kind (hop: name): cells and completed. */
  byKind: Record<string, { cells: number; completed: number }>;
  /** Per flow and step: cells and completed. */
  byStep: Record<string, { cells: number; completed: number }>;
  orphanSessions: number;
  /**
   * Cells where the app asked again: for a newer code (a late code request superseded one), or
   * authorized a payment again (a late SCA login start superseded the login).
   */
  askedAgain: { flow: string; step: string; fault: string }[];
  keysLeftAfterSignOut: number;
  hungPastDeadline: number;
  untypedFailures: number;
  doubleExecutions: number;
  requestIdReusedAfterTerminal: number;
  retriesWithDifferentBody: number;
};

/** The steps of a flow's own part, from a clean run. */
async function stepsOf(chain: Chain, flow: FlowKind, seed: number): Promise<Step[]> {
  const result = await chain.runFlow(
    flow,
    `matrix-${seed}-clean-${flow.replace(/ /g, "-")}`,
    {
      device: () => undefined,
      service: () => undefined,
    },
    seeded(seed),
  );
  if (result.outcome !== "completed")
    throw new Error(`a clean ${flow} failed: ${JSON.stringify(result.outcome)}`);
  const seen = new Map<string, number>();
  const steps: Step[] = [];
  for (const { label } of result.ownSteps) {
    const occurrence = (seen.get(label) ?? 0) + 1;
    seen.set(label, occurrence);
    // A repeated read (a transaction polled until it settles) is the same step again.
    if (occurrence > 1 && label.startsWith("GET ")) continue;
    steps.push({ label, occurrence, signed: label.endsWith("(signed)") });
  }
  return steps;
}

const withoutQuery = (label: string) => label.replace(/\?[^ ]*/, "");

/** The plan of one cell: the fault on the step's first matching request, once. */
function cellPlan(cell: Cell, scaleTiming: ReturnType<typeof timing>, seed: number) {
  const random = seeded(seed);
  const counts = new Map<string, number>();
  let target: number | undefined;
  let done = false;
  const isStep = (request: ProxiedRequest, ownStart: number) => {
    if (request.index < ownStart) return false;
    const label = stepLabel(request);
    const occurrence = (counts.get(label) ?? 0) + 1;
    counts.set(label, occurrence);
    return label === cell.step.label && occurrence === cell.step.occurrence;
  };
  return {
    device(request: ProxiedRequest, flow: { ownStart: number }) {
      if (done || target !== undefined || !isStep(request, flow.ownStart)) return undefined;
      target = request.index;
      if (cell.kind.hop !== "device") return undefined;
      done = true;
      return inject(cell.kind, scaleTiming, random);
    },
    service(request: ProxiedRequest, deviceStep: number | undefined) {
      if (done || cell.kind.hop !== "service" || deviceStep !== target) return undefined;
      // The relay's forward of the step (it may add a query, as `customerId=` on SCA routes).
      if (withoutQuery(stepLabel(request)) !== withoutQuery(cell.step.label)) return undefined;
      done = true;
      return inject(cell.kind, scaleTiming, random);
    },
  };
}

/** The cells to run: all, or one kind per step and hop, turning with the seed. */
function cellsOf(steps: Record<FlowKind, Step[]>, options: MatrixOptions): Cell[] {
  const cells: Cell[] = [];
  let n = 0;
  for (const flow of FLOW_KINDS) {
    for (const step of steps[flow]) {
      for (const hop of ["device", "service"] as const) {
        const fits = applicable(hop, step.label);
        if (options.full) for (const kind of fits) cells.push({ flow, step, kind });
        else cells.push({ flow, step, kind: fits[(options.seed + n++) % fits.length]! });
      }
    }
  }
  return cells;
}

/** A relay restart cuts every request in the relay: those cells run alone. */
const alone = (cell: Cell) => cell.kind.name === "relay restart mid-request";

export async function runMatrix(options: MatrixOptions): Promise<MatrixCounts> {
  const t = timing(options.scale);
  const chain = await startChain(t);
  const started = performance.now();
  try {
    const steps = {} as Record<FlowKind, Step[]>;
    for (const flow of FLOW_KINDS) steps[flow] = await stepsOf(chain, flow, options.seed);
    const cells = cellsOf(steps, options);
    const results: CellResult[] = [];
    const runCell = async (cell: Cell, i: number) => {
      const plan = cellPlan(cell, t, options.seed * 7_919 + i);
      const result = await chain.runFlow(
        cell.flow,
        `matrix-${options.seed}-${i}`,
        plan,
        seeded(options.seed * 7_919 + i),
        { wrongCodeFirst: false },
      );
      const injected = [...result.device, ...result.service].some(
        (record) => record.fault?.label === `${cell.kind.hop}: ${cell.kind.name}`,
      );
      results.push({
        ...cell,
        injected,
        outcome: result.outcome,
        orphans: result.orphans,
        keysLeft: result.keysLeft,
        ledger: result.ledger,
        codesAskedAgain: result.codesAskedAgain,
        scaAskedAgain: result.scaAskedAgain,
      });
      options.onProgress?.(results.length, cells.length);
    };
    const together = cells.map((cell, i) => [cell, i] as const).filter(([cell]) => !alone(cell));
    let next = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < together.length) {
          const [cell, i] = together[next++]!;
          await runCell(cell, i);
        }
      }),
    );
    for (const [i, cell] of cells.entries()) if (alone(cell)) await runCell(cell, i);
    return tally(options, steps, results, chain, Math.round(performance.now() - started));
  } finally {
    await chain.close();
  }
}

function count(
  map: Record<string, { cells: number; completed: number }>,
  key: string,
  completed: boolean,
) {
  const entry = map[key] ?? { cells: 0, completed: 0 };
  entry.cells++;
  if (completed) entry.completed++;
  map[key] = entry;
}

function tally(
  options: MatrixOptions,
  steps: Record<FlowKind, Step[]>,
  results: CellResult[],
  chain: Chain,
  durationMs: number,
): MatrixCounts {
  const invariants = chain.invariants();
  const counts: MatrixCounts = {
    seed: options.seed,
    scale: options.scale,
    full: options.full,
    durationMs,
    steps,
    cells: results.length,
    completed: 0,
    notReached: 0,
    failures: [],
    byKind: {},
    byStep: {},
    orphanSessions: 0,
    askedAgain: [],
    keysLeftAfterSignOut: 0,
    hungPastDeadline: 0,
    untypedFailures: 0,
    doubleExecutions: 0,
    requestIdReusedAfterTerminal: invariants.reusedAfterTerminal,
    retriesWithDifferentBody: invariants.differentBody,
  };
  for (const result of results) {
    const completed = result.outcome === "completed";
    if (completed) counts.completed++;
    else
      counts.failures.push({
        flow: result.flow,
        step: `${result.step.label}${result.step.occurrence > 1 ? ` #${result.step.occurrence}` : ""}`,
        fault: `${result.kind.hop}: ${result.kind.name}`,
        code: typeof result.outcome === "object" ? result.outcome.code : result.outcome,
      });
    if (!result.injected) {
      counts.notReached++;
      if (process.env.SOAK_DEBUG)
        console.error(
          `not reached: ${result.flow} ${result.step.label} #${result.step.occurrence} ${result.kind.hop}: ${result.kind.name}`,
        );
    }
    count(counts.byKind, `${result.kind.hop}: ${result.kind.name}`, completed);
    count(counts.byStep, `${result.flow}: ${result.step.label}`, completed);
    counts.orphanSessions += result.orphans;
    if (result.codesAskedAgain > 0 || result.scaAskedAgain > 0)
      counts.askedAgain.push({
        flow: result.flow,
        step: result.step.label,
        fault: `${result.kind.hop}: ${result.kind.name}`,
      });
    if (result.keysLeft) counts.keysLeftAfterSignOut++;
    if (result.outcome === "hung") counts.hungPastDeadline++;
    if (result.outcome === "untyped") counts.untypedFailures++;
    if (result.ledger === "double") counts.doubleExecutions++;
  }
  return counts;
}
