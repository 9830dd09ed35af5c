// Many relays as one: two relay processes behind one port share one rate limit and one ownership
// cache in a real redis-server (Debian's package, started here on 127.0.0.1); losing Redis fails
// closed for writes (503 RELAY_STORE_UNAVAILABLE) and recovers when Redis is back.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { type EmulatorServer, startEmulatorServer } from "@signet/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, killRedisServer, REDIS_SERVER, startRedisServer } from "./redisServer.js";

const ROOT = new URL("../../../", import.meta.url).pathname;
const BASIC = `Basic ${Buffer.from("emulator:emulator").toString("base64")}`;
const LIMIT = 10;

let emulator: EmulatorServer;
let redisPort: number;
let redis: ChildProcess | undefined;
const relays: { url: string; child: ChildProcess }[] = [];
let balancer: Server;
let balancerUrl: string;

async function startRedis(): Promise<void> {
  redis = await startRedisServer(redisPort);
}

const stopRedis = () => killRedisServer(redis);

async function startRelay(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", new URL("./fixtures/redisRelay.ts", import.meta.url).pathname],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        EMULATOR_URL: emulator.url,
        REDIS_PORT: String(redisPort),
        RATE_LIMIT: String(LIMIT),
      },
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`relay exited with ${code}`)));
  });
  return { url: (JSON.parse(line) as { url: string }).url, child };
}

async function platform<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: BASIC, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  return (await response.json()) as T;
}

async function newUser(): Promise<{ customerId: string; accountId: string; credentialId: string }> {
  const { id } = await platform<{ id: string }>("POST", "/customers", {
    customerType: "INDIVIDUAL",
    email: `redis-${crypto.randomUUID()}@example.com`,
    fullName: "Redis Test",
  });
  const accounts = await platform<{ data: { id: string }[] }>(
    "GET",
    `/customers/internal-accounts?customerId=${id}&type=EMBEDDED_WALLET`,
  );
  const accountId = accounts.data[0]!.id;
  const credentials = await platform<{ data: { id: string }[] }>(
    "GET",
    `/auth/credentials?accountId=${accountId}`,
  );
  return { customerId: id, accountId, credentialId: credentials.data[0]!.id };
}

const listCredentials = (base: string, user: { customerId: string; accountId: string }) =>
  fetch(`${base}/api/grid/auth/credentials?accountId=${encodeURIComponent(user.accountId)}`, {
    headers: { "x-test-customer": user.customerId },
  });

/** A write: a new OTP challenge for the user's email credential. */
const challenge = (base: string, user: { customerId: string; credentialId: string }) =>
  fetch(`${base}/api/grid/auth/credentials/${encodeURIComponent(user.credentialId)}/challenge`, {
    method: "POST",
    headers: { "x-test-customer": user.customerId, "content-type": "application/json" },
    body: "{}",
  });

async function lookups(): Promise<number> {
  const log = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
    data: { method: string; path: string }[];
  };
  return log.data.filter((r) => r.path.startsWith("/customers/internal-accounts")).length;
}

beforeAll(async () => {
  try {
    execFileSync(REDIS_SERVER, ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error(
      "redis-server is not installed: `apt-get install redis-server` (.ci/run does it), or set REDIS_SERVER_PATH",
    );
  }
  emulator = await startEmulatorServer({ port: 0 });
  redisPort = await freePort();
  await startRedis();
  relays.push(await startRelay(), await startRelay());
  // One port in front of both, round robin: what a load balancer does.
  let turn = 0;
  balancer = createServer((req, res) => {
    const target = new URL(relays[turn++ % relays.length]!.url);
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => balancer.listen(0, "127.0.0.1", resolve));
  balancerUrl = `http://127.0.0.1:${(balancer.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  for (const relay of relays) {
    relay.child.stdin?.end();
    relay.child.kill();
  }
  balancer?.close();
  balancer?.closeAllConnections();
  await stopRedis();
  await emulator?.close();
});

describe("relays sharing Redis", () => {
  it(`two relays behind one port enforce one limit of ${LIMIT} per user, not one each`, async () => {
    const user = await newUser();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 6; i++) {
      const response = await listCredentials(balancerUrl, user);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
  });

  it("an ownership fact learnt by one relay is used by the other (one lookup for both)", async () => {
    const user = await newUser();
    await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
    const [a, b] = relays as [(typeof relays)[0], (typeof relays)[0]];
    expect((await listCredentials(a.url, user)).status).toBe(200);
    expect((await listCredentials(b.url, user)).status).toBe(200);
    expect((await listCredentials(b.url, user)).status).toBe(200);
    expect(await lookups()).toBe(1);
  });

  it("losing Redis: writes get a typed 503, reads go on; both work again when Redis is back", async () => {
    const user = await newUser();
    const relay = relays[0]!.url;
    expect((await challenge(relay, user)).status).toBe(200);
    await stopRedis();

    const write = await challenge(relay, user);
    expect(write.status).toBe(503);
    expect(write.headers.get("retry-after")).toBe("1");
    const body = (await write.json()) as { code: string; message: string };
    expect(body.code).toBe("RELAY_STORE_UNAVAILABLE");
    expect(body.message).not.toMatch(/127\.0\.0\.1|redis/i);
    const read = await listCredentials(relay, user);
    expect(read.status).toBe(200);

    await startRedis();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await challenge(relay, user)).status;
    }
    expect(status).toBe(200);
  }, 30_000);
});
