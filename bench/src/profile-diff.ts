// `pnpm --filter @signet/bench profile-diff <a.cpuprofile>:<requests> <b.cpuprofile>:<requests>`:
// self time per request by function in two V8 CPU profiles (relay-profile --cpu-prof --only=…),
// side by side, sorted by what b spends beyond a (µs; bytes for two `.heapprofile` files, the
// allocations sampled beside each CPU profile; bytes retained by constructor for two
// `.heapsnapshot` files, the memory relay's `GET /__snapshot/<file>` at two checkpoints, with `:1`
// for the growth between them). Idle and GC are listed as V8 names them.
import { readFileSync } from "node:fs";

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

type HeapNode = { callFrame: Node["callFrame"]; selfSize: number; children: HeapNode[] };

const keyOf = (frame: Node["callFrame"]) =>
  `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\/(node_modules|src|dist)\//, "$1/")}:${frame.lineNumber + 1}`;

/** Bytes allocated by `function url:line`, over a sampling heap profile (`.heapprofile`). */
function selfBytes(head: HeapNode): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (node: HeapNode) => {
    const key = keyOf(node.callFrame);
    out.set(key, (out.get(key) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(head);
  return out;
}

type HeapSnapshot = {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
};

/**
 * Bytes retained by kind in a heap snapshot: objects and closures by constructor name, V8's
 * internals (code, arrays, strings…) by their type and, for code, what they are.
 */
function retainedBytes(snapshot: HeapSnapshot): Map<string, number> {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [type, name, size] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const out = new Map<string, number>();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const kind = types[snapshot.nodes[i + type]!]!;
    const label = snapshot.strings[snapshot.nodes[i + name]!] ?? "";
    const key =
      kind === "object" || kind === "closure"
        ? label
        : kind === "code" || kind === "hidden" || kind === "array"
          ? `(${kind}) ${label.slice(0, 40)}`
          : `(${kind})`;
    out.set(key, (out.get(key) ?? 0) + snapshot.nodes[i + size]!);
  }
  return out;
}

/** Self time (µs) by `function url:line` over a CPU profile, or bytes over a heap profile or snapshot. */
function selfTime(file: string): Map<string, number> {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as
    | Profile
    | { head: HeapNode }
    | HeapSnapshot;
  if ("snapshot" in parsed) return retainedBytes(parsed);
  if ("head" in parsed) return selfBytes(parsed.head);
  const profile = parsed;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const out = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const key = keyOf(byId.get(profile.samples[i]!)!.callFrame);
    // A sample's time is the delta to the next one.
    out.set(key, (out.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  return out;
}

const [a, b] = process.argv.slice(2).map((arg) => {
  const at = arg.lastIndexOf(":");
  return { self: selfTime(arg.slice(0, at)), requests: Number(arg.slice(at + 1)) };
});
if (a === undefined || b === undefined || !a.requests || !b.requests) {
  console.error("usage: profile-diff <a.cpuprofile>:<requests> <b.cpuprofile>:<requests>");
  process.exit(2);
}
const busy = (m: Map<string, number>) =>
  [...m].filter(([k]) => !k.startsWith("(idle)")).reduce((s, [, v]) => s + v, 0);
const rows = [...new Set([...a.self.keys(), ...b.self.keys()])].map((key) => {
  const x = (a.self.get(key) ?? 0) / a.requests;
  const y = (b.self.get(key) ?? 0) / b.requests;
  return { key, x, y, d: y - x };
});
rows.sort((p, q) => q.d - p.d);
const top = Number(process.env.TOP ?? 40);
console.log(
  `busy per request: a ${(busy(a.self) / a.requests).toFixed(1)}, b ${(busy(b.self) / b.requests).toFixed(1)}`,
);
console.log("      a       b   b − a  function");
for (const r of rows.slice(0, top)) {
  console.log(
    `${r.x.toFixed(2).padStart(7)} ${r.y.toFixed(2).padStart(7)} ${r.d.toFixed(2).padStart(7)}  ${r.key}`,
  );
}
console.log("…");
for (const r of rows.slice(-8)) {
  console.log(
    `${r.x.toFixed(2).padStart(7)} ${r.y.toFixed(2).padStart(7)} ${r.d.toFixed(2).padStart(7)}  ${r.key}`,
  );
}
