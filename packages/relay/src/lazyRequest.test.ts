// Behind toNodeHandler, resolveUser gets a Request that is built only when read beyond its headers
// and method (lazyRequest.ts): it must still be a whole Request to whatever reads more of it, and
// the memory rate limit's synchronous count must never bypass a store whose `hit` an app wrapped.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type Customer,
  type RunningRelay,
  type StubService,
  serveRelay,
  startStubService,
} from "../../test/src/stubService.js";
import { type CreateRelayOptions, createRelay } from "./createRelay.js";
import { nodeRemoteAddress } from "./endUserIp.js";
import { createMemoryRateLimitStore, type RateLimitStore } from "./rateLimit.js";

let stub: StubService;
let a: Customer;
const running: RunningRelay[] = [];
const NativeRequest = globalThis.Request;
let built = 0;

// Counts the web Requests built while a test runs: the relay looks `Request` up at each use.
class CountingRequest extends NativeRequest {
  constructor(...args: ConstructorParameters<typeof Request>) {
    super(...args);
    built++;
  }
}

beforeAll(async () => {
  stub = await startStubService();
  [a] = stub.customers as [Customer];
});
afterEach(() => {
  globalThis.Request = NativeRequest;
});
afterAll(async () => {
  for (const relay of running) await relay.close();
  await stub.close();
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

const readCredentials = (api: string, headers: Record<string, string> = {}) =>
  fetch(`${api}/auth/credentials?accountId=${encodeURIComponent(a.wallet)}`, {
    headers: { "x-user": a.customerId, ...headers },
  });

describe("the Request resolveUser gets behind toNodeHandler", () => {
  it("is not built when resolveUser reads only its headers and method", async () => {
    const methods: string[] = [];
    const api = await start({
      resolveUser: (request) => {
        methods.push(request.method);
        const user = request.headers.get("x-user");
        return user ? { customerId: user } : null;
      },
    });
    expect((await readCredentials(api)).status).toBe(200);
    globalThis.Request = CountingRequest;
    built = 0;
    const response = await readCredentials(api);
    expect(response.status).toBe(200);
    expect(built).toBe(0);
    expect(methods).toEqual(["GET", "GET"]);
  });

  it("is a whole Request to anything that reads more: url, clone, new Request, its signal", async () => {
    const seen: Record<string, unknown>[] = [];
    const api = await start({
      resolveUser: async (request) => {
        const copy = new Request(request);
        const headers = request.headers;
        const clone = request.clone();
        seen.push({
          instance: request instanceof Request,
          url: request.url,
          copyUrl: copy.url,
          copyUser: copy.headers.get("x-user"),
          cloneUrl: clone.url,
          signal: request.signal instanceof AbortSignal,
          headersSame: headers === request.headers,
          has: "url" in request && "headers" in request,
          tag: Object.prototype.toString.call(request),
          peer: nodeRemoteAddress(request),
        });
        const user = request.headers.get("x-user");
        return user ? { customerId: user } : null;
      },
    });
    globalThis.Request = CountingRequest;
    built = 0;
    expect((await readCredentials(api)).status).toBe(200);
    const target = `/api/grid/auth/credentials?accountId=${encodeURIComponent(a.wallet)}`;
    expect(seen).toEqual([
      {
        instance: true,
        url: `${api.slice(0, -"/api/grid".length)}${target}`,
        copyUrl: `${api.slice(0, -"/api/grid".length)}${target}`,
        copyUser: a.customerId,
        cloneUrl: `${api.slice(0, -"/api/grid".length)}${target}`,
        signal: true,
        headersSame: true,
        has: true,
        tag: "[object Request]",
        peer: "127.0.0.1",
      },
    ]);
    // The relay's own Request, then the test's copy: the clone is no constructor call.
    expect(built).toBe(2);
  });

  it("gives a write's body to the relay, read once, when resolveUser does not touch it", async () => {
    const api = await start({});
    const response = await fetch(`${api}/auth/credentials`, {
      method: "POST",
      headers: { "x-user": a.customerId, "Content-Type": "application/json" },
      body: JSON.stringify({ type: "EMAIL_OTP", accountId: a.wallet }),
    });
    expect(response.status).toBeLessThan(300);
    const forwarded = stub.requests.at(-1);
    expect(forwarded?.method).toBe("POST");
    expect(JSON.parse(String(forwarded?.body))).toEqual({
      type: "EMAIL_OTP",
      accountId: a.wallet,
    });
  });
});

describe("the in-memory rate limit, counted without a promise", () => {
  it("still refuses past the limit with 429 and Retry-After", async () => {
    const api = await start({ rateLimit: { limit: 2, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await readCredentials(api)).status);
    const refused = await readCredentials(api);
    expect(statuses).toEqual([200, 200, 429]);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("never bypasses a memory store whose hit an app wrapped", async () => {
    const memory = createMemoryRateLimitStore();
    const keys: string[] = [];
    const store: RateLimitStore = {
      ...memory,
      hit: (key, windowMs) => {
        keys.push(key);
        return memory.hit(key, windowMs, 1); // a limit of its own, tighter than the relay's
      },
    };
    const api = await start({ rateLimit: { limit: 100, windowMs: 60_000, store } });
    expect((await readCredentials(api)).status).toBe(200);
    expect((await readCredentials(api)).status).toBe(429);
    expect(keys).toEqual([`signet-relay:${a.customerId}`, `signet-relay:${a.customerId}`]);
  });
});
