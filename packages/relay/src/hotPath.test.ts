// What the relay's hot path keeps bounded or avoids: calls in flight to the service (the
// keep-alive pool's bound, `maxConnections`) and reads of a shared ownership store (a tier in
// memory in front of it), each against the stand-in service over real HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Customer,
  type RunningRelay,
  type StubService,
  serveRelay,
  startStubService,
} from "../../test/src/stubService.js";
import { type CreateRelayOptions, createRelay } from "./createRelay.js";
import type { OwnershipCache } from "./ownership.js";

let stub: StubService;
let a: Customer;
const running: RunningRelay[] = [];

beforeAll(async () => {
  stub = await startStubService();
  [a] = stub.customers as [Customer];
});
afterAll(async () => {
  for (const relay of running) await relay.close();
  await stub.close();
});
beforeEach(() => {
  stub.requests.length = 0;
  stub.override = undefined;
});

async function start(options: Partial<CreateRelayOptions>): Promise<string> {
  const relay = await serveRelay(
    createRelay({
      baseUrl: stub.url,
      tokenId: "token",
      clientSecret: "secret",
      resolveUser: (request) => {
        const user = request.headers.get("x-user");
        return user ? { customerId: user } : null;
      },
      ...options,
    }),
  );
  running.push(relay);
  return `${relay.url}/api/grid`;
}

const readQuote = (api: string) =>
  fetch(`${api}/quotes/${encodeURIComponent(a.quote)}`, { headers: { "x-user": a.customerId } });

describe("maxConnections", () => {
  it("never has more calls in flight to the service than the bound; the others wait and pass", async () => {
    const api = await start({ maxConnections: 2 });
    expect((await readQuote(api)).status).toBe(200); // ownership learnt: one call per read now
    let inFlight = 0;
    let most = 0;
    stub.override = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 40));
      inFlight--;
      return false;
    };
    const answers = await Promise.all(Array.from({ length: 8 }, () => readQuote(api)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(most).toBe(2);
  });

  it("counts the wait for a free slot against timeoutMs: 504, not a hang", async () => {
    const api = await start({ maxConnections: 1, timeoutMs: 300 });
    expect((await readQuote(api)).status).toBe(200);
    stub.override = async () => {
      await new Promise((resolve) => setTimeout(resolve, 250));
      return false;
    };
    const [first, second] = await Promise.all([readQuote(api), readQuote(api)]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(504);
    expect(await second.json()).toMatchObject({ code: "UPSTREAM_TIMEOUT" });
  });

  it("is checked at creation", () => {
    for (const maxConnections of [0, -1, 1.5, Number.NaN]) {
      expect(() =>
        createRelay({
          baseUrl: stub.url,
          tokenId: "t",
          clientSecret: "s",
          resolveUser: () => null,
          maxConnections,
        }),
      ).toThrow(/"maxConnections" expected a positive integer/);
    }
  });

  it("refuses a deadline no timer can keep, and a rate limit no store can count", () => {
    const base = { baseUrl: stub.url, tokenId: "t", clientSecret: "s", resolveUser: () => null };
    for (const timeoutMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => createRelay({ ...base, timeoutMs })).toThrow(/"timeoutMs" expected/);
    }
    for (const limit of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createRelay({ ...base, rateLimit: { limit } })).toThrow(
        /"rateLimit.limit" expected a positive integer/,
      );
    }
    for (const windowMs of [0, 0.5, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createRelay({ ...base, rateLimit: { windowMs } })).toThrow(
        /"rateLimit.windowMs" expected/,
      );
    }
    // Off: nothing to count, nothing to check.
    expect(() => createRelay({ ...base, rateLimit: false, timeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });
});

describe("a shared ownership cache", () => {
  /** A store in another process, as Redis is: every read and write is counted. */
  function sharedStore() {
    const facts = new Map<string, string>();
    const counts = { get: 0, set: 0 };
    const cache: OwnershipCache = {
      async get(key) {
        counts.get++;
        return facts.get(key);
      },
      async set(key, value) {
        counts.set++;
        facts.set(key, value);
      },
    };
    return { cache, facts, counts };
  }

  it("is read once per fact per instance, the memory tier answering after that", async () => {
    const shared = sharedStore();
    const api = await start({ ownershipCache: shared.cache });
    expect((await readQuote(api)).status).toBe(200);
    // The first read misses the quote and its account, learns both and writes both for the others.
    const first = { ...shared.counts };
    expect(first.get).toBeGreaterThan(0);
    expect(first.set).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) expect((await readQuote(api)).status).toBe(200);
    expect(shared.counts).toEqual(first);
    // And no lookup after the first: each later read is the forwarded call alone.
    expect(stub.requests.filter((r) => r.url.startsWith("/quotes/")).length).toBe(6);
  });

  it("finds a fact another instance wrote, without a lookup of its own", async () => {
    const shared = sharedStore();
    shared.facts.set(`owner:${a.quote}`, a.customerId);
    const api = await start({ ownershipCache: shared.cache });
    expect((await readQuote(api)).status).toBe(200);
    expect((await readQuote(api)).status).toBe(200);
    expect(shared.counts.get).toBe(1);
    expect(stub.requests.map((r) => r.url.split("?")[0])).toEqual([
      `/quotes/${a.quote}`,
      `/quotes/${a.quote}`,
    ]);
  });

  it("keeps refusing an id the store says is another customer's", async () => {
    const shared = sharedStore();
    shared.facts.set(`owner:${a.quote}`, "Customer:00000000-0000-4000-8000-000000000000");
    const api = await start({ ownershipCache: shared.cache });
    expect((await readQuote(api)).status).toBe(403);
    expect((await readQuote(api)).status).toBe(403);
    expect(stub.requests).toHaveLength(0);
  });
});
