// Timing primitives for the benchmarks: repeated runs, medians and spreads, and ratios taken
// between contenders measured in the same process, interleaved so that drift hits both alike.

/** Throughput of one contender over repeated runs, in operations per second. */
export type Throughput = {
  name: string;
  /** Median over the runs. */
  median: number;
  min: number;
  max: number;
  runs: number[];
};

/** A contender in a throughput comparison. `setup` runs once before timing. */
export type Contender = {
  name: string;
  /** One operation. Awaited when it returns a promise. */
  run: () => unknown;
};

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** Runs `op` repeatedly for about `timeMs` and returns operations per second. */
async function opsPerSecond(op: () => unknown, timeMs: number): Promise<number> {
  let count = 0;
  const start = performance.now();
  let now = start;
  // Batches of 8 keep the clock reads out of the measurement for fast operations.
  while (now - start < timeMs) {
    for (let i = 0; i < 8; i++) {
      const result = op();
      if (result instanceof Promise) await result;
    }
    count += 8;
    now = performance.now();
  }
  return (count * 1000) / (now - start);
}

/**
 * Measures every contender `runs` times, interleaved (A B C, A B C, …) after one warm-up round,
 * and returns each one's throughput. Ratios are best taken with {@link ratio} per run.
 */
export async function compareThroughput(
  contenders: readonly Contender[],
  options: { runs: number; timeMs: number },
): Promise<Throughput[]> {
  for (const contender of contenders) await opsPerSecond(contender.run, options.timeMs / 2);
  const results = contenders.map((c) => ({ name: c.name, runs: [] as number[] }));
  for (let r = 0; r < options.runs; r++) {
    for (const [i, contender] of contenders.entries()) {
      results[i]!.runs.push(await opsPerSecond(contender.run, options.timeMs));
    }
  }
  return results.map(({ name, runs }) => ({
    name,
    runs,
    median: median(runs),
    min: Math.min(...runs),
    max: Math.max(...runs),
  }));
}

/** Per-run ratios of `a` to `b` (same run index), summarised: median, min, max. */
export function ratio(a: Throughput, b: Throughput): { median: number; min: number; max: number } {
  const ratios = a.runs.map((value, i) => value / b.runs[i]!);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

/** Times `op` once per call, `count` times after `warmup` calls; returns milliseconds per call. */
export async function latencies(
  op: () => unknown,
  count: number,
  warmup = Math.min(3, count),
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await op();
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await op();
    out.push(performance.now() - start);
  }
  return out;
}
