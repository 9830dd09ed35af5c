// Relay overhead on loopback: the same read (`GET /auth/credentials?accountId=…`, ownership-checked
// by the relay) sent straight to the emulator with platform credentials, and through the relay,
// by autocannon at fixed request rates and at growing numbers of concurrent users; then the
// relay's heap across a long run. Emulator and relay each run in a process of their own.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import type { Chart, Mode } from "./node.js";
import { fmt, type Section } from "./report.js";
import { median, percentile } from "./stats.js";
import { lineChart } from "./svg.js";

const AUTH = `Basic ${Buffer.from("emulator:emulator").toString("base64")}`;
const USER_HEADER = "x-bench-customer";

async function startServer(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", new URL("./servers.ts", import.meta.url).pathname, ...args],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url: (JSON.parse(line) as { url: string }).url, child };
}

type Run = { p50: number; p99: number; rps: number; errors: number };

async function load(options: autocannon.Options): Promise<Run> {
  const result = await autocannon({ ...options, workers: 0 } as autocannon.Options);
  const bad = result.errors + result.timeouts + result.non2xx;
  if (bad) console.error(`autocannon: ${bad} failed`, JSON.stringify(result.statusCodeStats));
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: bad,
  };
}

export async function relayOverhead(mode: Mode, charts: Chart[]): Promise<Section[]> {
  const emulator = await startServer(["emulator"]);
  const relay = await startServer(["relay", emulator.url]);
  try {
    // Users: customers with wallets, made through the platform API.
    const userCount = mode.quick ? 8 : 64;
    const users: { customerId: string; accountId: string }[] = [];
    for (let i = 0; i < userCount; i++) {
      const created = await fetch(`${emulator.url}/customers`, {
        method: "POST",
        headers: { authorization: AUTH, "content-type": "application/json" },
        body: JSON.stringify({
          customerType: "INDIVIDUAL",
          email: `load${i}-${Date.now()}@example.com`,
          fullName: "Load",
        }),
      });
      const { id } = (await created.json()) as { id: string };
      const accounts = await fetch(
        `${emulator.url}/customers/internal-accounts?customerId=${id}&type=EMBEDDED_WALLET`,
        {
          headers: { authorization: AUTH },
        },
      );
      const { data } = (await accounts.json()) as { data: { id: string }[] };
      users.push({ customerId: id, accountId: data[0]!.id });
    }
    const path = (u: { accountId: string }) =>
      `/auth/credentials?accountId=${encodeURIComponent(u.accountId)}`;
    // Each request goes to the next user in turn: a user (header) and that user's account (path).
    let next = 0;
    const rotate = (prefix: string, headers: (u: (typeof users)[0]) => Record<string, string>) => [
      {
        method: "GET" as const,
        setupRequest: (request: object) => {
          const u = users[next++ % users.length]!;
          return { ...request, path: `${prefix}${path(u)}`, headers: headers(u) };
        },
      },
    ];
    const direct = (opts: autocannon.Options) =>
      load({
        ...opts,
        url: emulator.url,
        requests: rotate("", () => ({ authorization: AUTH })),
      } as autocannon.Options);
    const viaRelay = (opts: autocannon.Options) =>
      load({
        ...opts,
        url: relay.url,
        requests: rotate("/api/grid", (u) => ({ [USER_HEADER]: u.customerId })),
      } as autocannon.Options);

    // Warm both (ownership cache filled, JIT warm).
    await direct({ url: "", connections: 4, amount: 500 });
    await viaRelay({ url: "", connections: 4, amount: 500 });

    // Added latency, precisely: one request at a time, alternating direct and relayed, timed with
    // the high-resolution clock (autocannon rounds latencies to whole milliseconds).
    let errors = 0;
    const sequential = mode.quick ? 200 : 2000;
    const seqDirect: number[] = [];
    const seqRelay: number[] = [];
    for (let i = 0; i < sequential; i++) {
      const u = users[i % users.length]!;
      let t = performance.now();
      const a = await fetch(`${emulator.url}${path(u)}`, { headers: { authorization: AUTH } });
      await a.arrayBuffer();
      seqDirect.push(performance.now() - t);
      t = performance.now();
      const b = await fetch(`${relay.url}/api/grid${path(u)}`, {
        headers: { [USER_HEADER]: u.customerId },
      });
      await b.arrayBuffer();
      seqRelay.push(performance.now() - t);
      if (!a.ok || !b.ok) errors++;
    }
    const addedP50 = median(seqRelay) - median(seqDirect);

    const duration = mode.quick ? 2 : 6;
    const rates = mode.quick ? [200] : [200, 500, 1000];
    const rateRows: (string | number)[][] = [];
    for (const rate of rates) {
      const a = await direct({ url: "", connections: 10, duration, overallRate: rate });
      const b = await viaRelay({ url: "", connections: 10, duration, overallRate: rate });
      errors += a.errors + b.errors;
      rateRows.push([
        fmt(rate),
        `${a.p50} / ${a.p99}`,
        `${b.p50} / ${b.p99}`,
        (b.p50 - a.p50).toFixed(2),
        fmt(b.rps),
      ]);
    }

    // Concurrency: max throughput with 1 … N users at once.
    const levels = mode.quick ? [1, 8] : [1, 4, 16, 64];
    const concRows: (string | number)[][] = [];
    const directSeries: [number, number][] = [];
    const relaySeries: [number, number][] = [];
    for (const connections of levels) {
      const amount = mode.quick ? 500 : 4000;
      const a = await direct({ url: "", connections, amount });
      const b = await viaRelay({ url: "", connections, amount });
      errors += a.errors + b.errors;
      directSeries.push([connections, Math.max(a.p50, 0.01)]);
      relaySeries.push([connections, Math.max(b.p50, 0.01)]);
      concRows.push([
        connections,
        `${a.p50} / ${a.p99}`,
        `${b.p50} / ${b.p99}`,
        fmt(a.rps),
        fmt(b.rps),
      ]);
    }
    charts.push({
      file: "relay-concurrency.svg",
      alt: "Relay latency against concurrent users",
      svg: lineChart(
        "p50 latency against concurrent users (loopback)",
        { x: "concurrent users (connections)", y: "p50 ms" },
        [
          { name: "emulator direct", points: directSeries },
          { name: "through the relay", points: relaySeries },
        ],
      ),
    });

    // Memory: the relay's heap after a full GC, across a long run.
    const total = mode.quick ? 5_000 : 100_000;
    const memory = async () =>
      ((await (await fetch(`${relay.url}/__memory`)).json()) as { heapUsed: number }).heapUsed;
    const heap0 = await memory();
    const half = await viaRelay({ url: "", connections: 16, amount: total / 2 });
    const heapHalf = await memory();
    const rest = await viaRelay({ url: "", connections: 16, amount: total / 2 });
    const heapEnd = await memory();
    errors += half.errors + rest.errors;
    const mb = (b: number) => (b / 2 ** 20).toFixed(1);

    rateRows.unshift([
      "sequential (1 at a time)",
      `${median(seqDirect).toFixed(2)} / ${percentile(seqDirect, 99).toFixed(2)}`,
      `${median(seqRelay).toFixed(2)} / ${percentile(seqRelay, 99).toFixed(2)}`,
      addedP50.toFixed(2),
      "",
    ]);
    return [
      {
        title: "Relay overhead",
        method: `autocannon on loopback, 10 connections, ${duration} s per rate, one read that the relay forwards after its ownership check (cached after the first request of each user), straight to the emulator and through the relay; emulator and relay each in a process of their own, rate limiting off so the limiter does not shape the load. Latencies in ms, p50 / p99; autocannon reports whole milliseconds, so the first row times single requests (alternating direct and relayed) with the high-resolution clock, and the added-latency target is read from it. Non-2xx answers, errors and timeouts across every run: ${errors}.`,
        table: {
          columns: [
            "requests/s",
            "direct p50 / p99",
            "via relay p50 / p99",
            "added at p50, ms",
            "relay throughput, req/s",
          ],
          rows: rateRows,
        },
        targets: [
          {
            label: "Relay latency added at p50 (sequential, high-resolution)",
            value: addedP50,
            unit: " ms",
            kind: "max",
            bound: 1,
          },
          {
            label: "Failed requests in the relay runs",
            value: errors,
            unit: "",
            kind: "equal",
            bound: 0,
          },
        ],
        charts: [],
      },
      {
        title: "Scale: relay latency against concurrent users",
        method: `Each level sends ${mode.quick ? 500 : 4000} requests as fast as the servers answer, spread over ${users.length} users.`,
        table: {
          columns: [
            "concurrent users",
            "direct p50 / p99 ms",
            "via relay p50 / p99 ms",
            "direct req/s",
            "relay req/s",
          ],
          rows: concRows,
        },
        targets: [],
        charts: [{ file: "relay-concurrency.svg", alt: "Relay latency against concurrent users" }],
      },
      {
        title: "Relay memory",
        method: `${fmt(total)} requests through one relay process (16 connections, ${users.length} users); heap after a full GC before, half way and at the end.`,
        table: {
          columns: ["after", "heap used, MiB"],
          rows: [
            ["warm-up", mb(heap0)],
            [`${fmt(total / 2)} requests`, mb(heapHalf)],
            [`${fmt(total)} requests`, mb(heapEnd)],
          ],
        },
        targets: [
          {
            label: "Relay heap growth over the second half of the run",
            value: (heapEnd - heapHalf) / 2 ** 20,
            unit: " MiB",
            kind: "max",
            bound: 1,
          },
        ],
        charts: [],
      },
    ];
  } finally {
    relay.child.stdin?.end();
    emulator.child.stdin?.end();
    relay.child.kill();
    emulator.child.kill();
  }
}
