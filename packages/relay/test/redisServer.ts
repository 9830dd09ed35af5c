// A real redis-server (Debian's package, or REDIS_SERVER_PATH) for the relay's Redis suites: on
// 127.0.0.1, on a free port, without persistence; killed outright to play a Redis that is lost.
// The relay benchmark (bench/) starts its Redis with this helper too.
import { type ChildProcess, spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { createInterface } from "node:readline";

export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? "redis-server";

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server on `port`; resolves once it accepts connections. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const redis = spawn(
    REDIS_SERVER,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    redis.once("error", reject);
    redis.once("exit", (code) => reject(new Error(`redis-server exited with ${code}`)));
    createInterface({ input: redis.stdout! }).on("line", (line) => {
      if (line.includes("Ready to accept connections")) resolve();
    });
  });
  return redis;
}

/** Kills `redis` (SIGKILL: lost, not shut down) and waits for it; nothing when it has ended. */
export async function killRedisServer(redis: ChildProcess | undefined): Promise<void> {
  if (!redis || redis.exitCode !== null || redis.signalCode !== null) return;
  const exited = new Promise((resolve) => redis.once("exit", resolve));
  redis.kill("SIGKILL");
  await exited;
}

/**
 * A redis-server on a free port of 127.0.0.1 (the relay benchmark's, too), with `stop` to end it;
 * nothing is persisted, so killing it loses nothing.
 */
export async function startRedis(): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const redis = await startRedisServer(port);
  return { port, stop: () => killRedisServer(redis) };
}
