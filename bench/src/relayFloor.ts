// The relay against its floor: a bare pass-through in the same process that adds the credentials
// and forwards with `fetch` (servers.ts). The same ownership-checked read at 1 … 256 concurrent
// users, floor, relay with in-memory stores and relay with Redis stores interleaved round by
// round, latencies timed with the high-resolution clock (load.ts). Then the relay's retained heap
// (after full collections) at checkpoints across a long run, and the slope fitted through them,
// which does not swing with when the collector last ran as a single before/after figure does.
import { type LoadRequest, type LoadResult, runLoad } from "./load.js";
import type { Chart, Mode } from "./node.js";
import { fmt, type Section, type Target } from "./report.js";
import { median, percentile } from "./stats.js";
import { lineChart } from "./svg.js";

/** The upstream timeout of the relay whose memory is measured (servers.ts `memory-relay`). */
export const MEMORY_TIMEOUT_MS = 3_000;

export type BenchUser = { customerId: string; accountId: string };
export type RelayServers = { floor: string; relay: string; relayRedis: string };

const USER_HEADER = "x-bench-customer";
const CONTENDERS = ["floor", "relay", "relayRedis"] as const;
type Contender = (typeof CONTENDERS)[number];
const NAMES: Record<Contender, string> = {
  floor: "floor (bare pass-through)",
  relay: "relay, in-memory stores",
  relayRedis: "relay, Redis stores",
};

/** Request n: user n (mod the users), that user's account in the query. */
export const requestFor =
  (users: readonly BenchUser[]) =>
  (n: number): LoadRequest => {
    const u = users[n % users.length]!;
    return {
      path: `/api/grid/auth/credentials?accountId=${encodeURIComponent(u.accountId)}`,
      headers: { [USER_HEADER]: u.customerId },
    };
  };

/** A full collection in the process that serves the floor and both relays (servers.ts). */
async function collect(servers: RelayServers): Promise<void> {
  const answer = await fetch(`${servers.floor}/__collect`);
  if (answer.status !== 204) throw new Error(`collection failed: ${answer.status}`);
}

type Level = {
  connections: number;
  runs: Record<
    Contender,
    { latencies: number[]; rps: number[]; errors: number; rounds: { p50: number; p99: number }[] }
  >;
};

const stat = (level: Level, c: Contender) => {
  const { latencies, rps } = level.runs[c];
  return {
    p50: median(latencies),
    p99: percentile(latencies, 99),
    rps: median(rps),
  };
};

export async function relayAgainstFloor(
  servers: RelayServers,
  users: readonly BenchUser[],
  mode: Mode,
  charts: Chart[],
): Promise<Section> {
  const next = requestFor(users);
  const levels = mode.quick ? [1, 32, 64] : [1, 4, 16, 32, 64, 256];
  const rounds = mode.quick ? 1 : 7;
  const roundMs = mode.quick ? 400 : 1_000;
  // Warm-up: every user once through each (ownership cached, connections open), then a short run.
  for (const c of CONTENDERS) {
    await runLoad({ url: servers[c], connections: 8, amount: users.length, next });
    await runLoad({ url: servers[c], connections: 16, durationMs: 500, next });
  }
  const measured: Level[] = [];
  let errors = 0;
  for (const connections of levels) {
    const level: Level = {
      connections,
      runs: {
        floor: { latencies: [], rps: [], errors: 0, rounds: [] },
        relay: { latencies: [], rps: [], errors: 0, rounds: [] },
        relayRedis: { latencies: [], rps: [], errors: 0, rounds: [] },
      },
    };
    for (let round = 0; round < rounds; round++) {
      // A different order each round, so that drift in the machine's load hits each alike.
      const order = CONTENDERS.map((_, i) => CONTENDERS[(i + round) % CONTENDERS.length]!);
      for (const c of order) {
        // A full collection in the relays' and floor's process first: each round starts on a
        // clean heap and pays for its own garbage, not for what the one before it left.
        await collect(servers);
        const run: LoadResult = await runLoad({
          url: servers[c],
          connections,
          durationMs: roundMs,
          next,
          openFirst: true,
        });
        const into = level.runs[c];
        for (const ms of run.latencies) into.latencies.push(ms);
        into.rps.push(run.rps);
        into.rounds.push({ p50: median(run.latencies), p99: percentile(run.latencies, 99) });
        into.errors += run.errors;
        errors += run.errors;
      }
    }
    measured.push(level);
  }

  // Each ratio is taken round by round, the contender against the floor measured beside it in
  // the same round, and summarised by its median over the rounds: a burst of other load on the
  // machine moves one round's pair, not the figure (pooled figures would carry it whole).
  const ratios = (c: Exclude<Contender, "floor">) =>
    measured.map((level) => {
      const floor = level.runs.floor;
      const ours = level.runs[c];
      const per = (f: (run: typeof ours, i: number) => number) =>
        median(ours.rounds.map((_, i) => f(ours, i) / f(floor, i)));
      return {
        connections: level.connections,
        p50: per((run, i) => run.rounds[i]!.p50),
        p99: per((run, i) => run.rounds[i]!.p99),
        rps: per((run, i) => run.rps[i]!),
      };
    });
  const targets: Target[] = [];
  for (const c of ["relay", "relayRedis"] as const) {
    const r = ratios(c);
    const store = c === "relay" ? "in-memory" : "Redis";
    targets.push(
      {
        label: `Relay ÷ floor p50, worst level (${store} stores)`,
        value: Math.max(...r.map((x) => x.p50)),
        unit: "×",
        kind: "max",
        bound: 1.2,
      },
      {
        label: `Relay ÷ floor p99, worst level (${store} stores)`,
        value: Math.max(...r.map((x) => x.p99)),
        unit: "×",
        kind: "max",
        bound: 1.5,
      },
      {
        label: `Relay ÷ floor throughput at 32 and 64 users, lower (${store} stores)`,
        value: Math.min(
          ...r.filter((x) => x.connections === 32 || x.connections === 64).map((x) => x.rps),
        ),
        unit: "×",
        kind: "min",
        bound: 0.9,
      },
    );
  }
  targets.push({
    label: "Failed requests in the floor comparison",
    value: errors,
    unit: "",
    kind: "equal",
    bound: 0,
  });

  const ms = (level: Level, c: Contender) => {
    const s = stat(level, c);
    return `${s.p50.toFixed(2)} / ${s.p99.toFixed(2)}`;
  };
  const memoryRatios = ratios("relay");
  const redisRatios = ratios("relayRedis");
  charts.push({
    file: "relay-concurrency.svg",
    alt: "Relay and its floor: p50 latency against concurrent users",
    svg: lineChart(
      "p50 latency against concurrent users (loopback)",
      { x: "concurrent users (connections)", y: "p50 ms", logY: true },
      CONTENDERS.map((c) => ({
        name: NAMES[c],
        points: measured.map((level) => [level.connections, stat(level, c).p50] as const),
      })),
    ),
  });
  return {
    title: "Relay against a bare pass-through",
    method: `The floor is the least a forwarder does, in the relay's own process: read the body (of a method that carries one, as the relay does), add the credentials, forward with \`fetch\`, buffer the answer and pass its status, body (with its length) and content type back in one \`writeHead\`; it sets no deadline on the call. The relay adds what it is for: the user's resolution (its \`resolveUser\` reads a header, answered from Node's raw headers: behind \`toNodeHandler\` neither a web \`Request\` nor a \`Headers\` is filled), the checks of the target, path, query and forwarded headers, the route table, the ownership check (cached after each user's first request; in-process or in a real redis-server on loopback, behind a tier in memory), the rate limit (on, with a limit the load never reaches, in the same store: with Redis, leases of several hits of the user's window taken by one \`EVALSHA\` (for the asks of each turn of the event loop) and spent in memory, the next fetched ahead while a user spends them quickly, so that once a user's lease has grown, that user's requests make a Redis round trip only once in hundreds or thousands, and none waits for it; the default lease cap, the limit ÷ 32, is far above what the load takes), the deadline on each call to the service (\`timeoutMs\`, on one shared timer, ending the call by destroying its request and socket) and the answer's headers (\`Date\`, \`Cache-Control\`, \`X-Content-Type-Options\` beside the content type and length, in one \`writeHead\` as the floor's); it sends the service \`Accept\` beside the credentials. Both are served by \`node:http\` (the relay through \`toNodeHandler\`, its native path) and buffer the service's answer whole. The floor calls the service with the global \`fetch\` (undici's default dispatcher and keep-alive pool); the relay, as it does in Node when the app passes no \`fetch\`, with Node's \`http\` client over a keep-alive agent of its own (its calls in flight, and its sockets, bounded by its default \`maxConnections\`, 128, above every level here but 256). ${users.length} users; at each level that many clients each send the next request when the last is answered (keep-alive; each round's connections opened first by one request per client that is not timed, so that a round times that many users on open connections, not that many connections opened at once, which at 256 users was some 7% of a round's requests and set its p99), ${rounds} interleaved round${rounds > 1 ? "s" : ""} of ${fmt(roundMs)} ms per contender, order rotated each round, each round after a full collection in the process that serves the three (\`gc()\`, its finalizers let run), so that every round starts on a clean heap and pays for its own garbage: the floor and the relays share that heap, and without it a round could pay for the garbage the round before it left (a collection one contender's garbage made due landing in the next one's round); latencies timed with the high-resolution clock. The absolute figures pool the rounds (throughput: the median round); each ratio is taken within a round, against the floor measured beside it, and is the median over the rounds, so that other load on the machine in one round does not carry into it. Latency in ms, p50 / p99. Failed requests: ${errors}. Where the time goes: \`pnpm --filter @signet/bench relay-profile --cpu-prof --only=floor\` (then \`--only=relay\`) profiles CPU and allocations of one side under the same load, \`profile-diff\` sets the two side by side per request, and \`relay-profile --count\` counts the promises made, bytes allocated and Redis commands per request.`,
    table: {
      columns: [
        "users",
        "floor p50 / p99",
        "relay (memory) p50 / p99",
        "relay (Redis) p50 / p99",
        "floor req/s",
        "relay (memory) req/s",
        "relay (Redis) req/s",
        "÷ floor p50, p99, req/s (memory), median of rounds",
        "÷ floor p50, p99, req/s (Redis), median of rounds",
      ],
      rows: measured.map((level, i) => {
        const m = memoryRatios[i]!;
        const r = redisRatios[i]!;
        return [
          level.connections,
          ms(level, "floor"),
          ms(level, "relay"),
          ms(level, "relayRedis"),
          fmt(stat(level, "floor").rps),
          fmt(stat(level, "relay").rps),
          fmt(stat(level, "relayRedis").rps),
          `${m.p50.toFixed(2)}×, ${m.p99.toFixed(2)}×, ${m.rps.toFixed(2)}×`,
          `${r.p50.toFixed(2)}×, ${r.p99.toFixed(2)}×, ${r.rps.toFixed(2)}×`,
        ];
      }),
    },
    targets,
    charts: [
      {
        file: "relay-concurrency.svg",
        alt: "Relay and its floor: p50 latency against concurrent users",
      },
    ],
  };
}

/** The most a relay's retained heap may grow over the run and still read as flat, MiB. */
const FLAT_MIB = 1;

/** Least-squares slope of y over x. */
function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export async function relayMemory(
  relayUrl: string,
  users: readonly BenchUser[],
  mode: Mode,
  quietMs: number,
): Promise<Section> {
  const total = mode.quick ? 5_000 : 100_000;
  const checkpoints = mode.quick ? 3 : 10;
  const next = requestFor(users);
  // Read after a quiet period longer than the relay's upstream timeout, so that nothing a request
  // started is still pending (a deadline, a socket closing) when the heap is read.
  const retained = async () => {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    return ((await (await fetch(`${relayUrl}/__memory`)).json()) as { heapUsed: number }).heapUsed;
  };
  const points: [number, number][] = [[0, await retained()]];
  let errors = 0;
  for (let i = 1; i <= checkpoints; i++) {
    const run = await runLoad({
      url: relayUrl,
      connections: 16,
      amount: total / checkpoints,
      next,
    });
    errors += run.errors;
    points.push([(i * total) / checkpoints, await retained()]);
  }
  // The first part fills what a warm relay holds (caches, pools, compiled code); the slope over
  // the rest is what the relay keeps per request, read as growth over the whole run.
  const steady = points.slice(1);
  const growth = slope(steady) * total;
  const mib = (bytes: number) => bytes / 2 ** 20;
  const heaps = steady.map(([, y]) => y);
  const flat = mib(growth) <= FLAT_MIB;
  return {
    title: "Relay memory",
    method: `${fmt(total)} requests through one relay alone in its process (in-memory stores, 16 clients, ${users.length} users), in ${checkpoints} parts; after each, a quiet ${fmt(quietMs / 1000, 1)} s (longer than that relay's upstream timeout and than the idle life of a keep-alive connection, so that nothing a request started is pending and no idle connection to the service is left open), then the heap in use after full collections repeated until it stops shrinking, each the inspector's \`HeapProfiler.collectGarbage\` (every collection V8 can make, as before a heap snapshot: a plain \`gc()\` keeps or drops V8's own caches by its timing, which swung the checkpoints by 3 MiB either way). The figure is the least-squares slope through the checkpoints after the first part (which fills what a warm relay holds), read as growth over the whole run: a leak shows as a slope, and the collector's timing cannot move a figure taken after it has run to the end. Flat means a fitted growth of at most ${FLAT_MIB} MiB over the run (about ${fmt((FLAT_MIB * 2 ** 20) / total)} bytes a request). Failed requests: ${errors}.`,
    table: {
      columns: ["after requests", "retained heap, MiB"],
      rows: points.map(([n, bytes]) => [fmt(n), mib(bytes).toFixed(2)]),
    },
    targets: [
      {
        label: `Relay retained heap growth, fitted, over ${fmt(total)} requests (flat)`,
        value: mib(growth),
        unit: " MiB",
        kind: "max",
        bound: FLAT_MIB,
      },
    ],
    charts: [],
    notes: [
      `Verdict: ${flat ? "flat" : "**not flat**"}: fitted growth ${mib(growth).toFixed(2)} MiB over ${fmt(total)} requests against a threshold of ${FLAT_MIB} MiB.`,
      `Spread of the retained heap across the checkpoints after the first: ${mib(Math.max(...heaps) - Math.min(...heaps)).toFixed(2)} MiB.`,
    ],
  };
}
