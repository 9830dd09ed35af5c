// Where `pnpm reliability` collects the counts of a run (RELIABILITY_OUT); a no-op otherwise.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function saveCounts(name: string, counts: unknown): void {
  const dir = process.env.RELIABILITY_OUT;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(counts, null, 2));
}
