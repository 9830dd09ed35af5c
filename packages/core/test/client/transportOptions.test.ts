// createClient's transport options reach every relay request: `credentials` (a relay on another
// origin that authenticates by cookie) and `requestTimeoutMs` (one attempt's time limit).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, getQuote, SignetError } from "../../src/index.js";

let server: Server;
let url: string;

beforeAll(async () => {
  // A relay that never answers `/slow/…` and answers every other path with a quote.
  server = createServer((request, response) => {
    if (request.url?.startsWith("/slow/")) return; // never answers; closed in afterAll
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({ id: "Quote:019542f5-b3e7-1d02-0000-000000000001", status: "PENDING" }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const quoteId = "Quote:019542f5-b3e7-1d02-0000-000000000001";

describe("createClient transport options", () => {
  it("passes `credentials` to fetch on every request, and leaves it out by default", async () => {
    const seen: (RequestCredentials | undefined)[] = [];
    const recording = (credentials?: RequestCredentials) =>
      createClient({
        relayUrl: url,
        ...(credentials ? { credentials } : {}),
        fetch: (input, init) => {
          seen.push(init?.credentials);
          return fetch(input, init);
        },
      });
    await getQuote(recording("include"), { quoteId });
    await getQuote(recording(), { quoteId });
    expect(seen).toEqual(["include", undefined]);
  });

  it("`requestTimeoutMs` ends a silent attempt as TIMEOUT, and retries are bounded by the policy", async () => {
    const client = createClient({
      relayUrl: `${url}/slow`,
      requestTimeoutMs: 150,
      retry: { retryCount: 1, backoff: { baseMs: 1, maxMs: 1 } },
    });
    const started = Date.now();
    const error = await getQuote(client, { quoteId }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).code).toBe("TIMEOUT");
    // Two attempts of 150 ms (one retry), well under the 30 s default attempt limit.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("refuses a bad `credentials` or `requestTimeoutMs` at creation, naming the option", () => {
    for (const [option, value] of [
      ["credentials", "always"],
      ["requestTimeoutMs", 0],
      ["requestTimeoutMs", -5],
      ["requestTimeoutMs", Number.NaN],
      ["requestTimeoutMs", "30s"],
    ] as const) {
      let thrown: unknown;
      try {
        createClient({ relayUrl: url, [option]: value } as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: "INVALID_ARGUMENT", retryable: false });
      expect((thrown as Error).message).toContain(`"${option}"`);
    }
  });
});
