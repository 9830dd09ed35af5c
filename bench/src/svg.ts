// Small, dependency-free SVG charts for BENCHMARKS.md (horizontal bars with spread whiskers, and
// log-scale line charts). Own code: a charting library would be a heavy dependency for two shapes.

const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif"';
const PALETTE = ["#2563eb", "#9ca3af", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6"];

export type Bar = { label: string; value: number; min?: number; max?: number; ours?: boolean };

/** Horizontal bars, one per contender; whiskers show the spread over runs. */
export function barChart(title: string, unit: string, bars: readonly Bar[]): string {
  const width = 760;
  const labelWidth = 300;
  const rowHeight = 30;
  const top = 44;
  const plot = width - labelWidth - 110;
  const height = top + bars.length * rowHeight + 16;
  const maxValue = Math.max(...bars.map((b) => b.max ?? b.value)) || 1;
  const x = (v: number) => labelWidth + (v / maxValue) * plot;
  const rows = bars.map((bar, i) => {
    const y = top + i * rowHeight;
    const fill = bar.ours ? PALETTE[0] : PALETTE[1];
    const whisker =
      bar.min !== undefined && bar.max !== undefined
        ? `<line x1="${x(bar.min).toFixed(1)}" x2="${x(bar.max).toFixed(1)}" y1="${y + 10}" y2="${y + 10}" stroke="#111827" stroke-width="1.5"/>`
        : "";
    return [
      `<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end" font-size="12" ${FONT} fill="#111827">${esc(bar.label)}</text>`,
      `<rect x="${labelWidth}" y="${y}" width="${Math.max(1, x(bar.value) - labelWidth).toFixed(1)}" height="20" rx="3" fill="${fill}"/>`,
      whisker,
      `<text x="${(x(bar.max ?? bar.value) + 6).toFixed(1)}" y="${y + 14}" font-size="12" ${FONT} fill="#374151">${esc(formatValue(bar.value))} ${esc(unit)}</text>`,
    ].join("");
  });
  return svg(width, height, title, rows.join("\n"));
}

export type Series = { name: string; points: readonly (readonly [number, number])[] };

/** Lines over a log-scale x axis (and a linear or log y axis). */
export function lineChart(
  title: string,
  axes: { x: string; y: string; logY?: boolean },
  series: readonly Series[],
): string {
  const width = 760;
  const height = 380;
  const left = 80;
  const right = 180;
  const top = 44;
  const bottom = 50;
  const all = series.flatMap((s) => s.points);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const [x0, x1] = [Math.log10(Math.min(...xs)), Math.log10(Math.max(...xs))];
  const yLog = axes.logY ?? false;
  const yMin = yLog ? Math.log10(Math.min(...ys)) : 0;
  const yMax = yLog ? Math.log10(Math.max(...ys)) : Math.max(...ys) * 1.1;
  const px = (v: number) => left + ((Math.log10(v) - x0) / (x1 - x0 || 1)) * (width - left - right);
  const py = (v: number) =>
    height -
    bottom -
    (((yLog ? Math.log10(v) : v) - yMin) / (yMax - yMin || 1)) * (height - top - bottom);
  const parts: string[] = [
    `<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="#9ca3af"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" stroke="#9ca3af"/>`,
    `<text x="${(left + width - right) / 2}" y="${height - 12}" text-anchor="middle" font-size="12" ${FONT}>${esc(axes.x)}</text>`,
    `<text x="16" y="${(top + height - bottom) / 2}" text-anchor="middle" font-size="12" ${FONT} transform="rotate(-90 16 ${(top + height - bottom) / 2})">${esc(axes.y)}</text>`,
  ];
  for (const v of [...new Set(xs)].sort((a, b) => a - b)) {
    parts.push(
      `<text x="${px(v).toFixed(1)}" y="${height - bottom + 16}" text-anchor="middle" font-size="11" ${FONT} fill="#374151">${esc(formatValue(v))}</text>`,
    );
  }
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    const raw = yMin + t * (yMax - yMin);
    const v = yLog ? 10 ** raw : raw;
    const y = py(v);
    parts.push(
      `<line x1="${left}" y1="${y.toFixed(1)}" x2="${width - right}" y2="${y.toFixed(1)}" stroke="#e5e7eb"/>`,
      `<text x="${left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end" font-size="11" ${FONT} fill="#374151">${esc(formatValue(v))}</text>`,
    );
  }
  series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    const d = s.points.map(
      (p, j) => `${j ? "L" : "M"}${px(p[0]).toFixed(1)},${py(p[1]).toFixed(1)}`,
    );
    parts.push(`<path d="${d.join(" ")}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const p of s.points)
      parts.push(
        `<circle cx="${px(p[0]).toFixed(1)}" cy="${py(p[1]).toFixed(1)}" r="3" fill="${color}"/>`,
      );
    parts.push(
      `<rect x="${width - right + 16}" y="${top + i * 20}" width="12" height="12" fill="${color}"/>`,
      `<text x="${width - right + 34}" y="${top + i * 20 + 10}" font-size="12" ${FONT}>${esc(s.name)}</text>`,
    );
  });
  return svg(width, height, title, parts.join("\n"));
}

function formatValue(v: number): string {
  if (v >= 1_000_000) return `${+(v / 1_000_000).toFixed(1)}M`;
  if (v >= 10_000) return `${+(v / 1000).toFixed(0)}k`;
  if (v >= 100) return v.toFixed(0);
  if (v >= 1) return `${+v.toFixed(2)}`;
  return `${+v.toPrecision(2)}`;
}

function svg(width: number, height: number, title: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(title)}">
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="16" y="26" font-size="15" font-weight="600" ${FONT} fill="#111827">${esc(title)}</text>
${body}
</svg>
`;
}
