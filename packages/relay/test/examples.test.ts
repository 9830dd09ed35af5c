// The README's mounting examples (packages/relay/examples), run for real and type-checked
// (test/tsconfig.json covers the examples and this file).
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Customer, type StubService, startStubService } from "../../test/src/stubService.js";
import { createExpressApp } from "../examples/express.js";
import { createHonoApp } from "../examples/hono.js";
import { createAppServer } from "../examples/node-http.js";
import { sessions, userFromSessionCookie } from "../examples/session.js";
import { createRelay, type RelayHandler } from "../src/createRelay.js";

let stub: StubService;
let a: Customer;
let relay: RelayHandler;
const cookie = { Cookie: "theme=dark; session=s-1" };

beforeAll(async () => {
  stub = await startStubService();
  a = stub.customers[0]!;
  sessions.set("s-1", { customerId: a.customerId });
  relay = createRelay({
    baseUrl: stub.url,
    tokenId: "token",
    clientSecret: "secret",
    resolveUser: userFromSessionCookie,
  });
});
afterAll(async () => {
  await stub.close();
});

async function listen(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The same three checks through every mount: a byte-exact POST, a 403 and a 401. */
async function exercise(base: string): Promise<void> {
  const body = '{ "clientPublicKey" : "04aa" }';
  const ok = await fetch(`${base}/api/grid/internal-accounts/${a.wallet}/export`, {
    method: "POST",
    headers: { ...cookie, "Content-Type": "application/json" },
    body,
  });
  expect(ok.status).toBe(200);
  const forwarded = stub.requests.at(-1)!;
  expect(forwarded.url).toBe(`/internal-accounts/${a.wallet}/export`);
  expect(forwarded.body.toString("utf8")).toBe(body);
  const other = stub.customers[1]!;
  const forbidden = await fetch(`${base}/api/grid/quotes/${other.quote}`, { headers: cookie });
  expect(forbidden.status).toBe(403);
  const anonymous = await fetch(`${base}/api/grid/quotes/${a.quote}`);
  expect(anonymous.status).toBe(401);
}

describe("mounting examples", () => {
  it("Node http server", async () => {
    const server = await listen(createAppServer(relay));
    try {
      await exercise(server.url);
      expect((await fetch(`${server.url}/other`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("Hono (app.fetch with web Requests)", async () => {
    const app = createHonoApp(relay);
    const base = "http://app.test";
    const handler = async (input: string, init?: RequestInit) =>
      app.fetch(new Request(input, init));
    const ok = await handler(`${base}/api/grid/quotes/${a.quote}`, { headers: cookie });
    expect(ok.status).toBe(200);
    const other = stub.customers[1]!;
    expect(
      (await handler(`${base}/api/grid/quotes/${other.quote}`, { headers: cookie })).status,
    ).toBe(403);
    const body = '{"email" : "new@example.com"}';
    const patch = await handler(`${base}/api/grid/customers/${a.customerId}`, {
      method: "PATCH",
      headers: { ...cookie, "Content-Type": "application/json" },
      body,
    });
    expect(patch.status).toBe(200);
    expect(stub.requests.at(-1)!.body.toString()).toBe(body);
  });

  it("Express, mounted before express.json()", async () => {
    const server = await listen(createServer(createExpressApp(relay)));
    try {
      await exercise(server.url);
      // The app's own JSON routes still parse bodies.
      const profile = await fetch(`${server.url}/api/profile`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: '{"a":1}',
      });
      expect(await profile.json()).toEqual({ received: { a: 1 } });
      // Express strips the mount path from req.url; the adapter still sees the raw target.
      const { rawHttp, rawRequest } = await import("../../test/src/rawHttp.js");
      const dotted = await rawHttp(
        server.url,
        rawRequest("GET", `/api/grid/quotes/%2e%2e/transactions/${a.transaction}`, [
          `Cookie: ${cookie.Cookie}`,
        ]),
      );
      expect(dotted.status).toBe(400);
    } finally {
      await server.close();
    }
  });

  it("Next.js route handler (each method export is the relay)", async () => {
    process.env.GRID_BASE_URL = stub.url;
    process.env.GRID_CLIENT_ID = "token";
    process.env.GRID_CLIENT_SECRET = "secret";
    const route = await import("../examples/next-route.js");
    const url = `http://app.test/api/grid/auth/sessions?accountId=${a.wallet}`;
    const list = await route.GET(new Request(url, { headers: cookie }));
    expect(list.status).toBe(200);
    expect(stub.requests.at(-1)!.url).toBe(`/auth/sessions?accountId=${a.wallet}`);
    const wrong = await route.POST(new Request(url, { method: "POST", headers: cookie }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("Allow")).toBe("GET");
  });

  it("type-checks with tsc (test/tsconfig.json)", () => {
    const root = fileURLToPath(new URL("../../../", import.meta.url));
    const project = fileURLToPath(new URL("./tsconfig.json", import.meta.url));
    execFileSync(`${root}node_modules/.bin/tsc`, ["-p", project], { stdio: "pipe" });
  }, 60_000);
});
