// toNodeHandler(relay) answers Node's requests natively (no web Request parsed for the checks,
// no Response built): every answer must be byte for byte the fetch handler's, served by the same
// adapter through a plain function (which takes the web path). Raw requests, so that repeated
// headers, odd targets and bodies over the limit reach both as sent.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawHttp, rawRequest } from "../../test/src/rawHttp.js";
import { type Customer, type StubService, startStubService } from "../../test/src/stubService.js";
import { createRelay, type RelayEvent } from "./createRelay.js";
import { nativeRelay } from "./nativeRelay.js";
import { toNodeHandler } from "./toNodeHandler.js";

let stub: StubService;
let a: Customer;
let b: Customer;
const servers: Server[] = [];
let nativeUrl: string;
let webUrl: string;
const events: { native: RelayEvent[]; web: RelayEvent[] } = { native: [], web: [] };

async function serve(handler: ReturnType<typeof toNodeHandler>): Promise<string> {
  const server = createServer(handler as never);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function relayFor(into: RelayEvent[]) {
  return createRelay({
    baseUrl: stub.url,
    tokenId: "token",
    clientSecret: "secret",
    resolveUser: (request) => {
      const user = /(?:^|; )user=([^;]+)/.exec(request.headers.get("Cookie") ?? "")?.[1];
      return user ? { customerId: decodeURIComponent(user) } : null;
    },
    maxBodyBytes: 256,
    // Durations differ from run to run; everything else must match.
    onEvent: (event) => into.push(event.type === "response" ? { ...event, durationMs: 0 } : event),
  });
}

beforeAll(async () => {
  stub = await startStubService();
  [a, b] = stub.customers as [Customer, Customer];
  const native = relayFor(events.native);
  expect(nativeRelay(native)).toBeDefined();
  nativeUrl = await serve(toNodeHandler(native));
  const web = relayFor(events.web);
  // A plain function is no relay toNodeHandler knows: it builds a Request and reads a Response.
  const plain = (request: Request) => web(request);
  expect(nativeRelay(plain)).toBeUndefined();
  webUrl = await serve(toNodeHandler(plain));
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await stub.close();
});

const cookie = (c: Customer) => `Cookie: user=${encodeURIComponent(c.customerId)}`;
const jsonType = "Content-Type: application/json";

/** Requests that pass and requests each check refuses, as raw HTTP. */
function cases(): [string, string][] {
  const wallet = encodeURIComponent(a.wallet);
  return [
    ["a read", rawRequest("GET", `/api/grid/auth/credentials?accountId=${wallet}`, [cookie(a)])],
    [
      "a read of another's account",
      rawRequest("GET", `/api/grid/auth/credentials?accountId=${encodeURIComponent(b.wallet)}`, [
        cookie(a),
      ]),
    ],
    [
      "a read with no user",
      rawRequest("GET", `/api/grid/auth/credentials?accountId=${wallet}`, []),
    ],
    ["a path by id", rawRequest("GET", `/api/grid/quotes/${a.quote}`, [cookie(a)])],
    [
      "an encoded path",
      rawRequest("GET", `/api/grid/quotes/${encodeURIComponent(a.quote)}`, [cookie(a)]),
    ],
    [
      "a forced query",
      rawRequest("GET", "/api/grid/customers/internal-accounts?type=EMBEDDED_WALLET", [cookie(a)]),
    ],
    ["an empty query", rawRequest("GET", `/api/grid/quotes/${a.quote}?`, [cookie(a)])],
    [
      "an unknown query parameter",
      rawRequest("GET", `/api/grid/quotes/${a.quote}?x=1`, [cookie(a)]),
    ],
    [
      "a malformed query",
      rawRequest("GET", `/api/grid/auth/credentials?accountId=%zz`, [cookie(a)]),
    ],
    ["an unknown path", rawRequest("GET", "/api/grid/nowhere", [cookie(a)])],
    ["a path outside the base", rawRequest("GET", "/elsewhere/quotes", [cookie(a)])],
    ["another method", rawRequest("PUT", `/api/grid/quotes/${a.quote}`, [cookie(a), jsonType])],
    ["a HEAD", rawRequest("HEAD", `/api/grid/quotes/${a.quote}`, [cookie(a)])],
    ["a dot segment", rawRequest("GET", "/api/grid/quotes/../auth/sessions", [cookie(a)])],
    ["an encoded slash", rawRequest("GET", "/api/grid/quotes%2fx", [cookie(a)])],
    [
      "a write",
      rawRequest(
        "POST",
        `/api/grid/quotes/${a.quote}/execute`,
        [cookie(a), jsonType, "Idempotency-Key: k-1"],
        "{}",
      ),
    ],
    [
      "a write without a type",
      rawRequest("POST", `/api/grid/quotes/${a.quote}/execute`, [cookie(a)], "{}"),
    ],
    [
      "a write with a form type",
      rawRequest(
        "POST",
        `/api/grid/quotes/${a.quote}/execute`,
        [cookie(a), "Content-Type: text/plain"],
        "{}",
      ),
    ],
    [
      "a repeated content type",
      rawRequest(
        "POST",
        `/api/grid/quotes/${a.quote}/execute`,
        [cookie(a), jsonType, jsonType],
        "{}",
      ),
    ],
    [
      "a repeated stamp",
      rawRequest(
        "POST",
        `/api/grid/quotes/${a.quote}/execute`,
        [cookie(a), jsonType, "Grid-Wallet-Signature: abc", "grid-wallet-signature: def"],
        "{}",
      ),
    ],
    [
      "a malformed request id",
      rawRequest(
        "POST",
        `/api/grid/quotes/${a.quote}/execute`,
        [cookie(a), jsonType, "Request-Id: nope"],
        "{}",
      ),
    ],
    [
      "a body that is no JSON",
      rawRequest("POST", `/api/grid/quotes/${a.quote}/execute`, [cookie(a), jsonType], "{nope"),
    ],
    [
      "a body naming another's account",
      rawRequest(
        "POST",
        "/api/grid/auth/credentials",
        [cookie(a), jsonType],
        JSON.stringify({ type: "EMAIL_OTP", accountId: b.wallet }),
      ),
    ],
    [
      "a body over the limit",
      rawRequest(
        "POST",
        `/api/grid/quotes/${a.quote}/execute`,
        [cookie(a), jsonType],
        `{"x":"${"y".repeat(300)}"}`,
      ),
    ],
    [
      "a body field outside the allowed",
      rawRequest(
        "PATCH",
        `/api/grid/internal-accounts/${a.wallet}`,
        [cookie(a), jsonType],
        '{"privateEnabled":true,"x":1}',
      ),
    ],
  ];
}

/** The head's header lines, lower-cased and sorted, without the clock's and the socket's. */
function headerLines(head: string): string[] {
  return head
    .split("\r\n")
    .slice(1)
    .map((line) => line.toLowerCase())
    .filter((line) => !/^(date|keep-alive):/.test(line))
    .sort();
}

describe("toNodeHandler(relay), native", () => {
  it("answers every request as the fetch handler does: status, headers, body and event", async () => {
    for (const [name, request] of cases()) {
      events.native.length = 0;
      events.web.length = 0;
      const native = await rawHttp(nativeUrl, request);
      const web = await rawHttp(webUrl, request);
      expect({ name, status: native.status }).toEqual({ name, status: web.status });
      expect({ name, body: native.body }).toEqual({ name, body: web.body });
      expect({ name, headers: headerLines(native.head) }).toEqual({
        name,
        headers: headerLines(web.head),
      });
      expect({ name, events: events.native }).toEqual({ name, events: events.web });
    }
  });

  it("refuses and passes what the checks refuse and pass (the cases are not all alike)", async () => {
    const statuses = new Set<number>();
    for (const [, request] of cases()) statuses.add((await rawHttp(nativeUrl, request)).status);
    expect([...statuses].sort()).toEqual([200, 400, 401, 403, 404, 405, 413, 415]);
  });
});
