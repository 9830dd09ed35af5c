// The report model: each benchmark section returns one of these; run.ts renders BENCHMARKS.md.

/** A target the issue sets, checked against a measured value. */
export type Target = {
  /** What is compared, e.g. "Signet (node) ÷ Turnkey (default Node path)". */
  label: string;
  /** The measured value, in `unit`. */
  value: number;
  unit: string;
  /** `min`: value must be at least `bound`; `max`: at most; `equal`: exactly. */
  kind: "min" | "max" | "equal";
  bound: number;
};

export type Section = {
  title: string;
  /** One paragraph: what was measured and how. */
  method: string;
  table: { columns: string[]; rows: (string | number)[][] };
  targets: Target[];
  /** SVG charts written beside BENCHMARKS.md: file name and alt text. */
  charts: { file: string; alt: string }[];
  notes?: string[];
};

export const met = (t: Target): boolean =>
  t.kind === "min"
    ? t.value >= t.bound
    : t.kind === "max"
      ? t.value <= t.bound
      : t.value === t.bound;

export const fmt = (value: number, digits = 0): string =>
  value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** `1,234 ops/s (1,100–1,300)` */
export const spread = (t: { median: number; min: number; max: number }, digits = 0): string =>
  `${fmt(t.median, digits)} (${fmt(t.min, digits)}–${fmt(t.max, digits)})`;

export const times = (r: { median: number; min: number; max: number }): string =>
  `${r.median.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
