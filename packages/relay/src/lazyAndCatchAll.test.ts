// The Next.js items of the relay: lazy configuration (a route module imported by `next build`
// where no credentials are set) and the catch-all segment Next's edge runtime appends to the query.
import { describe, expect, it } from "vitest";
import { type CreateRelayOptions, createRelay } from "./createRelay.js";

const CUSTOMER = "Customer:0f4c2a8e-1b3d-4e5f-8a9b-0c1d2e3f4a5b";

function options(calls: string[]): CreateRelayOptions {
  return {
    baseUrl: "https://service.test/grid",
    tokenId: "token",
    clientSecret: "secret",
    resolveUser: () => ({ customerId: CUSTOMER }),
    fetch: async (input) => {
      calls.push(String(input));
      return new Response(JSON.stringify({ data: [] }), {
        headers: { "Content-Type": "application/json" },
      });
    },
  };
}

const factors = (query = "") => new Request(`http://localhost/api/grid/sca/factors${query}`);

describe("lazy configuration", () => {
  it("reads the options on the first request only, not at creation", async () => {
    const calls: string[] = [];
    let reads = 0;
    const relay = createRelay(() => {
      reads++;
      return options(calls);
    });
    expect(reads).toBe(0);
    expect((await relay(factors())).status).toBe(200);
    expect((await relay(factors())).status).toBe(200);
    expect(reads).toBe(1);
    expect(calls).toEqual([
      `https://service.test/grid/sca/factors?customerId=${CUSTOMER}`,
      `https://service.test/grid/sca/factors?customerId=${CUSTOMER}`,
    ]);
  });

  it("a missing option fails the request that reads it, and the next request tries again", async () => {
    const calls: string[] = [];
    const env: Record<string, string | undefined> = {};
    const relay = createRelay(() => ({ ...options(calls), baseUrl: env.GRID_BASE_URL as string }));
    await expect(relay(factors())).rejects.toThrow(/"baseUrl" expected an absolute http\(s\) URL/);
    env.GRID_BASE_URL = "https://service.test/grid";
    expect((await relay(factors())).status).toBe(200);
    expect(calls).toHaveLength(1);
  });

  it("the options object form still checks them at creation", () => {
    expect(() => createRelay({ ...options([]), baseUrl: "" })).toThrow(TypeError);
  });
});

describe("catchAllParam", () => {
  it("without it, the parameter Next appends is refused like any unknown one", async () => {
    const relay = createRelay(options([]));
    const response = await relay(factors("?path=sca&path=factors"));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "INVALID_INPUT" });
  });

  it("drops the named parameter (both of Next's forms) and keeps checking the rest", async () => {
    const calls: string[] = [];
    const relay = createRelay({ ...options(calls), catchAllParam: "path" });
    expect((await relay(factors("?path=sca&path=factors"))).status).toBe(200);
    expect((await relay(factors("?nxtPpath=sca%2Ffactors"))).status).toBe(200);
    expect(calls).toEqual([
      `https://service.test/grid/sca/factors?customerId=${CUSTOMER}`,
      `https://service.test/grid/sca/factors?customerId=${CUSTOMER}`,
    ]);
    // Another unknown parameter is still refused; the caller's own customerId still checked.
    expect((await relay(factors("?path=sca&other=1"))).status).toBe(400);
    const foreign = "Customer:11111111-2222-4333-8444-555555555555";
    expect((await relay(factors(`?path=sca&customerId=${foreign}`))).status).toBe(403);
  });

  it("must not name a parameter the relay forwards", () => {
    expect(() => createRelay({ ...options([]), catchAllParam: "accountId" })).toThrow(
      /"catchAllParam" must not be a query parameter/,
    );
    expect(() => createRelay({ ...options([]), catchAllParam: "a=b" })).toThrow(TypeError);
  });
});
