// Servers for the relay benchmark, each role in a process of its own so that its memory and event
// loop are its own:
//   emulator                               the emulator.
//   relay <emulatorUrl> [redisPort]        in one process: the relay with in-memory stores, the
//                                          relay with Redis stores (when a port is given) and the
//                                          floor, a bare pass-through that adds the credentials
//                                          and forwards with `fetch`.
//   memory-relay <emulatorUrl>             the relay with in-memory stores alone; `GET /__memory`
//                                          answers the heap after full garbage collections,
//                                          `GET /__snapshot/<file>` writes a heap snapshot.
// Users are named by the `x-bench-customer` header. Every server binds 127.0.0.1 on a free port;
// the role prints its URLs as JSON on one line and exits when stdin closes.

import { createHook } from "node:async_hooks";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Session } from "node:inspector";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { PerformanceObserver } from "node:perf_hooks";
import { setImmediate } from "node:timers/promises";
import { getHeapSpaceStatistics } from "node:v8";
import { startEmulatorServer } from "@signet/emulator";
import { type CreateRelayOptions, createRelay, toNodeHandler } from "@signet/relay";
import { createRedisStores, type RedisClientLike } from "@signet/relay/redis";
import { MEMORY_TIMEOUT_MS } from "./relayFloor.js";

export const USER_HEADER = "x-bench-customer";
export const BASE_PATH = "/api/grid";
const AUTH = `Basic ${Buffer.from("emulator:emulator").toString("base64")}`;
const [role, emulatorUrl, redisPort] = process.argv.slice(2);
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();

const listen = (server: Server): Promise<string> =>
  new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

// The least a forwarder does: read the body, add the credentials, forward with `fetch`, pass the
// status, the body bytes and the content type back. The body is read for a method that carries
// one, as the relay reads it: iterating a GET's empty stream is work the relay does not do, and
// counting it would flatter the relay.
async function floor(req: IncomingMessage, res: ServerResponse, baseUrl: string): Promise<void> {
  const chunks: Buffer[] = [];
  if (req.method !== "GET" && req.method !== "HEAD") {
    for await (const chunk of req) chunks.push(chunk as Buffer);
  }
  const headers: Record<string, string> = { authorization: AUTH };
  for (const name of ["content-type", "grid-wallet-signature", "request-id", "idempotency-key"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  try {
    const upstream = await fetch(`${baseUrl}${(req.url ?? "/").slice(BASE_PATH.length)}`, {
      method: req.method ?? "GET",
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    // The length given, as the relay gives it: without it `writeHead` frames the body as chunks,
    // which is not the framing the relay answers with.
    res
      .writeHead(upstream.status, {
        "content-type": upstream.headers.get("content-type") ?? "application/json",
        "content-length": String(body.byteLength),
      })
      .end(body);
  } catch {
    res.writeHead(502).end();
  }
}

// Heap in use after full collections until it stops shrinking (at most 5): one collection can
// leave garbage that a finalizer or a weak reference releases only on the next. Each is the
// inspector's `HeapProfiler.collectGarbage` (DevTools' "collect garbage", what a heap snapshot
// runs first): every collection V8 can make, which also drops what it keeps only while memory
// is plentiful; a plain `gc()` keeps or drops that by its own timing, megabytes either way.
async function retainedHeap(): Promise<number> {
  if (!(globalThis as { gc?: unknown }).gc) throw new Error("run with --expose-gc");
  const session = new Session();
  session.connect();
  const collect = () =>
    new Promise<void>((resolve, reject) =>
      session.post("HeapProfiler.collectGarbage", (error) => (error ? reject(error) : resolve())),
    );
  try {
    let last = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i++) {
      await collect();
      await setImmediate();
      const used = process.memoryUsage().heapUsed;
      if (used >= last) return Math.min(used, last);
      last = used;
    }
    return last;
  } finally {
    session.disconnect();
  }
}

const counters = { gcs: 0, promises: 0 };
if (process.env.SIGNET_BENCH_COUNT === "1") {
  new PerformanceObserver((list) => {
    counters.gcs += list.getEntries().length;
  }).observe({ entryTypes: ["gc"] });
  // Every promise made is a microtask to settle and an object to collect: counted by kind.
  createHook({
    init(_id, type) {
      if (type === "PROMISE") counters.promises++;
    },
  }).enable();
}

// Collections by kind, for a reading of where the tail comes from (relay-profile.ts --gc):
// scavenges (minor) and mark-compacts (major), how many and how long each paused the process,
// since the last read.
type GcTally = { n: number; ms: number; maxMs: number };
const gcLog = { minor: { n: 0, ms: 0, maxMs: 0 }, major: { n: 0, ms: 0, maxMs: 0 } };
if (process.env.SIGNET_BENCH_GC === "1") {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      // NODE_PERFORMANCE_GC_MINOR = 1, _MAJOR = 4 (incremental marking and weak callbacks are
      // steps of a major one).
      const tally: GcTally | undefined =
        kind === 1 ? gcLog.minor : kind === 4 ? gcLog.major : undefined;
      if (tally === undefined) continue;
      tally.n++;
      tally.ms += entry.duration;
      tally.maxMs = Math.max(tally.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ["gc"] });
}

let profiler: Session | undefined;

/** `start`, or `stop:<file>` to write the profile taken since `start` into that file. */
async function profile(command: string): Promise<void> {
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      profiler!.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  if (command === "start") {
    profiler = new Session();
    profiler.connect();
    await post("Profiler.enable");
    await post("Profiler.setSamplingInterval", { interval: 100 });
    await post("Profiler.start");
    // Allocations too (collected ones included): sampled, one per 512 bytes on average.
    await post("HeapProfiler.startSampling", {
      samplingInterval: 512,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    return;
  }
  const file = decodeURIComponent(command.slice("stop:".length));
  const { profile: heap } = (await post("HeapProfiler.stopSampling")) as { profile: object };
  writeFileSync(file.replace(/\.cpuprofile$/, ".heapprofile"), JSON.stringify(heap));
  const { profile } = (await post("Profiler.stop")) as { profile: object };
  writeFileSync(file, JSON.stringify(profile));
  profiler!.disconnect();
  profiler = undefined;
}

function relayOptions(baseUrl: string, stores?: ReturnType<typeof createRedisStores>) {
  return {
    baseUrl,
    tokenId: "emulator",
    clientSecret: "emulator",
    resolveUser: (request) => {
      const customerId = request.headers.get(USER_HEADER);
      return customerId ? { customerId } : null;
    },
    // The limiter runs on every request, as deployed, with a limit the load never reaches.
    rateLimit: { limit: 1e9, windowMs: 60_000, ...(stores ? { store: stores.rateLimit } : {}) },
    ...(stores ? { ownershipCache: stores.ownershipCache } : {}),
  } satisfies CreateRelayOptions;
}

async function redisStores(port: number) {
  // ioredis as @signet/relay's own tests use it (its devDependency), so that the bench adds none.
  const require = createRequire(
    createRequire(import.meta.url).resolve("@signet/relay/package.json"),
  );
  const { Redis } = require("ioredis") as {
    Redis: new (options: object) => RedisClientLike & { on(event: string, f: () => void): void };
  };
  const client = new Redis({
    host: "127.0.0.1",
    port,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
  });
  client.on("error", () => {});
  await new Promise<void>((resolve) => client.on("ready", resolve));
  return createRedisStores(client, { commandTimeoutMs: 1_000 });
}

if (role === "emulator") {
  const emulator = await startEmulatorServer({ port: 0 });
  console.log(JSON.stringify({ url: emulator.url }));
} else if (role === "memory-relay" && emulatorUrl) {
  // Alone in its process, so that its heap is the relay's. Its upstream timeout is short: each
  // request's deadline is held until it would fire, and the heap is read after a quiet period
  // longer than it (relayFloor.ts).
  const relay = toNodeHandler(
    createRelay({ ...relayOptions(emulatorUrl), timeoutMs: MEMORY_TIMEOUT_MS }),
  ) as (req: IncomingMessage, res: ServerResponse) => void;
  const url = await listen(
    createServer((req, res) => {
      // A heap snapshot after the same full collections, into the file named (profile-diff
      // compares two by what they retain): what a growth between two checkpoints is made of.
      if (req.url?.startsWith("/__snapshot/")) {
        retainedHeap().then(async () => {
          const { writeHeapSnapshot } = await import("node:v8");
          writeHeapSnapshot(decodeURIComponent(req.url!.slice("/__snapshot/".length)));
          res.writeHead(204).end();
        });
        return;
      }
      if (req.url === "/__memory") {
        retainedHeap().then((heapUsed) =>
          res.writeHead(200, { "content-type": "application/json" }).end(
            JSON.stringify({
              heapUsed,
              // Where it is, for a look at a growth: code, old objects, large objects…
              spaces: Object.fromEntries(
                getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]),
              ),
            }),
          ),
        );
        return;
      }
      relay(req, res);
    }),
  );
  console.log(JSON.stringify({ url }));
} else if (role === "relay" && emulatorUrl) {
  const relayUrl = await listen(
    createServer(toNodeHandler(createRelay(relayOptions(emulatorUrl))) as never),
  );
  let redisUrl: string | undefined;
  if (redisPort) {
    const stores = await redisStores(Number(redisPort));
    const handler = toNodeHandler(createRelay(relayOptions(emulatorUrl, stores))) as never;
    redisUrl = await listen(createServer(handler));
  }
  const floorUrl = await listen(
    createServer((req, res) => {
      // This process's CPU time (user + system, µs), for CPU per request (relay-profile.ts).
      if (req.url === "/__cpu") {
        const { user, system } = process.cpuUsage();
        res.writeHead(200, { "content-type": "application/json" }).end(String(user + system));
        return;
      }
      // Counters for a per-request reading (relay-profile.ts --count): CPU time, the heap in use
      // (with a young generation large enough that no collection runs within a batch, its growth
      // is what the batch allocated), collections seen, and promises created.
      if (req.url === "/__counters") {
        const { user, system } = process.cpuUsage();
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            cpu: user + system,
            heap: process.memoryUsage().heapUsed,
            gcs: counters.gcs,
            promises: counters.promises,
          }),
        );
        return;
      }
      // The collections since the last read (relay-profile.ts --gc).
      if (req.url === "/__gc") {
        // Read after the load's last answer: a collection it caused is reported a moment later.
        setTimeout(() => {
          const body = JSON.stringify(gcLog);
          for (const tally of [gcLog.minor, gcLog.major])
            Object.assign(tally, { n: 0, ms: 0, maxMs: 0 });
          res.writeHead(200, { "content-type": "application/json" }).end(body);
        }, 20);
        return;
      }
      // A full collection now, so that a round starts on a clean heap: the garbage one contender
      // left is collected before the next one's round, not in it (relayFloor.ts).
      if (req.url === "/__collect") {
        const gc = (globalThis as { gc?: () => void }).gc;
        if (gc === undefined) {
          res.writeHead(500).end("run with --expose-gc");
          return;
        }
        gc();
        // The finalizers a collection schedules (undici's, for each response and each signal it
        // followed) run as tasks after it: they run here, not in the next round.
        setTimeout(() => res.writeHead(204).end(), 50);
        return;
      }
      // A CPU profile of this process over the measured load only (relay-profile.ts --cpu-prof),
      // without the start-up and module loading a whole-process profile is dominated by.
      if (req.url?.startsWith("/__profile/")) {
        void profile(req.url.slice("/__profile/".length)).then(
          () => res.writeHead(204).end(),
          () => res.writeHead(500).end(),
        );
        return;
      }
      void floor(req, res, emulatorUrl);
    }),
  );
  console.log(JSON.stringify({ url: relayUrl, redisUrl, floorUrl }));
} else {
  console.error("usage: servers.ts emulator | relay <emulatorUrl> [redisPort]");
  process.exit(2);
}
