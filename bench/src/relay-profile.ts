// `pnpm --filter @signet/bench relay-profile [--cpu-prof] [--levels=1,32,64] [--ms=1500]
// [--rounds=2] [--only=floor,relay,relayRedis] [--count] [--gc [--amount=3000]]`: the relay beside its floor (relayFloor.ts)
// without the rest of the relay bench, for profiling and quick iteration. With `--cpu-prof` the
// relay process profiles the measured load (after the warm-up) into bench/.profile/ (open it in
// Chrome DevTools' Performance panel, or compare two with `profile-diff`); with `--only=` just those
// contenders are loaded, so that a profile holds one side's work alone. The requests each served
// are printed last, for a per-request reading of its profile.
import { mkdirSync } from "node:fs";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { startRedis } from "../../packages/relay/test/redisServer.js";
import { runLoad } from "./load.js";
import { createBenchUsers, startServer } from "./relay.js";
import { type BenchUser, requestFor } from "./relayFloor.js";
import { median, percentile } from "./stats.js";

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const levels = (flag("levels") ?? "1,32,64").split(",").map(Number);
const roundMs = Number(flag("ms") ?? 1500);
const rounds = Number(flag("rounds") ?? 2);
const profileDir = fileURLToPath(new URL("../.profile", import.meta.url));
const profiling = args.includes("--cpu-prof");
if (profiling) mkdirSync(profileDir, { recursive: true });

const redis = await startRedis();

/**
 * Commands the relay has sent redis-server so far (`INFO commandstats`): its scripts, reads and
 * writes, each a round trip (the INCR, PEXPIRE and PTTL a script runs inside Redis are counted
 * under their own names, and left out).
 */
const RELAY_COMMANDS = new Set(["eval", "evalsha", "get", "set"]);

function redisCommands(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      // A bulk reply: `$<length>\r\n<body>\r\n`; complete once the body is in.
      const header = /^\$(\d+)\r\n/.exec(text);
      if (header === null || text.length < header[0].length + Number(header[1]) + 2) return;
      socket.end();
      let calls = 0;
      for (const [, name, n] of text.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm))
        if (RELAY_COMMANDS.has(name!)) calls += Number(n);
      resolve(calls);
    });
    socket.on("error", reject);
    socket.write("INFO commandstats\r\n");
  });
}
const emulator = await startServer(["emulator"]);
// `--count`: promises and allocation per request, in batches with no collection inside (a young
// generation of 256 MiB semi-spaces), each contender alone, sequentially (1 user) and at 32 users;
// and the Redis commands (round trips) per request, from redis-server's own count.
const counting = args.includes("--count");
// `--gc`: the collections each contender causes in the relay's process (default heap), per 1,000
// requests after a full collection: scavenges and mark-compacts, their mean and longest pauses.
const gcReading = args.includes("--gc");
const relay = await startServer(
  ["relay", emulator.url, String(redis.port)],
  counting ? ["--min-semi-space-size=256", "--max-semi-space-size=256"] : [],
  {
    ...process.env,
    ...(counting ? { SIGNET_BENCH_COUNT: "1" } : {}),
    ...(gcReading ? { SIGNET_BENCH_GC: "1" } : {}),
  },
);
try {
  const users: BenchUser[] = await createBenchUsers(emulator.url, 64);
  const next = requestFor(users);
  const servers = { floor: relay.floorUrl!, relay: relay.url, relayRedis: relay.redisUrl! };
  const all = ["floor", "relay", "relayRedis"] as const;
  const only = flag("only")?.split(",");
  const names = all.filter((c) => only === undefined || only.includes(c));
  const served: Record<string, number> = {};
  // The relay process's CPU time, which the machine's other load inflates less than latency.
  const cpu = async () => Number(await (await fetch(`${servers.floor}/__cpu`)).text());
  for (const c of names) {
    await runLoad({ url: servers[c], connections: 8, amount: users.length, next });
    await runLoad({ url: servers[c], connections: 16, durationMs: 500, next });
  }
  if (counting) {
    type Counters = { cpu: number; heap: number; gcs: number; promises: number };
    const read = async () =>
      (await (await fetch(`${servers.floor}/__counters`)).json()) as Counters;
    for (const connections of levels) {
      for (const c of names) {
        const per: string[] = [];
        for (let batch = 0; batch < 3; batch++) {
          const before = await read();
          const commandsBefore = await redisCommands(redis.port);
          const run = await runLoad({ url: servers[c], connections, amount: 1_000, next });
          const after = await read();
          const commands = (await redisCommands(redis.port)) - commandsBefore;
          const n = run.latencies.length;
          // The counters' own request is one of the batch's promises and allocations: negligible.
          per.push(
            `${((after.cpu - before.cpu) / n).toFixed(0)} µs cpu, ${after.gcs === before.gcs ? `${((after.heap - before.heap) / n / 1024).toFixed(2)} KiB` : "(gc ran)"}, ${((after.promises - before.promises) / n).toFixed(2)} promises, ${(commands / n).toFixed(2)} Redis commands`,
          );
        }
        console.log(`${connections} ${c}: ${per.join(" | ")}`);
      }
    }
  }
  if (gcReading) {
    type Tally = { n: number; ms: number; maxMs: number };
    const read = async () =>
      (await (await fetch(`${servers.floor}/__gc`)).json()) as { minor: Tally; major: Tally };
    const amount = Number(flag("amount") ?? 3_000);
    for (const connections of levels) {
      for (const c of names) {
        const per: string[] = [];
        for (let batch = 0; batch < 3; batch++) {
          await fetch(`${servers.floor}/__collect`);
          await read();
          const run = await runLoad({ url: servers[c], connections, amount, next });
          const { minor, major } = await read();
          const k = 1000 / run.latencies.length;
          const mean = (t: Tally) => (t.n === 0 ? 0 : t.ms / t.n);
          per.push(
            `${(minor.n * k).toFixed(1)} scavenges (mean ${mean(minor).toFixed(2)}, max ${minor.maxMs.toFixed(2)} ms), ${(major.n * k).toFixed(2)} mark-compacts (max ${major.maxMs.toFixed(2)} ms), p50/p99 ${median(run.latencies).toFixed(2)}/${percentile(run.latencies, 99).toFixed(2)} ms`,
          );
        }
        console.log(`${connections} ${c} per 1,000 requests: ${per.join(" | ")}`);
      }
    }
  }
  const control = (command: string) => fetch(`${servers.floor}/__profile/${command}`);
  if (profiling) await control("start");
  for (const connections of rounds > 0 ? levels : []) {
    const got = Object.fromEntries(
      names.map((c) => [c, { l: [] as number[], rps: [] as number[], errors: 0, cpu: 0 }]),
    );
    for (let round = 0; round < rounds; round++) {
      for (const [i] of names.entries()) {
        const c = names[(i + round) % names.length]!;
        // As the bench does (relayFloor.ts): each round after a full collection.
        await fetch(`${servers.floor}/__collect`);
        const before = await cpu();
        const run = await runLoad({
          url: servers[c],
          connections,
          durationMs: roundMs,
          next,
          openFirst: true,
        });
        got[c]!.cpu += (await cpu()) - before;
        got[c]!.l.push(...run.latencies);
        got[c]!.rps.push(run.rps);
        got[c]!.errors += run.errors;
        served[c] = (served[c] ?? 0) + run.latencies.length;
      }
    }
    const s = (c: string) => ({
      cpu: got[c]!.cpu / got[c]!.l.length,
      p50: median(got[c]!.l),
      p99: percentile(got[c]!.l, 99),
      rps: median(got[c]!.rps),
    });
    // Ratios against the floor when it ran, else against the first contender loaded.
    const f = s(names[0]!);
    const line = names
      .map((c) => {
        const x = s(c);
        return `${c} ${x.cpu.toFixed(0)} µs cpu/req (${(x.cpu / f.cpu).toFixed(2)}×) ${x.p50.toFixed(2)}/${x.p99.toFixed(2)} ms ${x.rps.toFixed(0)} rps (${(x.p50 / f.p50).toFixed(2)}× ${(x.p99 / f.p99).toFixed(2)}× ${(x.rps / f.rps).toFixed(2)}×) err ${got[c]!.errors}`;
      })
      .join(" | ");
    console.log(`${connections}: ${line}`);
  }
  if (profiling) {
    const file = `${profileDir}/${names.join("+")}-${levels.join(",")}.cpuprofile`;
    await control(`stop:${encodeURIComponent(file)}`);
    console.log(`profile: ${file}`);
  }
  console.log(`served after the warm-up: ${JSON.stringify(served)}`);
} finally {
  const exited = new Promise((resolve) => relay.child.once("exit", resolve));
  relay.child.stdin?.end();
  emulator.child.stdin?.end();
  await exited;
  emulator.child.kill();
  await redis.stop();
}
