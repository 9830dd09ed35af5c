// The relay's calls over Node's own http client (nodeClient.ts): what the service receives, the
// pool's bound, the deadline, connection errors, redirects, the protocol's module, and when the
// relay keeps to `fetch` instead. Real servers on 127.0.0.1, real sockets.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Customer,
  type RunningRelay,
  type StubService,
  serveRelay,
  startStubService,
} from "../../test/src/stubService.js";
import { createRelay } from "./createRelay.js";
import { createDeadlines } from "./deadlines.js";
import { RelayRefusal } from "./errors.js";
import { createNodeClient } from "./nodeClient.js";
import {
  basicAuthorization,
  callUpstream,
  createSlots,
  sendsThroughDefaults,
  type Upstream,
  type UpstreamRequest,
} from "./upstream.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

interface Service {
  url: string;
  received: { method: string; url: string; rawHeaders: string[]; body: Buffer }[];
  /** Sockets open now, and the most open at once. */
  open: Set<Socket>;
  most: number;
  connections: number;
  handler: Handler;
  close(): Promise<void>;
}

const servers: (Server | NetServer)[] = [];

async function listen(server: Server | NetServer): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

async function startService(handler: Handler): Promise<Service> {
  const server = createServer();
  const service: Service = {
    url: "",
    received: [],
    open: new Set(),
    most: 0,
    connections: 0,
    handler,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on("connection", (socket: Socket) => {
    service.connections++;
    service.open.add(socket);
    service.most = Math.max(service.most, service.open.size);
    socket.on("close", () => service.open.delete(socket));
  });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      service.received.push({
        method: req.method!,
        url: req.url!,
        rawHeaders: req.rawHeaders,
        body,
      });
      service.handler(req, res, body);
    });
  });
  service.url = `http://127.0.0.1:${await listen(server)}/grid/2025-10-13`;
  return service;
}

const answerJson: Handler = (_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end('{"ok":true}');
};

/** An upstream as createRelay builds one with no `fetch` option, whose `fetch` must not be called. */
function nodeUpstream(baseUrl: string, options: { timeoutMs?: number; max?: number } = {}) {
  const fetchCalls: string[] = [];
  const timeoutMs = options.timeoutMs ?? 5_000;
  const max = options.max ?? 8;
  const upstream: Upstream = {
    baseUrl,
    authorization: basicAuthorization("token", "secret"),
    fetch: async (input) => {
      fetchCalls.push(String(input));
      throw new Error("fetch was called");
    },
    nodeFetch: true,
    native: createNodeClient(baseUrl, max),
    timeoutMs,
    deadlines: createDeadlines(timeoutMs),
    slots: createSlots(max),
  };
  return { upstream, fetchCalls };
}

/** The same upstream calling with the global fetch (the path the node client replaces). */
function fetchUpstream(baseUrl: string): Upstream {
  return {
    baseUrl,
    authorization: basicAuthorization("token", "secret"),
    fetch: (input, init) => globalThis.fetch(input, init),
    nodeFetch: false,
    timeoutMs: 5_000,
    deadlines: createDeadlines(5_000),
    slots: createSlots(8),
  };
}

async function refusal(promise: Promise<unknown>): Promise<RelayRefusal> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RelayRefusal);
    return error as RelayRefusal;
  }
  throw new Error("the call did not fail");
}

/** Resolves when `socket` closes, or rejects after `ms`. */
const closed = (socket: Socket, ms = 3_000) =>
  new Promise<void>((resolve, reject) => {
    if (socket.destroyed) return resolve();
    const timer = setTimeout(() => reject(new Error("the connection stayed open")), ms);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });

afterAll(async () => {
  for (const server of servers) {
    (server as Server).closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("Node's client", () => {
  const post: UpstreamRequest = {
    method: "POST",
    path: "/quotes/Quote:1/execute",
    query: "a=1&b=two",
    headers: { "Content-Type": "application/json", "Idempotency-Key": "key-1" },
    body: new TextEncoder().encode('{"x":"ü"}') as Uint8Array<ArrayBuffer>,
  };

  it("sends what fetch sends: method, path, query, credentials, headers, length and body bytes", async () => {
    const service = await startService(answerJson);
    const { upstream, fetchCalls } = nodeUpstream(service.url);
    for (const request of [
      post,
      { ...post, body: undefined },
      { ...post, method: "GET", body: undefined, headers: {} },
    ]) {
      await callUpstream(upstream, request);
      await callUpstream(fetchUpstream(service.url), request);
    }
    expect(fetchCalls).toEqual([]);
    const names = [
      "authorization",
      "accept",
      "content-type",
      "content-length",
      "idempotency-key",
      "user-agent",
    ];
    const view = (raw: string[]) => {
      const picked: Record<string, string> = {};
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!.toLowerCase();
        if (names.includes(name)) picked[name] = raw[i + 1]!;
      }
      return picked;
    };
    const [nodePost, fetchPost, nodeEmpty, fetchEmpty, nodeGet, fetchGet] = service.received;
    for (const [ours, theirs] of [
      [nodePost!, fetchPost!],
      [nodeEmpty!, fetchEmpty!],
      [nodeGet!, fetchGet!],
    ] as const) {
      expect(ours.method).toBe(theirs.method);
      expect(ours.url).toBe(theirs.url);
      expect(view(ours.rawHeaders)).toEqual(view(theirs.rawHeaders));
      expect(ours.body.equals(theirs.body)).toBe(true);
    }
    expect(nodePost!.url).toBe("/grid/2025-10-13/quotes/Quote:1/execute?a=1&b=two");
    expect(view(nodePost!.rawHeaders)).toMatchObject({
      authorization: `Basic ${btoa("token:secret")}`,
      accept: "application/json",
      "content-length": String(post.body!.byteLength),
    });
    expect(view(nodeEmpty!.rawHeaders)["content-length"]).toBe("0");
    expect(view(nodeGet!.rawHeaders)["content-length"]).toBeUndefined();
    // Node's client, not fetch: none of the headers only fetch adds.
    expect(nodePost!.rawHeaders.map((name) => name.toLowerCase())).not.toContain("sec-fetch-mode");
    expect(fetchPost!.rawHeaders.map((name) => name.toLowerCase())).toContain("sec-fetch-mode");
  });

  it("buffers the answer whole, its headers read as Headers.get reads them", async () => {
    const big = `{"data":"${"x".repeat(200_000)}"}`;
    const service = await startService((_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.setHeader("Retry-After", ["1", "2"]);
      res.end(big);
    });
    const { upstream } = nodeUpstream(service.url);
    const answer = await callUpstream(upstream, { method: "GET", path: "/x", query: "" });
    expect(answer.status).toBe(200);
    expect(new TextDecoder().decode(answer.body)).toBe(big);
    expect(answer.body.byteOffset).toBe(0);
    expect(answer.body.buffer.byteLength).toBe(big.length);
    const web = await callUpstream(fetchUpstream(service.url), {
      method: "GET",
      path: "/x",
      query: "",
    });
    for (const name of ["content-type", "Retry-After", "date", "x-absent"]) {
      expect(answer.headers.get(name)).toBe(web.headers.get(name));
    }
    expect(answer.headers.get("retry-after")).toBe("1, 2");
  });

  it("never holds more than maxConnections sockets to the service, under three times as many callers, and reuses them", async () => {
    const service = await startService((req, res, body) => {
      setTimeout(() => answerJson(req, res, body), 30);
    });
    const { upstream } = nodeUpstream(service.url, { max: 2 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        callUpstream(upstream, { method: "GET", path: "/x", query: "" }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    const again = await Promise.all(
      Array.from({ length: 6 }, () =>
        callUpstream(upstream, { method: "GET", path: "/x", query: "" }),
      ),
    );
    expect(again.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(service.received).toHaveLength(12);
    expect(service.most).toBe(2);
    // Kept alive: the two sockets carried all twelve calls.
    expect(service.connections).toBe(2);
  });

  it("opens a new connection once the service closed an idle one", async () => {
    const service = await startService(answerJson);
    const server = servers.at(-1) as Server;
    server.keepAliveTimeout = 100;
    const { upstream } = nodeUpstream(service.url);
    const read = () =>
      callUpstream(upstream, {
        method: "POST",
        path: "/x",
        query: "",
        headers: { "Content-Type": "application/json" },
      });
    expect((await read()).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(service.open.size).toBe(0);
    // A POST is never retried: it passes only if the closed socket was not reused.
    expect((await read()).status).toBe(200);
    expect(service.connections).toBe(2);
  });

  it("ends a call the service does not answer at its deadline: 504, the socket closed, not retried", async () => {
    let socket: Socket | undefined;
    const service = await startService((req) => {
      socket = req.socket; // never answered
    });
    const { upstream } = nodeUpstream(service.url, { timeoutMs: 200 });
    const started = Date.now();
    const error = await refusal(callUpstream(upstream, { method: "GET", path: "/x", query: "" }));
    expect(error.code).toBe("UPSTREAM_TIMEOUT");
    expect(error.details).toEqual({ timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(1_500);
    await closed(socket!);
    expect(service.received).toHaveLength(1);
  });

  it("ends a call whose answer stalls mid-body at its deadline: 504, the socket closed", async () => {
    let socket: Socket | undefined;
    const service = await startService((req, res) => {
      socket = req.socket;
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "100" });
      res.write('{"id":'); // then nothing
    });
    const { upstream } = nodeUpstream(service.url, { timeoutMs: 200 });
    const error = await refusal(callUpstream(upstream, { method: "GET", path: "/x", query: "" }));
    expect(error.code).toBe("UPSTREAM_TIMEOUT");
    await closed(socket!);
    // The slot was given back: the next call goes through.
    service.handler = answerJson;
    expect((await callUpstream(upstream, { method: "GET", path: "/x", query: "" })).status).toBe(
      200,
    );
  });

  it("retries a GET once on a connection error, never a POST; then UPSTREAM_UNAVAILABLE (502)", async () => {
    let connections = 0;
    const reset = createNetServer((socket) => {
      connections++;
      socket.once("data", () => socket.resetAndDestroy());
    });
    const url = `http://127.0.0.1:${await listen(reset)}/grid`;
    const { upstream } = nodeUpstream(url);
    const get = await refusal(callUpstream(upstream, { method: "GET", path: "/x", query: "" }));
    expect(get.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(connections).toBe(2);
    const sent = await refusal(
      callUpstream(upstream, {
        method: "POST",
        path: "/x",
        query: "",
        headers: { "Content-Type": "application/json" },
      }),
    );
    expect(sent.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(connections).toBe(3);
    // The message names no host and no cause.
    expect(get.message).not.toMatch(/127\.0\.0\.1|ECONNRESET/);
  });

  it("answers 502 when the connection is refused", async () => {
    const gone = createNetServer();
    const port = await listen(gone);
    await new Promise((resolve) => gone.close(resolve));
    servers.splice(servers.indexOf(gone), 1);
    const { upstream } = nodeUpstream(`http://127.0.0.1:${port}/grid`);
    const error = await refusal(callUpstream(upstream, { method: "GET", path: "/x", query: "" }));
    expect(error.code).toBe("UPSTREAM_UNAVAILABLE");
  });

  it("never follows a redirect", async () => {
    const service = await startService((_req, res) => {
      res.writeHead(302, { Location: "/grid/2025-10-13/elsewhere" });
      res.end();
    });
    const { upstream } = nodeUpstream(service.url);
    const error = await refusal(callUpstream(upstream, { method: "GET", path: "/x", query: "" }));
    expect(error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(service.received.map((r) => r.url)).toEqual(["/grid/2025-10-13/x"]);
  });

  it("speaks TLS to an https base URL (the server named), and a failed handshake is a 502", async () => {
    // No certificate here to serve (none can be made without a library): the first bytes the
    // relay sends show the protocol, a TLS handshake record naming the host.
    const hellos: Buffer[] = [];
    const tls = createNetServer((socket) => {
      socket.once("data", (chunk: Buffer) => {
        hellos.push(chunk);
        socket.destroy();
      });
    });
    const port = await listen(tls);
    const { upstream, fetchCalls } = nodeUpstream(`https://localhost:${port}/grid`);
    const error = await refusal(callUpstream(upstream, { method: "GET", path: "/x", query: "" }));
    expect(error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(fetchCalls).toEqual([]);
    expect(hellos.length).toBeGreaterThanOrEqual(1);
    expect(hellos[0]![0]).toBe(0x16); // a TLS handshake record
    expect(hellos[0]!.includes(Buffer.from("localhost"))).toBe(true); // the server name (SNI)
  });
});

describe("createNodeClient", () => {
  it("is none where Node's modules cannot be reached (not Node, or Node before 20.16): fetch then", () => {
    const node = process as { getBuiltinModule?: unknown };
    const real = node.getBuiltinModule;
    expect(typeof real).toBe("function");
    node.getBuiltinModule = undefined;
    try {
      expect(createNodeClient("http://127.0.0.1:1/grid", 4)).toBeUndefined();
    } finally {
      node.getBuiltinModule = real;
    }
    expect(createNodeClient("http://127.0.0.1:1/grid", 4)).toBeDefined();
  });
});

describe("the choice of client", () => {
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
  });
  afterEach(() => {
    expect(sendsThroughDefaults()).toBe(true); // each test put back what it changed
  });

  async function start(fetchOption?: typeof fetch): Promise<string> {
    const relay = await serveRelay(
      createRelay({
        baseUrl: stub.url,
        tokenId: "token",
        clientSecret: "secret",
        resolveUser: () => ({ customerId: a.customerId }),
        ...(fetchOption === undefined ? {} : { fetch: fetchOption }),
      }),
    );
    running.push(relay);
    return `${relay.url}/api/grid`;
  }

  const readQuote = (api: string) => fetch(`${api}/quotes/${encodeURIComponent(a.quote)}`);
  const byFetch = () =>
    stub.requests.map((request) =>
      request.rawHeaders.some((name) => name.toLowerCase() === "sec-fetch-mode"),
    );

  it("is Node's client with Node's fetch and its default dispatcher", async () => {
    const api = await start();
    expect((await readQuote(api)).status).toBe(200);
    expect(stub.requests.length).toBeGreaterThan(0);
    expect(byFetch().every((fetched) => !fetched)).toBe(true);
  });

  it("is the app's fetch when it passes one", async () => {
    let calls = 0;
    const api = await start((input, init) => {
      calls++;
      return fetch(input, init);
    });
    expect((await readQuote(api)).status).toBe(200);
    expect(calls).toBe(stub.requests.length);
    expect(byFetch().every(Boolean)).toBe(true);
  });

  it("is the runtime's fetch once it is patched, even after the relay was made", async () => {
    const api = await start();
    const original = globalThis.fetch;
    let calls = 0;
    globalThis.fetch = (input, init) => {
      calls++;
      return original(input, init);
    };
    try {
      expect(sendsThroughDefaults()).toBe(false);
      const relayed = await original(`${api}/quotes/${encodeURIComponent(a.quote)}`);
      expect(relayed.status).toBe(200);
      expect(calls).toBe(stub.requests.length);
    } finally {
      globalThis.fetch = original;
    }
  });

  it("is Node's fetch through a dispatcher the app set (a proxy), even after the relay was made", async () => {
    const api = await start();
    expect((await readQuote(api)).status).toBe(200); // ownership learnt
    stub.requests.length = 0;
    const key = Symbol.for("undici.globalDispatcher.1");
    const global = globalThis as unknown as Record<
      symbol,
      { dispatch(o: object, h: object): boolean }
    >;
    const real = global[key]!;
    const origin = new URL(stub.url).origin;
    let proxied = 0;
    global[key] = {
      dispatch(options, handler) {
        if ((options as { origin?: unknown }).origin === origin) proxied++;
        return real.dispatch(options, handler);
      },
    };
    try {
      expect(sendsThroughDefaults()).toBe(false);
      expect((await readQuote(api)).status).toBe(200);
      expect(proxied).toBe(1);
      expect(byFetch()).toEqual([true]);
    } finally {
      global[key] = real;
    }
  });

  it("does not take an undici Agent with options of its own for the default", async () => {
    const key = Symbol.for("undici.globalDispatcher.1");
    const global = globalThis as unknown as Record<symbol, object>;
    const real = global[key]!;
    // The default's own class, made with an option (as `new Agent({ connect: { ca } })` would be).
    const Agent = real.constructor as new (options: object) => object;
    const configured = new Agent({ keepAliveTimeout: 1_000 });
    global[key] = configured;
    try {
      expect(sendsThroughDefaults()).toBe(false);
      global[key] = new Agent({});
      expect(sendsThroughDefaults()).toBe(true);
    } finally {
      global[key] = real;
      await (configured as { close(): Promise<void> }).close();
    }
  });
});
