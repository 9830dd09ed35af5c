// Relay overhead on loopback: the same read (`GET /auth/credentials?accountId=…`, ownership-checked
// by the relay) sent straight to the emulator with platform credentials and through the relay, by
// autocannon at fixed request rates; the relay beside its floor (a bare pass-through in the same
// process, relayFloor.ts) at growing numbers of concurrent users, with in-memory and Redis stores;
// then the relay's retained heap across a long run. Emulator, relay and Redis each run in a
// process of their own.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { startRedis } from "../../packages/relay/test/redisServer.js";
import type { Chart, Mode } from "./node.js";
import {
  type BenchUser,
  MEMORY_TIMEOUT_MS,
  type RelayServers,
  relayAgainstFloor,
  relayMemory,
} from "./relayFloor.js";
import { fmt, type Section } from "./report.js";
import { median, percentile } from "./stats.js";

const AUTH = `Basic ${Buffer.from("emulator:emulator").toString("base64")}`;
const USER_HEADER = "x-bench-customer";

/** Starts a role of servers.ts in a process of its own (`nodeArgs`: extra flags for node). */
export async function startServer(
  args: string[],
  nodeArgs: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ url: string; redisUrl?: string; floorUrl?: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      "--expose-gc",
      ...nodeArgs,
      "--import",
      "tsx",
      new URL("./servers.ts", import.meta.url).pathname,
      ...args,
    ],
    {
      stdio: ["pipe", "pipe", "inherit"],
      env,
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as { url: string; redisUrl?: string; floorUrl?: string }), child };
}

/** Customers with a wallet each, made through the emulator's platform API. */
export async function createBenchUsers(emulatorUrl: string, count: number): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let i = 0; i < count; i++) {
    const created = await fetch(`${emulatorUrl}/customers`, {
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
      `${emulatorUrl}/customers/internal-accounts?customerId=${id}&type=EMBEDDED_WALLET`,
      { headers: { authorization: AUTH } },
    );
    const { data } = (await accounts.json()) as { data: { id: string }[] };
    users.push({ customerId: id, accountId: data[0]!.id });
  }
  return users;
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
  const redis = await startRedis();
  try {
    return await measureRelay(mode, charts, redis.port);
  } finally {
    await redis.stop();
  }
}

async function measureRelay(mode: Mode, charts: Chart[], redisPort: number): Promise<Section[]> {
  const emulator = await startServer(["emulator"]);
  const relay = await startServer(["relay", emulator.url, String(redisPort)]).catch((error) => {
    emulator.child.kill();
    throw error;
  });
  try {
    // Users: customers with wallets, made through the platform API, one per concurrent client.
    const users = await createBenchUsers(emulator.url, mode.quick ? 16 : 256);
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
    const sequential = mode.quick ? 100 : 2000;
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

    const servers: RelayServers = {
      floor: relay.floorUrl!,
      relay: relay.url,
      relayRedis: relay.redisUrl!,
    };
    const floorSection = await relayAgainstFloor(servers, users, mode, charts);
    const memoryRelay = await startServer(["memory-relay", emulator.url]);
    let memorySection: Section;
    try {
      // Past the upstream timeout, and past the idle keep-alive of the relay's pooled connections
      // (fetch closes an idle one after 4 s, the emulator's server after 5 s): every checkpoint
      // reads the heap with none left open, not some, which moved it by megabytes.
      memorySection = await relayMemory(
        memoryRelay.url,
        users,
        mode,
        Math.max(MEMORY_TIMEOUT_MS, 5_000) + 2_000,
      );
    } finally {
      memoryRelay.child.stdin?.end();
      memoryRelay.child.kill();
    }

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
        method: `autocannon on loopback, 10 connections, ${duration} s per rate, one read that the relay forwards after its ownership check (cached after the first request of each user), straight to the emulator and through the relay; emulator and relay each in a process of their own, the relay's rate limit on with a limit the load never reaches. Latencies in ms, p50 / p99; autocannon reports whole milliseconds, so the first row times single requests (alternating direct and relayed) with the high-resolution clock, and the added-latency target is read from it. Non-2xx answers, errors and timeouts across every run: ${errors}.`,
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
      floorSection,
      memorySection,
    ];
  } finally {
    relay.child.stdin?.end();
    emulator.child.stdin?.end();
    relay.child.kill();
    emulator.child.kill();
  }
}
