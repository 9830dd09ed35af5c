// `pnpm --filter @signet/bench relay-profile [--cpu-prof] [--levels=1,32,64] [--ms=1500]`: the
// relay beside its floor (relayFloor.ts) without the rest of the relay bench, for profiling and
// quick iteration. With `--cpu-prof` the relay process writes a V8 CPU profile into
// bench/.profile/ when it exits (open it in Chrome DevTools' Performance panel).
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runLoad } from "./load.js";
import { startRedis } from "./redisServer.js";
import { createBenchUsers, startServer } from "./relay.js";
import { type BenchUser, requestFor } from "./relayFloor.js";
import { median, percentile } from "./stats.js";

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const levels = (flag("levels") ?? "1,32,64").split(",").map(Number);
const roundMs = Number(flag("ms") ?? 1500);
const rounds = Number(flag("rounds") ?? 2);
const profileDir = fileURLToPath(new URL("../.profile", import.meta.url));
const nodeArgs = args.includes("--cpu-prof") ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
if (nodeArgs.length) mkdirSync(profileDir, { recursive: true });

const redis = await startRedis();
const emulator = await startServer(["emulator"]);
const relay = await startServer(["relay", emulator.url, String(redis.port)], nodeArgs);
try {
  const users: BenchUser[] = await createBenchUsers(emulator.url, 64);
  const next = requestFor(users);
  const servers = { floor: relay.floorUrl!, relay: relay.url, relayRedis: relay.redisUrl! };
  const names = ["floor", "relay", "relayRedis"] as const;
  // The relay process's CPU time, which the machine's other load inflates less than latency.
  const cpu = async () => Number(await (await fetch(`${servers.floor}/__cpu`)).text());
  for (const c of names) {
    await runLoad({ url: servers[c], connections: 8, amount: users.length, next });
    await runLoad({ url: servers[c], connections: 16, durationMs: 500, next });
  }
  for (const connections of levels) {
    const got = Object.fromEntries(
      names.map((c) => [c, { l: [] as number[], rps: [] as number[], errors: 0, cpu: 0 }]),
    );
    for (let round = 0; round < rounds; round++) {
      for (const [i] of names.entries()) {
        const c = names[(i + round) % names.length]!;
        const before = await cpu();
        const run = await runLoad({ url: servers[c], connections, durationMs: roundMs, next });
        got[c]!.cpu += (await cpu()) - before;
        got[c]!.l.push(...run.latencies);
        got[c]!.rps.push(run.rps);
        got[c]!.errors += run.errors;
      }
    }
    const s = (c: string) => ({
      cpu: got[c]!.cpu / got[c]!.l.length,
      p50: median(got[c]!.l),
      p99: percentile(got[c]!.l, 99),
      rps: median(got[c]!.rps),
    });
    const f = s("floor");
    const line = names
      .map((c) => {
        const x = s(c);
        return `${c} ${x.cpu.toFixed(0)} µs cpu/req (${(x.cpu / f.cpu).toFixed(2)}×) ${x.p50.toFixed(2)}/${x.p99.toFixed(2)} ms ${x.rps.toFixed(0)} rps (${(x.p50 / f.p50).toFixed(2)}× ${(x.p99 / f.p99).toFixed(2)}× ${(x.rps / f.rps).toFixed(2)}×) err ${got[c]!.errors}`;
      })
      .join(" | ");
    console.log(`${connections}: ${line}`);
  }
} finally {
  const exited = new Promise((resolve) => relay.child.once("exit", resolve));
  relay.child.stdin?.end();
  emulator.child.stdin?.end();
  await exited;
  emulator.child.kill();
  await redis.stop();
}
