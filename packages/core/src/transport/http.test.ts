import { afterEach, describe, expect, it, vi } from "vitest";
import { scriptedFetch } from "../../../test/src/scriptedFetch.js";
import { detailOf, isSignetError, type SignetError } from "../errors/errors.js";
import { createTransport, joinRelayUrl, type RequestEvent, requestJson } from "./http.js";

afterEach(() => {
  vi.unstubAllGlobals();
});

async function rejection(promise: Promise<unknown>): Promise<SignetError> {
  try {
    await promise;
  } catch (error) {
    if (isSignetError(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

describe("joinRelayUrl", () => {
  it("joins with exactly one slash, absolute or relative relay URLs", () => {
    expect(joinRelayUrl("https://app.example/api/grid", "/auth/credentials")).toBe(
      "https://app.example/api/grid/auth/credentials",
    );
    expect(joinRelayUrl("https://app.example/api/grid//", "/auth/sessions?accountId=a")).toBe(
      "https://app.example/api/grid/auth/sessions?accountId=a",
    );
    expect(joinRelayUrl("/api/grid", "/auth/sessions/Session:1")).toBe(
      "/api/grid/auth/sessions/Session:1",
    );
  });

  it("refuses paths that are not relative to the relay", () => {
    for (const path of ["auth/credentials", "https://evil.example/x", "//evil.example/x"]) {
      expect(() => joinRelayUrl("/api/grid", path)).toThrowError(/"path" expected/);
    }
  });
});

describe("createTransport", () => {
  it("sends the body string unchanged as application/json, with the configured headers", async () => {
    const { fetch, calls } = scriptedFetch([{ status: 200, json: { ok: true } }]);
    const transport = createTransport({
      relayUrl: "https://app.example/api/grid",
      fetch,
      headers: { Authorization: "Bearer app-token" },
    });
    const body = '{"b":1,"a":"Zoë 🔑"}';
    const response = await transport.request({ method: "POST", path: "/auth/credentials", body });
    expect(response.status).toBe(200);
    expect(response.text).toBe('{"ok":true}');
    expect(calls[0]?.url).toBe("https://app.example/api/grid/auth/credentials");
    expect(calls[0]?.body).toBe(body);
    expect(calls[0]?.headers.get("content-type")).toBe("application/json");
    expect(calls[0]?.headers.get("authorization")).toBe("Bearer app-token");
  });

  it("says JSON on every call but GET, body or not (no cross-site simple request), and calls a headers function on every request", async () => {
    const { fetch, calls } = scriptedFetch([{ status: 204 }, { status: 204 }]);
    let token = 0;
    const transport = createTransport({
      relayUrl: "/api/grid",
      fetch,
      headers: () => ({ Authorization: `Bearer ${++token}` }),
    });
    await transport.request({ method: "DELETE", path: "/auth/sessions/Session:1" });
    await transport.request({ method: "GET", path: "/auth/sessions/Session:1" });
    expect(calls[0]?.headers.get("content-type")).toBe("application/json");
    expect(calls[0]?.body).toBeUndefined();
    expect(calls[1]?.headers.get("content-type")).toBeNull();
    expect(calls.map((call) => call.headers.get("authorization"))).toEqual([
      "Bearer 1",
      "Bearer 2",
    ]);
  });

  it("resolves the global fetch at call time, not at creation", async () => {
    const transport = createTransport({ relayUrl: "https://app.example/api/grid" });
    const { fetch, calls } = scriptedFetch([{ status: 200, json: {} }]);
    vi.stubGlobal("fetch", fetch);
    await transport.request({ method: "GET", path: "/ping" });
    expect(calls).toHaveLength(1);
  });

  it("fails with INVALID_ARGUMENT when there is no fetch at all", async () => {
    vi.stubGlobal("fetch", undefined);
    const transport = createTransport({ relayUrl: "/api/grid" });
    const error = await rejection(transport.request({ method: "GET", path: "/ping" }));
    expect(error.code).toBe("INVALID_ARGUMENT");
  });

  it("maps a network failure to a retryable NETWORK error", async () => {
    const { fetch } = scriptedFetch([new TypeError("fetch failed")]);
    const error = await rejection(
      createTransport({ relayUrl: "/r", fetch }).request({ method: "GET", path: "/x" }),
    );
    expect([error.code, error.retryable]).toEqual(["NETWORK", true]);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it("never follows a redirect: a relay that took a POST and answered 307 to a dead host is no answer, and not 'never sent'", async () => {
    const { createServer } = await import("node:http");
    // A port nothing listens on: a followed redirect would fail with ECONNREFUSED, which reads
    // as "never sent".
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, "127.0.0.1", resolve));
    const deadPort = (dead.address() as { port: number }).port;
    await new Promise((resolve) => dead.close(resolve));
    let posts = 0;
    const server = createServer((request, response) => {
      if (request.method === "POST") posts += 1;
      response.writeHead(307, { Location: `http://127.0.0.1:${deadPort}/elsewhere` }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const transport = createTransport({ relayUrl: `http://127.0.0.1:${port}/api` });
      const error = await rejection(
        transport.request({ method: "POST", path: "/quotes/Quote:1/authorize", body: "{}" }),
      );
      expect(error.code).toBe("NETWORK");
      expect(detailOf(error, "sent")).not.toBe(false);
      expect(posts).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("maps the caller's abort to ABORTED, before or during the request", async () => {
    const before = new AbortController();
    before.abort();
    const { fetch, calls } = scriptedFetch([]);
    const transport = createTransport({ relayUrl: "/r", fetch });
    expect(
      (await rejection(transport.request({ method: "GET", path: "/x", signal: before.signal })))
        .code,
    ).toBe("ABORTED");
    expect(calls).toHaveLength(0);

    const during = new AbortController();
    const hanging = scriptedFetch([() => new Promise<Response>(() => {})]);
    const pending = createTransport({ relayUrl: "/r", fetch: hanging.fetch }).request({
      method: "GET",
      path: "/x",
      signal: during.signal,
    });
    setTimeout(() => during.abort(), 5);
    expect((await rejection(pending)).code).toBe("ABORTED");
  });

  it("times out per attempt with a retryable TIMEOUT even if fetch ignores the signal", async () => {
    const { fetch } = scriptedFetch([() => new Promise<Response>(() => {})]);
    const transport = createTransport({ relayUrl: "/r", fetch, timeoutMs: 20 });
    const error = await rejection(transport.request({ method: "GET", path: "/x" }));
    expect([error.code, error.retryable]).toEqual(["TIMEOUT", true]);
  });

  it("a per-request timeout only lowers the transport's limit", async () => {
    const { fetch } = scriptedFetch([() => new Promise<Response>(() => {})]);
    const transport = createTransport({ relayUrl: "/r", fetch, timeoutMs: 60_000 });
    const started = Date.now();
    const error = await rejection(transport.request({ method: "GET", path: "/x", timeoutMs: 15 }));
    expect(error.code).toBe("TIMEOUT");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("emits one redacted request event per exchange", async () => {
    const events: RequestEvent[] = [];
    let now = 1_000;
    const { fetch } = scriptedFetch([
      () => {
        now += 42;
        return new Response("{}", { status: 202 });
      },
      new TypeError("offline"),
    ]);
    const transport = createTransport({
      relayUrl: "/r",
      fetch,
      clock: { now: () => now },
      onEvent: (e) => events.push(e),
    });
    await transport.request({
      method: "POST",
      path: "/auth/sessions/Session:1/refresh",
      body: '{"clientPublicKey":"02aa"}',
      headers: { "Grid-Wallet-Signature": "STAMP-SECRET", "Request-Id": "Request:1" },
    });
    await transport.request({ method: "GET", path: "/x" }).catch(() => {});
    expect(events).toEqual([
      {
        type: "request",
        method: "POST",
        path: "/auth/sessions/Session:1/refresh",
        signed: true,
        requestId: "Request:1",
        status: 202,
        durationMs: 42,
      },
      { type: "request", method: "GET", path: "/x", signed: false, durationMs: 0, code: "NETWORK" },
    ]);
    expect(JSON.stringify(events)).not.toContain("STAMP-SECRET");
    expect(JSON.stringify(events)).not.toContain("clientPublicKey");
  });

  it("ignores an event sink that throws", async () => {
    const { fetch } = scriptedFetch([{ status: 200, json: {} }]);
    const transport = createTransport({
      relayUrl: "/r",
      fetch,
      onEvent: () => {
        throw new Error("sink broke");
      },
    });
    await expect(transport.request({ method: "GET", path: "/x" })).resolves.toMatchObject({
      status: 200,
    });
  });
});

describe("requestJson", () => {
  it("parses a success body and maps error answers", async () => {
    const { fetch } = scriptedFetch([
      { status: 200, json: { data: [] } },
      { status: 404, json: { status: 404, code: "NOT_FOUND", message: "no such session" } },
      { status: 200, text: "<html>" },
      { status: 302, text: "" },
    ]);
    const transport = createTransport({ relayUrl: "/r", fetch });
    const ok = await requestJson<{ data: unknown[] }>({
      transport,
      method: "GET",
      path: "/auth/sessions",
    });
    expect(ok).toEqual({ status: 200, body: { data: [] } });
    const notFound = await rejection(requestJson({ transport, method: "GET", path: "/x" }));
    expect([notFound.code, notFound.status, notFound.message]).toEqual([
      "NOT_FOUND",
      404,
      "no such session",
    ]);
    expect((await rejection(requestJson({ transport, method: "GET", path: "/x" }))).code).toBe(
      "MALFORMED_RESPONSE",
    );
    expect((await rejection(requestJson({ transport, method: "GET", path: "/x" }))).code).toBe(
      "UNEXPECTED_STATUS",
    );
  });
});
