// Attack probes against the relay in front of the running @signet/emulator. Customer B (Bob)
// holds a valid app session and tries to act on customer A's (Alice's) wallet, or to reach
// other service endpoints with the platform's credentials. Every probe asserts the safe outcome.

import { type EmulatorServer, startEmulatorServer } from "@signet/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rawHttp, rawRequest } from "../../test/src/rawHttp.js";
import { type RunningRelay, serveRelay } from "../../test/src/stubService.js";
import {
  type CreateRelayOptions,
  createRelay,
  type RelayEvent,
  type RelayHandler,
} from "../src/createRelay.js";
import { createMemoryOwnershipCache } from "../src/ownership.js";
import {
  as,
  BASIC,
  emulatorRelayOptions,
  type Json,
  json,
  newKey,
  platform as platformCall,
  signUp as signUpThrough,
  stamp,
  userFromCookie,
  type Wallet,
} from "./nodeWallet.js";

/** One call the relay made to the service, as its `fetch` saw it. */
interface UpstreamCall {
  method: string;
  url: string;
  headers: Headers;
  body: Buffer | undefined;
}

let emulator: EmulatorServer;
let attestationKey: string;
let handler: RelayHandler;
let served: RunningRelay;
let api: string;
let calls: UpstreamCall[] = [];
let events: RelayEvent[] = [];
const extra: RunningRelay[] = [];

/** The relay's `fetch`: records every upstream call, then calls the emulator. */
const spyFetch: typeof fetch = async (input, init) => {
  const body = init?.body;
  calls.push({
    method: init?.method ?? "GET",
    url: String(input),
    headers: new Headers(init?.headers),
    body: body instanceof Uint8Array ? Buffer.from(body) : undefined,
  });
  return fetch(input, init);
};

/** Upstream calls that were not ownership lookups: what the relay forwarded. */
const forwarded = (): UpstreamCall[] => {
  const lookups = events.filter((e) => e.type === "lookup").length;
  return calls.slice(lookups);
};

function makeRelay(options: Partial<CreateRelayOptions> = {}): RelayHandler {
  return createRelay(
    emulatorRelayOptions(emulator.url, {
      rateLimit: false,
      fetch: spyFetch,
      onEvent: (event) => events.push(event),
      ...options,
    }),
  );
}

async function serve(options: Partial<CreateRelayOptions> = {}): Promise<string> {
  const running = await serveRelay(makeRelay(options));
  extra.push(running);
  return `${running.url}/api/grid`;
}

const platform = (method: string, path: string, body?: unknown) =>
  platformCall(emulator.url, method, path, body);

const signUp = (email: string) => signUpThrough(api, emulator.url, attestationKey, email);

let alice: Wallet;
let bob: Wallet;

beforeAll(async () => {
  emulator = await startEmulatorServer({ port: 0 });
  attestationKey = (await platform("GET", "/_emulator/keys")).attestationPublicKey as string;
  handler = makeRelay();
  served = await serveRelay(handler);
  api = `${served.url}/api/grid`;
  alice = await signUp("alice.attacks@example.com");
  bob = await signUp("bob.attacks@example.com");
});

afterAll(async () => {
  await Promise.all([served.close(), ...extra.map((r) => r.close())]);
  await emulator.close();
});

beforeEach(() => {
  calls = [];
  events = [];
});

/** A request straight to the fetch handler (Hono, Next.js, Workers: no Node adapter in front). */
function direct(path: string, init: RequestInit = {}): Promise<Response> {
  return handler(new Request(`https://app.example${path}`, init));
}

const uuidOf = (id: string) => id.slice(id.indexOf(":") + 1);
const cookieOf = (w: Wallet) => `Cookie: user=${encodeURIComponent(w.customerId)}`;

describe("path tricks: nothing outside the table is reached", () => {
  it.each([
    ["encoded dot-dot to PATCH a customer", "PATCH", "/api/grid/quotes/%2e%2e/customers/{A}"],
    ["upper-case encoded dot-dot", "GET", "/api/grid/quotes/%2E%2E/customers/internal-accounts"],
    ["dot-dot before an emulator control", "POST", "/api/grid/auth/../../_emulator/reset"],
    ["encoded slash into the sandbox", "POST", "/api/grid/sandbox%2Finternal-accounts/{W}/fund"],
    ["encoded backslash", "GET", "/api/grid/quotes%5C..%5C_emulator%5Ckeys"],
    ["double-encoded dot-dot", "GET", "/api/grid/quotes/%252e%252e/_emulator/keys"],
    ["double slash", "GET", "/api/grid//_emulator/keys"],
    ["a semicolon parameter", "GET", "/api/grid/quotes;x=1/{Q}"],
    ["a NUL byte", "GET", "/api/grid/transactions/%00"],
  ])("refuses %s (raw HTTP) and forwards nothing", async (_name, method, template) => {
    const target = template
      .replace("{A}", alice.customerId)
      .replace("{W}", alice.wallet)
      .replace("{Q}", `Quote:${crypto.randomUUID()}`);
    const answer = await rawHttp(
      served.url,
      rawRequest(method, target, [cookieOf(bob), "Content-Type: application/json"], "{}"),
    );
    expect([400, 404, 405]).toContain(answer.status);
    expect(calls).toEqual([]);
  });

  it.each([
    ["a trailing slash", "/api/grid/customers/internal-accounts/"],
    ["a semicolon after an id", `/api/grid/quotes/Quote:${crypto.randomUUID()};.css`],
    ["a lower-case kind", `/api/grid/quotes/quote:${crypto.randomUUID()}`],
    ["an upper-case literal segment", "/api/grid/Customers/internal-accounts"],
    ["an upper-case base path", "/API/grid/customers/internal-accounts"],
    ["a full-width slash", "/api/grid/customers%EF%BC%8Finternal-accounts"],
    ["a unicode lookalike colon", `/api/grid/quotes/Quote%EF%BC%9A${crypto.randomUUID()}`],
    ["an id with a space", `/api/grid/quotes/Quote:%20${crypto.randomUUID()}`],
    ["an id with trailing junk", `/api/grid/quotes/Quote:${crypto.randomUUID()}x`],
    ["an id of another kind", `/api/grid/quotes/Transaction:${crypto.randomUUID()}`],
    ["a path below the route", "/api/grid/customers/internal-accounts/extra"],
    ["an absolute URL in the path", "/api/grid/https:/evil.example/customers"],
    ["a service path outside the table", "/api/grid/customers"],
    ["an emulator control", "/api/grid/_emulator/requests"],
  ])("refuses %s (fetch handler) and forwards nothing", async (_name, path) => {
    const response = await direct(path, { headers: as(bob) });
    expect([400, 404, 405]).toContain(response.status);
    expect(calls).toEqual([]);
  });

  it("a dot-dot resolved by the platform's URL parser is checked as resolved (fetch handler)", async () => {
    // new Request() resolves `..` before the relay sees it: what is checked is what is sent.
    const response = await direct(`/api/grid/quotes/../customers/${alice.customerId}`, {
      method: "PATCH",
      headers: as(bob, { "Content-Type": "application/json" }),
      body: '{"email":"bob.owns.alice@example.com"}',
    });
    expect(response.status).toBe(403);
    expect(calls).toEqual([]);
  });

  it("the upstream URL is built from the checked id only (percent-encoded id)", async () => {
    const response = await direct(
      `/api/grid/auth/sessions?accountId=InternalAccount%3A${uuidOf(bob.wallet)}`,
      { headers: as(bob) },
    );
    expect(response.status).toBe(200);
    expect(forwarded().map((c) => c.url)).toEqual([
      `${emulator.url}/auth/sessions?accountId=${bob.wallet}`,
    ]);
  });
});

describe("query tricks", () => {
  it.each([
    ["a repeated accountId (Bob's second)", "/auth/sessions?accountId={b}&accountId={a}"],
    ["a repeated accountId (Alice's first)", "/auth/sessions?accountId={a}&accountId={b}"],
    ["an encoded & smuggling a second id", "/auth/sessions?accountId={b}%26accountId%3D{a}"],
    ["a ; separator", "/auth/credentials?accountId={b};accountId={a}"],
    ["an unlisted parameter", "/auth/sessions?accountId={b}&customerId={A}"],
    ["a differently cased name", "/auth/sessions?AccountId={a}"],
    ["an array-style name", "/auth/sessions?accountId[]={a}"],
    ["a __proto__ parameter", "/auth/sessions?accountId={b}&__proto__={a}"],
    ["an empty parameter", "/auth/sessions?accountId={b}&"],
    ["a repeated customerId", "/customers/internal-accounts?customerId={B}&customerId={A}"],
    [
      "a smuggled customerId in type",
      "/customers/internal-accounts?type=EMBEDDED_WALLET%26customerId%3D{A}",
    ],
    ["an empty customerId", "/customers/internal-accounts?customerId="],
    ["a lower-case code", "/customers/internal-accounts?type=embedded_wallet"],
    ["a method override", "/auth/sessions?accountId={b}&_method=DELETE"],
  ])("refuses %s with 400 and forwards nothing", async (_name, template) => {
    const path = template
      .replaceAll("{a}", alice.wallet)
      .replaceAll("{b}", bob.wallet)
      .replaceAll("{A}", alice.customerId)
      .replaceAll("{B}", bob.customerId);
    const response = await fetch(`${api}${path}`, { headers: as(bob) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "INVALID_INPUT" });
    expect(calls).toEqual([]);
  });

  it.each([
    ["Alice's wallet (credentials)", "/auth/credentials?accountId={a}"],
    ["Alice's wallet (sessions)", "/auth/sessions?accountId={a}"],
    ["Alice's wallet (delegated keys)", "/auth/delegated-keys?accountId={a}"],
    ["Alice's wallet with an upper-case uuid", "/auth/sessions?accountId={A_UPPER}"],
    ["a made-up funding source", "/auth/delegated-keys?fundingSourceId=CardFundingSource:{u}"],
    ["Alice's customer id", "/customers/internal-accounts?customerId={A}"],
  ])("refuses %s with 403 and forwards nothing", async (_name, template) => {
    const path = template
      .replaceAll("{a}", alice.wallet)
      .replaceAll("{A_UPPER}", `InternalAccount:${uuidOf(alice.wallet).toUpperCase()}`)
      .replaceAll("{A}", alice.customerId)
      .replaceAll("{u}", crypto.randomUUID());
    const response = await fetch(`${api}${path}`, { headers: as(bob) });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "RELAY_FORBIDDEN" });
    expect(forwarded()).toEqual([]);
    // The lookups themselves were GETs with the relay's credentials only.
    expect(calls.every((c) => c.method === "GET")).toBe(true);
  });

  it("a fragment in the raw target is refused; the fetch handler never sees one", async () => {
    const answer = await rawHttp(
      served.url,
      rawRequest("GET", `/api/grid/auth/sessions?accountId=${bob.wallet}#&accountId=x`, [
        cookieOf(bob),
      ]),
    );
    expect(answer.status).toBe(400);
    const response = await direct(
      `/api/grid/auth/sessions?accountId=${bob.wallet}#accountId=${alice.wallet}`,
      { headers: as(bob) },
    );
    expect(response.status).toBe(200);
    expect(forwarded().map((c) => new URL(c.url).search)).toEqual([`?accountId=${bob.wallet}`]);
  });

  it("the forced customerId is the caller's, whatever else the query holds", async () => {
    const response = await fetch(`${api}/customers/internal-accounts?type=EMBEDDED_WALLET`, {
      headers: as(bob),
    });
    const list = (await response.json()) as { data: Json[] };
    expect(list.data.map((a) => a.id)).toEqual([bob.wallet]);
    const url = new URL(forwarded()[0]!.url);
    expect(url.searchParams.getAll("customerId")).toEqual([bob.customerId]);
  });
});

describe("id confusion in JSON bodies", () => {
  const credentialBody = (extraFields: string) =>
    `{"type":"EMAIL_OTP","accountId":"${bob.wallet}"${extraFields}}`;

  it.each([
    [
      "Alice's wallet nested one level",
      () => credentialBody(`,"x":{"accountId":"${alice.wallet}"}`),
    ],
    [
      "Alice's wallet in an array",
      () => credentialBody(`,"x":[{"internalAccountId":"${alice.wallet}"}]`),
    ],
    [
      "Alice's wallet under __proto__",
      () => credentialBody(`,"__proto__":{"accountId":"${alice.wallet}"}`),
    ],
    [
      "Alice's wallet under constructor.prototype",
      () => credentialBody(`,"constructor":{"prototype":{"accountId":"${alice.wallet}"}}`),
    ],
    ["Alice's customer id", () => credentialBody(`,"customerId":"${alice.customerId}"`)],
    ["Alice's session id", () => credentialBody(`,"sessionId":"${alice.session}"`)],
    ["Alice's credential id", () => credentialBody(`,"authMethodId":"${alice.credential}"`)],
    // Parser differentials: a service whose JSON binding folds case (Go's encoding/json), maps
    // snake_case aliases, or stops a key at NUL would read these as `accountId`.
    [
      "Alice's wallet under a differently cased key",
      () => credentialBody(`,"AccountId":"${alice.wallet}"`),
    ],
    [
      "Alice's wallet under a snake_case key",
      () => credentialBody(`,"account_id":"${alice.wallet}"`),
    ],
    [
      "Alice's wallet under a NUL-suffixed key",
      () => credentialBody(`,"accountId\\u0000":"${alice.wallet}"`),
    ],
    [
      "Alice's wallet under a Kelvin-sign key",
      () => credentialBody(`,"\\u212AccountId":"${alice.wallet}"`),
    ],
    ["Alice's wallet under an unlisted key", () => credentialBody(`,"walletId":"${alice.wallet}"`)],
    [
      "Alice's wallet as a bare array item",
      () => credentialBody(`,"accounts":["${alice.wallet}"]`),
    ],
  ])("refuses Bob's body naming %s with 403, forwarding nothing", async (_name, body) => {
    const response = await fetch(`${api}/auth/credentials`, {
      method: "POST",
      headers: as(bob, { "Content-Type": "application/json" }),
      body: body(),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "RELAY_FORBIDDEN" });
    expect(forwarded()).toEqual([]);
  });

  it.each([
    ["a duplicate accountId", () => credentialBody(`,"accountId":"${alice.wallet}"`)],
    ["a duplicate through an escape", () => credentialBody(`,"\\u0061ccountId":"${alice.wallet}"`)],
    ["a nested duplicate", () => credentialBody(`,"x":{"a":1,"a":2}`)],
    ["an id of another kind", () => `{"type":"EMAIL_OTP","accountId":"${bob.session}"}`],
    ["a huge number as id", () => '{"type":"EMAIL_OTP","accountId":1e400}'],
    ["an array as id", () => `{"type":"EMAIL_OTP","accountId":["${bob.wallet}"]}`],
    ["an object as id", () => `{"type":"EMAIL_OTP","accountId":{"$eq":"${bob.wallet}"}}`],
    ["an id with a trailing space", () => `{"type":"EMAIL_OTP","accountId":"${bob.wallet} "}`],
    ["a BOM", () => `\ufeff${credentialBody("")}`],
    ["a trailing second document", () => `${credentialBody("")}{"accountId":"${alice.wallet}"}`],
    ["a JSON comment", () => credentialBody(`/*,"accountId":"${alice.wallet}"*/`)],
    ["single quotes", () => `{'type':'EMAIL_OTP','accountId':'${bob.wallet}'}`],
    ["a top-level array", () => `[${credentialBody("")}]`],
  ])("refuses %s with 400, forwarding nothing", async (_name, body) => {
    const response = await fetch(`${api}/auth/credentials`, {
      method: "POST",
      headers: as(bob, { "Content-Type": "application/json" }),
      body: body(),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "INVALID_INPUT" });
    expect(calls).toEqual([]);
  });

  it.each([
    ["Latin-1 bytes", () => Buffer.from(credentialBody(',"nickname":"caf\u00e9"'), "latin1")],
    ["UTF-16LE", () => Buffer.from(credentialBody(""), "utf16le")],
    [
      "an overlong encoding of '\"'",
      () => Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc0, 0xa2]), Buffer.from('"}')]),
    ],
    [
      "a lone surrogate (CESU-8)",
      () =>
        Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    ],
  ])("refuses a non-UTF-8 body (%s) with 400", async (_name, bytes) => {
    const response = await fetch(`${api}/auth/credentials`, {
      method: "POST",
      headers: as(bob, { "Content-Type": "application/json" }),
      body: new Uint8Array(bytes()),
    });
    expect(response.status).toBe(400);
    expect(calls).toEqual([]);
  });

  it("refuses a delegated key for a made-up card or Alice's wallet", async () => {
    for (const body of [
      { cardId: `Card:${crypto.randomUUID()}`, internalAccountId: bob.wallet, nickname: "x" },
      { cardId: `Card:${crypto.randomUUID()}`, internalAccountId: alice.wallet, nickname: "x" },
    ]) {
      const response = await fetch(`${api}/auth/delegated-keys`, {
        method: "POST",
        headers: as(bob, { "Content-Type": "application/json" }),
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(403);
    }
    expect(calls.every((c) => c.method === "GET")).toBe(true);
  });

  it("refuses an id in the body of a route whose id is in the path (Alice's session in a refresh)", async () => {
    const response = await fetch(`${api}/auth/sessions/${bob.session}/refresh`, {
      method: "POST",
      headers: as(bob, { "Content-Type": "application/json" }),
      body: JSON.stringify({ clientPublicKey: newKey().compressed, sessionId: alice.session }),
    });
    expect(response.status).toBe(403);
    expect(calls.every((c) => c.method === "GET")).toBe(true);
  });
});

describe("the checked body is the forwarded body (no TOCTOU)", () => {
  it("forwards exactly the streamed bytes it checked, split mid-character", async () => {
    const text = ` { "clientPublicKey" : "${newKey().uncompressed}" , "note" : "\u00e9\u{1f600}" } `;
    const bytes = Buffer.from(text, "utf8");
    const cut = bytes.indexOf(0xf0) + 2; // inside the 4-byte emoji
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(bytes.subarray(0, cut)));
        controller.enqueue(new Uint8Array(bytes.subarray(cut)));
        controller.close();
      },
    });
    const response = await handler(
      new Request(`https://app.example/api/grid/internal-accounts/${bob.wallet}/export`, {
        method: "POST",
        headers: as(bob, { "Content-Type": "application/json" }),
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    // The emulator refuses the unknown "note" field: its own 400, proof the bytes reached it.
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ details: { errors: [{ field: "note" }] } });
    const sent = forwarded();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body!.equals(bytes)).toBe(true);
  });

  it("a body stream that keeps going after the check cannot add bytes (the body is read to the end first)", async () => {
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        if (pulls === 1) controller.enqueue(new TextEncoder().encode('{"clientPublicKey":"04ab"'));
        else if (pulls === 2)
          controller.enqueue(new TextEncoder().encode(`,"accountId":"${alice.wallet}"}`));
        else controller.close();
      },
    });
    const response = await handler(
      new Request(`https://app.example/api/grid/internal-accounts/${bob.wallet}/export`, {
        method: "POST",
        headers: as(bob, { "Content-Type": "application/json" }),
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(403);
    expect(forwarded()).toEqual([]);
  });

  it("a GET carries no body upstream, even when the raw request has one", async () => {
    const body = `{"accountId":"${alice.wallet}"}`;
    const answer = await rawHttp(
      served.url,
      rawRequest(
        "GET",
        `/api/grid/auth/sessions?accountId=${bob.wallet}`,
        [cookieOf(bob), "Content-Type: application/json"],
        body,
      ),
    );
    expect(answer.status).toBe(200);
    expect(forwarded()).toHaveLength(1);
    expect(forwarded()[0]!.body).toBeUndefined();
  });

  it("a chunked body is counted and forwarded as the bytes received", async () => {
    const body = JSON.stringify({ clientPublicKey: newKey().uncompressed });
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const request = [
      `POST /api/grid/internal-accounts/${bob.wallet}/export HTTP/1.1`,
      "Host: 127.0.0.1",
      "Connection: close",
      cookieOf(bob),
      "Content-Type: application/json",
      "Transfer-Encoding: chunked",
    ].join("\r\n");
    const answer = await rawHttp(served.url, `${request}\r\n\r\n${chunked}`);
    expect(answer.status).toBe(202);
    expect(forwarded()[0]!.body!.toString("utf8")).toBe(body);
    expect(forwarded()[0]!.headers.has("Transfer-Encoding")).toBe(false);
  });
});

describe("header tricks", () => {
  it.each([
    ["Transfer-Encoding and Content-Length together", ["Transfer-Encoding: chunked"]],
    [
      "two Content-Type headers",
      ["Content-Type: application/json", "Content-Type: application/json"],
    ],
    ["a combined Content-Type", ["Content-Type: application/json, text/plain"]],
    ["a non-JSON Content-Type", ["Content-Type: text/plain"]],
    ["a Content-Type with another charset", ["Content-Type: application/json; charset=utf-16"]],
    [
      "a signature with a space",
      ["Content-Type: application/json", "Grid-Wallet-Signature: ab cd"],
    ],
    [
      "a signature with a quote",
      ["Content-Type: application/json", 'Grid-Wallet-Signature: ab"cd'],
    ],
    ["an Idempotency-Key with a space", ["Content-Type: application/json", "Idempotency-Key: a b"]],
    [
      "a Request-Id of another kind",
      ["Content-Type: application/json", `Request-Id: Session:${crypto.randomUUID()}`],
    ],
    [
      "a signature folded onto a new line",
      ["Content-Type: application/json", "Grid-Wallet-Signature: abc\r\n\tX-Evil: 1"],
    ],
    [
      "a signature carrying a bare LF",
      ["Content-Type: application/json", "Grid-Wallet-Signature: abc\nX-Evil: 1"],
    ],
  ])("refuses %s with 400 and forwards nothing", async (_name, headers) => {
    const answer = await rawHttp(
      served.url,
      rawRequest(
        "POST",
        `/api/grid/internal-accounts/${bob.wallet}/export`,
        [cookieOf(bob), ...headers],
        '{"clientPublicKey":"04ab"}',
      ),
    );
    expect(answer.status).toBe(400);
    expect(calls).toEqual([]);
  });

  it("a Content-Length shorter than the body forwards only the declared bytes, still checked", async () => {
    // The rest is parsed by Node as a next request on the connection; it gets no special treatment.
    const body = '{"clientPublicKey":"04ab"}';
    const request = [
      `POST /api/grid/internal-accounts/${alice.wallet}/export HTTP/1.1`,
      "Host: 127.0.0.1",
      cookieOf(bob),
      "Content-Type: application/json",
      `Content-Length: ${body.length}`,
    ].join("\r\n");
    const answer = await rawHttp(
      served.url,
      `${request}\r\n\r\n${body}GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(403);
    expect(forwarded()).toEqual([]);
  });

  it("forwards only the four headers and the relay's Basic auth, whatever the caller sends", async () => {
    const response = await fetch(`${api}/internal-accounts/${bob.wallet}/export`, {
      method: "POST",
      headers: json(bob, {
        "Content-Type": "application/json",
        Authorization: `Basic ${Buffer.from("other:creds").toString("base64")}`,
        "X-HTTP-Method-Override": "DELETE",
        "X-Method-Override": "DELETE",
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-For": "10.0.0.1",
        "X-Original-URL": "/customers",
        "X-Rewrite-URL": "/customers",
        "Idempotency-Key": "k-1",
        Accept: "text/html",
        Origin: "https://evil.example",
        Range: "bytes=0-1",
      }),
      body: JSON.stringify({ clientPublicKey: newKey().uncompressed }),
    });
    expect(response.status).toBe(202);
    const [call] = forwarded();
    expect(call!.method).toBe("POST");
    expect(new URL(call!.url).pathname).toBe(`/internal-accounts/${bob.wallet}/export`);
    const names = [...call!.headers.keys()].sort();
    expect(names).toEqual(["accept", "authorization", "content-type", "idempotency-key"]);
    expect(call!.headers.get("Authorization")).toBe(BASIC);
    expect(call!.headers.get("Accept")).toBe("application/json");
  });
});

describe("methods", () => {
  it.each(["HEAD", "OPTIONS", "PUT", "TRACE", "PROPFIND", "CONNECT"])(
    "answers %s with no upstream call",
    async (method) => {
      const target =
        method === "CONNECT" ? "127.0.0.1:1" : `/api/grid/auth/sessions?accountId=${bob.wallet}`;
      const answer = await rawHttp(served.url, rawRequest(method, target, [cookieOf(bob)]));
      expect(answer.status === 0 || answer.status >= 400).toBe(true);
      expect(calls).toEqual([]);
    },
  );

  it("a lower-case method (not normalised by fetch) is 405", async () => {
    const response = await direct(`/api/grid/customers/${bob.customerId}`, {
      method: "patch",
      headers: as(bob, { "Content-Type": "application/json" }),
      body: '{"email":"b@example.com"}',
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("PATCH");
    expect(calls).toEqual([]);
  });

  it("X-HTTP-Method-Override on a GET stays a GET upstream", async () => {
    const response = await fetch(`${api}/auth/delegated-keys/DelegatedKey:${crypto.randomUUID()}`, {
      headers: as(bob, { "X-HTTP-Method-Override": "DELETE" }),
    });
    expect(response.status).toBe(403);
    expect(calls.every((c) => c.method === "GET")).toBe(true);
  });
});

describe("the service's answers", () => {
  it("drops Set-Cookie, Location, CORS and every other service header; a redirect is 502", async () => {
    const relayFetch: typeof fetch = async (input, init) => {
      const upstream = await fetch(input, init);
      const headers = new Headers(upstream.headers);
      headers.set("Set-Cookie", "session=stolen; Path=/");
      headers.set("Location", "https://evil.example/");
      headers.set("Access-Control-Allow-Origin", "*");
      headers.set("WWW-Authenticate", 'Basic realm="grid"');
      headers.set("Refresh", "0; url=https://evil.example/");
      return new Response(await upstream.arrayBuffer(), { status: upstream.status, headers });
    };
    const url = await serve({ fetch: relayFetch });
    const response = await fetch(`${url}/auth/sessions?accountId=${bob.wallet}`, {
      headers: as(bob),
    });
    expect(response.status).toBe(200);
    for (const name of [
      "set-cookie",
      "location",
      "access-control-allow-origin",
      "www-authenticate",
      "refresh",
    ]) {
      expect(response.headers.has(name)).toBe(false);
    }
    expect(response.headers.get("Cache-Control")).toBe("no-store");

    const redirecting = await serve({
      fetch: async () =>
        new Response(null, { status: 307, headers: { Location: `${emulator.url}/customers` } }),
    });
    const redirected = await fetch(`${redirecting}/customers/internal-accounts`, {
      headers: as(bob),
    });
    expect(redirected.status).toBe(502);
    expect(redirected.headers.has("location")).toBe(false);
  });

  it("never echoes the platform secret: wrong credentials give the service's 401 without it", async () => {
    const secret = "pl4tform-S3CRET-value";
    const basic = Buffer.from(`emulator:${secret}`).toString("base64");
    const seen: RelayEvent[] = [];
    const url = await serve({ clientSecret: secret, onEvent: (e) => seen.push(e) });
    for (const path of [
      "/customers/internal-accounts",
      `/auth/sessions?accountId=${bob.wallet}`,
      `/quotes/Quote:${crypto.randomUUID()}`,
    ]) {
      const response = await fetch(`${url}${path}`, { headers: as(bob) });
      expect(response.status).toBeGreaterThanOrEqual(400);
      const text = await response.text();
      expect(text).not.toContain(secret);
      expect(text).not.toContain(basic);
      expect(JSON.stringify([...response.headers])).not.toContain(basic);
    }
    expect(JSON.stringify(seen)).not.toContain(secret);
    expect(JSON.stringify(seen)).not.toContain(basic);
  });
});

describe("resolveUser", () => {
  it.each([
    [
      "throws",
      () => {
        throw new Error("db down: postgres://user:pw@db");
      },
    ],
    ["rejects", () => Promise.reject(new Error("db down"))],
    ["returns undefined", () => undefined as unknown as null],
    ["returns an empty object", () => ({}) as { customerId: string }],
    ["returns a number id", () => ({ customerId: 42 }) as unknown as { customerId: string }],
    ["returns an empty id", () => ({ customerId: "" })],
    [
      "returns an id with CRLF",
      (r: Request) => ({ customerId: `${userFromCookie(r)!.customerId}\r\nX: 1` }),
    ],
    [
      "returns a getter that throws",
      () => ({
        get customerId(): string {
          throw new Error("boom");
        },
      }),
    ],
    // A malformed id must not be spliced into the forced query (`customerId=<it>`).
    [
      "returns an id carrying a second customerId",
      (r: Request) => ({
        customerId: `${userFromCookie(r)!.customerId}&customerId=${alice.customerId}`,
      }),
    ],
    [
      "returns an id carrying another parameter",
      (r: Request) => ({
        customerId: `${userFromCookie(r)!.customerId}&type=INTERNAL_FIAT`,
      }),
    ],
    [
      "returns a bare uuid",
      (r: Request) => ({ customerId: uuidOf(userFromCookie(r)!.customerId) }),
    ],
    ["returns an id of another kind", () => ({ customerId: alice.wallet })],
    [
      "returns an id with a space",
      (r: Request) => ({ customerId: `${userFromCookie(r)!.customerId} ` }),
    ],
  ] as [string, CreateRelayOptions["resolveUser"]][])(
    "answers 500, calls nothing, leaks nothing when resolveUser %s",
    async (_name, resolveUser) => {
      const url = await serve({ resolveUser });
      const response = await fetch(`${url}/customers/internal-accounts`, { headers: as(bob) });
      expect(response.status).toBe(500);
      const body = (await response.json()) as Json;
      expect(body).toMatchObject({ status: 500, code: "INTERNAL_ERROR" });
      expect(JSON.stringify(body)).not.toMatch(/postgres|boom|db down/);
      expect(calls).toEqual([]);
    },
  );

  it("answers 401 for null before any route work reaches the service", async () => {
    const response = await fetch(`${api}/customers/internal-accounts`);
    expect(response.status).toBe(401);
    expect(calls).toEqual([]);
  });
});

describe("the contact PATCH", () => {
  it.each([
    ["another field", '{"email":"b@example.com","customerType":"BUSINESS"}', 403],
    ["only another field", '{"kycStatus":"APPROVED"}', 403],
    ["a differently cased field", '{"Email":"b@example.com"}', 403],
    ["a __proto__ field", '{"__proto__":{"email":"b@example.com"}}', 403],
    ["both contact fields", '{"email":"b@example.com","phoneNumber":"+15555550100"}', 400],
    ["an object value", '{"email":{"$ne":""}}', 400],
    ["a null value", '{"email":null}', 400],
    ["an empty object", "{}", 400],
    ["no body", "", 400],
    ["a duplicate email", '{"email":"b@example.com","email":"a@example.com"}', 400],
  ])("refuses %s (%s)", async (_name, body, status) => {
    const response = await fetch(`${api}/customers/${bob.customerId}`, {
      method: "PATCH",
      headers: as(bob, { "Content-Type": "application/json" }),
      body,
    });
    expect(response.status).toBe(status);
    expect(calls).toEqual([]);
  });

  it.each([
    ["Alice's id", () => alice.customerId],
    ["Bob's id with an upper-case uuid", () => `Customer:${uuidOf(bob.customerId).toUpperCase()}`],
  ])("refuses Bob's PATCH of %s with 403", async (_name, id) => {
    const response = await fetch(`${api}/customers/${id()}`, {
      method: "PATCH",
      headers: as(bob, { "Content-Type": "application/json" }),
      body: '{"email":"b@example.com"}',
    });
    expect(response.status).toBe(403);
    expect(calls).toEqual([]);
  });
});

describe("Bob acting on Alice's resources", () => {
  it.each([
    ["export Alice's wallet", "POST", () => `/internal-accounts/${alice.wallet}/export`, "{}"],
    [
      "challenge Alice's credential",
      "POST",
      () => `/auth/credentials/${alice.credential}/challenge`,
      null,
    ],
    [
      "verify Alice's credential",
      "POST",
      () => `/auth/credentials/${alice.credential}/verify`,
      "{}",
    ],
    ["delete Alice's credential", "DELETE", () => `/auth/credentials/${alice.credential}`, null],
    ["refresh Alice's session", "POST", () => `/auth/sessions/${alice.session}/refresh`, "{}"],
    ["revoke Alice's session", "DELETE", () => `/auth/sessions/${alice.session}`, null],
    [
      "add a credential to Alice's wallet",
      "POST",
      () => "/auth/credentials",
      () => `{"type":"EMAIL_OTP","accountId":"${alice.wallet}"}`,
    ],
  ] as [string, string, () => string, string | null | (() => string)][])(
    "refuses to %s (403, nothing forwarded)",
    async (_name, method, path, body) => {
      const text = typeof body === "function" ? body() : body;
      const response = await fetch(`${api}${path()}`, {
        method,
        headers: json(bob),
        ...(text !== null ? { body: text } : {}),
      });
      expect(response.status).toBe(403);
      expect(forwarded()).toEqual([]);
    },
  );
});

describe("ownership cache across customers", () => {
  it("Bob's refused probe leaves no fact that refuses Alice, and Alice's fact does not admit Bob", async () => {
    const url = await serve();
    const bobFirst = await fetch(`${url}/auth/sessions/${alice.session}`, {
      method: "DELETE",
      headers: json(bob),
    });
    expect(bobFirst.status).toBe(403);
    const aliceThen = await fetch(`${url}/auth/sessions?accountId=${alice.wallet}`, {
      headers: as(alice),
    });
    expect(aliceThen.status).toBe(200);
    const credentialOk = await fetch(`${url}/auth/credentials/${alice.credential}/challenge`, {
      method: "POST",
      headers: json(alice),
    });
    expect(credentialOk.status).toBe(200);
    calls = [];
    events = [];
    const bobAgain = await fetch(`${url}/auth/credentials/${alice.credential}/challenge`, {
      method: "POST",
      headers: json(bob),
    });
    expect(bobAgain.status).toBe(403);
    expect(calls).toEqual([]); // answered from Alice's cached fact, refused without a lookup
  });

  it("a shared cache holding Bob's facts never admits Bob to Alice's ids", async () => {
    const cache = createMemoryOwnershipCache();
    const url = await serve({ ownershipCache: cache });
    // Bob warms the cache with his own facts, then names Alice's ids.
    await fetch(`${url}/auth/sessions?accountId=${bob.wallet}`, { headers: as(bob) });
    await fetch(`${url}/auth/credentials/${bob.credential}/challenge`, {
      method: "POST",
      headers: json(bob),
    });
    expect(await cache.get(`owner:${alice.wallet}`)).toBeUndefined();
    expect(await cache.get(`owner:${alice.credential}`)).toBeUndefined();
    const refused = await fetch(`${url}/auth/credentials/${alice.credential}/challenge`, {
      method: "POST",
      headers: json(bob),
    });
    expect(refused.status).toBe(403);
  });

  it("a transaction is its payer's and its payee's: whoever looks first does not lock the other out", async () => {
    await platform("POST", `/sandbox/internal-accounts/${alice.wallet}/fund`, {
      amount: 5_000_000,
    });
    const quote = await platform("POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: alice.wallet },
      destination: { destinationType: "ACCOUNT", accountId: bob.wallet },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000,
    });
    const instructions = quote.paymentInstructions as { accountOrWalletInfo: Json }[];
    const payload = instructions.find(
      (i) => i.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
    )!.accountOrWalletInfo.payloadToSign as string;
    const url = await serve();
    // Bob cannot see or execute Alice's quote, even though he is its destination.
    const bobQuote = await fetch(`${url}/quotes/${quote.id as string}`, { headers: as(bob) });
    expect(bobQuote.status).toBe(403);
    const executed = await fetch(`${url}/quotes/${quote.id as string}/execute`, {
      method: "POST",
      headers: json(alice, {
        "Grid-Wallet-Signature": stamp(payload, alice.sessionKey),
        "Idempotency-Key": crypto.randomUUID(),
      }),
    });
    expect(executed.status).toBe(200);
    const transactionId = ((await executed.json()) as Json).transactionId as string;
    // The payee looks first (he learnt the id from the app), then the payer polls.
    const payee = await fetch(`${url}/transactions/${transactionId}`, { headers: as(bob) });
    expect(payee.status).toBe(200);
    const payer = await fetch(`${url}/transactions/${transactionId}`, { headers: as(alice) });
    expect(payer.status).toBe(200);
    const payeeAgain = await fetch(`${url}/transactions/${transactionId}`, { headers: as(bob) });
    expect(payeeAgain.status).toBe(200);
    // A third customer is still refused.
    const carol = {
      customerId: (
        await platform("POST", "/customers", {
          customerType: "INDIVIDUAL",
          email: "carol.attacks@example.com",
        })
      ).id as string,
    };
    const stranger = await fetch(`${url}/transactions/${transactionId}`, { headers: as(carol) });
    expect(stranger.status).toBe(403);
  });
});

describe("rate limit", () => {
  it("counts refused requests too, and re-encoding the same user does not reset it", async () => {
    const url = await serve({ rateLimit: { limit: 3, windowMs: 60_000 } });
    const cookies = [
      `user=${encodeURIComponent(bob.customerId)}`,
      `user=${bob.customerId}`,
      `user=${bob.customerId.replace(":", "%3a")}`,
    ];
    const statuses: number[] = [];
    for (const cookie of cookies) {
      const response = await fetch(`${url}/auth/sessions?accountId=${alice.wallet}`, {
        headers: { Cookie: cookie },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([403, 403, 403]);
    const limited = await fetch(`${url}/customers/internal-accounts`, { headers: as(bob) });
    expect(limited.status).toBe(429);
    // Another customer has their own window.
    const other = await fetch(`${url}/customers/internal-accounts`, { headers: as(alice) });
    expect(other.status).toBe(200);
  });
});
