// What the relay's hot path keeps bounded or avoids: calls in flight to the service (the
// keep-alive pool's bound, `maxConnections`) and reads of a shared ownership store (a tier in
// memory in front of it), each against the stand-in service over real HTTP.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
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

describe("a call's deadline", () => {
  /** Resolves when the service's side of `res`'s connection closes, or rejects after `ms`. */
  const closed = (res: { socket: import("node:net").Socket | null }, ms = 3_000) =>
    new Promise<void>((resolve, reject) => {
      const socket = res.socket!;
      if (socket.destroyed) return resolve();
      const timer = setTimeout(() => reject(new Error("the connection stayed open")), ms);
      socket.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
    });

  /**
   * A read through `api` that the service never answers (after one it answers, which opens the
   * connection): a 504 UPSTREAM_TIMEOUT, and the service's side of its connection closed.
   */
  const unansweredCallTimesOut = async (api: string): Promise<void> => {
    expect((await readQuote(api)).status).toBe(200);
    let socketClosed: Promise<void> | undefined;
    stub.override = (_req, res) => {
      socketClosed = closed(res);
      return true;
    };
    const response = await readQuote(api);
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ code: "UPSTREAM_TIMEOUT" });
    await socketClosed;
  };

  // Through the relay's own Node client (undici's default dispatcher in place), and through
  // Node's fetch when the app set a dispatcher of its own (the call's deadline then ends it through
  // that dispatcher, upstream.ts's CallDispatcher).
  for (const via of ["through Node's client", "through an app's own dispatcher"] as const) {
    describe(via, () => {
      const key = Symbol.for("undici.globalDispatcher.1");
      const global = globalThis as unknown as Record<symbol, object>;
      let real: object | undefined;
      let own: { close(): Promise<void> } | undefined;
      beforeEach(async () => {
        if (via === "through Node's client") return;
        // The first fetch of the process puts undici's default in place.
        if (global[key] === undefined) await fetch(stub.url).catch(() => undefined);
        real = global[key]!;
        const Agent = real.constructor as new (options: object) => { close(): Promise<void> };
        own = new Agent({ keepAliveTimeout: 4_000 });
        global[key] = own;
      });
      afterEach(async () => {
        if (real === undefined) return;
        global[key] = real;
        real = undefined;
        await own?.close();
      });

      it(`ends a call ${via} at the deadline: 504, and the connection to the service closed`, async () => {
        const api = await start({ timeoutMs: 300 });
        expect((await readQuote(api)).status).toBe(200);
        let socketClosed: Promise<void> | undefined;
        stub.override = (_req, res) => {
          socketClosed = closed(res); // never answered
          return true;
        };
        const before = stub.requests.length;
        const started = Date.now();
        const response = await readQuote(api);
        expect(response.status).toBe(504);
        expect(await response.json()).toMatchObject({
          code: "UPSTREAM_TIMEOUT",
          details: { timeoutMs: 300 },
        });
        expect(Date.now() - started).toBeLessThan(2_000);
        await socketClosed;
        // A timeout is not retried, even on a GET.
        expect(stub.requests.length).toBe(before + 1);
      });

      it(`ends a call ${via} whose answer stalls mid-body: 504, the connection closed`, async () => {
        const api = await start({ timeoutMs: 300 });
        expect((await readQuote(api)).status).toBe(200);
        let socketClosed: Promise<void> | undefined;
        stub.override = (_req, res) => {
          socketClosed = closed(res);
          res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "100" });
          res.write('{"id":'); // then nothing
          return true;
        };
        const response = await readQuote(api);
        expect(response.status).toBe(504);
        expect(await response.json()).toMatchObject({ code: "UPSTREAM_TIMEOUT" });
        await socketClosed;
      });
    });
  }

  it("answers 504 on time when the request is not sent by the deadline, and never sends it after", async () => {
    const api = await start({ timeoutMs: 200 });
    expect((await readQuote(api)).status).toBe(200);
    // Node's fetch sends through the process's global dispatcher: one that holds the relay's
    // calls to the service for a second, as a pool still connecting would.
    const key = Symbol.for("undici.globalDispatcher.1");
    const global = globalThis as unknown as Record<
      symbol,
      { dispatch(o: object, h: object): boolean }
    >;
    const real = global[key]!;
    expect(typeof real.dispatch).toBe("function");
    const origin = new URL(stub.url).origin;
    let held = 0;
    global[key] = {
      dispatch(options, handler) {
        if ((options as { origin?: unknown }).origin !== origin)
          return real.dispatch(options, handler);
        held++;
        setTimeout(() => real.dispatch(options, handler), 1_000);
        return true;
      },
    };
    try {
      const before = stub.requests.length;
      const started = Date.now();
      const response = await readQuote(api);
      expect(response.status).toBe(504);
      expect(await response.json()).toMatchObject({ code: "UPSTREAM_TIMEOUT" });
      expect(Date.now() - started).toBeLessThan(900);
      expect(held).toBe(1);
      // Once the pool gets to it, the request is aborted before it is written.
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      expect(stub.requests.length).toBe(before);
    } finally {
      global[key] = real;
    }
  });

  it("falls back to a signal when a fetch patched over Node's drops the dispatcher", async () => {
    const original = globalThis.fetch;
    const seen: RequestInit[] = [];
    // As an instrumentation or a mock might: the relay's init passed on without `dispatcher`.
    globalThis.fetch = (input, init) => {
      const { dispatcher: _dropped, ...rest } = (init ?? {}) as RequestInit & {
        dispatcher?: unknown;
      };
      seen.push(rest);
      return original(input, rest);
    };
    try {
      await unansweredCallTimesOut(await start({ timeoutMs: 300 }));
      // The call that timed out had a signal, which ended it, connection and all.
      expect(seen.at(-1)!.signal!.aborted).toBe(true);
    } finally {
      globalThis.fetch = original;
    }
  });

  it("gives a fetch of the app's own an AbortSignal that aborts at the deadline", async () => {
    const seen: RequestInit[] = [];
    const api = await start({
      timeoutMs: 300,
      fetch: (input, init) => {
        seen.push(init!);
        return fetch(input, init);
      },
    });
    await unansweredCallTimesOut(api);
    const last = seen.at(-1)!;
    expect(last.signal).toBeInstanceOf(AbortSignal);
    expect(last.signal!.aborted).toBe(true);
    expect((last.signal!.reason as Error).name).toBe("TimeoutError");
    expect("dispatcher" in last).toBe(false);
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
