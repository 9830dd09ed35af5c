// A real redis-server (Debian's package) for the relay benchmark, on 127.0.0.1 on a free port,
// without persistence, as @signet/relay's own Redis tests start it.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { createInterface } from "node:readline";

const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? "redis-server";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

export async function startRedis(): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
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
  return {
    port,
    async stop() {
      if (redis.exitCode !== null || redis.signalCode !== null) return;
      const exited = new Promise((resolve) => redis.once("exit", resolve));
      redis.kill("SIGTERM");
      await exited;
    },
  };
}
