// The public API, listed: a change to it shows up in review.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as relay from "./index.js";

describe("@signet/relay exports", () => {
  it("names its runtime exports", () => {
    expect(Object.keys(relay).sort()).toEqual([
      "FORWARDED_REQUEST_HEADERS",
      "FORWARDED_RESPONSE_HEADERS",
      "ID_FIELDS",
      "RELAY_ROUTES",
      "RelayErrorCode",
      "RelayWebhookErrorCode",
      "WALLET_OPERATION_TYPES",
      "WALLET_SIGNATURE_HEADER",
      "WEBHOOK_SIGNATURE_HEADER",
      "createMemoryOwnershipCache",
      "createMemoryRateLimitStore",
      "createMemoryWebhookStore",
      "createRelay",
      "nodeRemoteAddress",
      "toNodeHandler",
    ]);
  });

  it("keeps the signature header name in one constant", () => {
    expect(relay.WALLET_SIGNATURE_HEADER).toBe("Grid-Wallet-Signature");
    expect(relay.FORWARDED_REQUEST_HEADERS).toEqual([
      "Grid-Wallet-Signature",
      "Request-Id",
      "Idempotency-Key",
      "Content-Type",
    ]);
  });

  it("shows the same route table in the README", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const rows = [...readme.matchAll(/^\|\s*(GET|POST|PATCH|DELETE)\s*\|\s*`([^`]+)`\s*\|/gm)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(rows).toEqual(relay.RELAY_ROUTES.map((route) => `${route.method} ${route.path}`));
  });

  it("refuses unsafe options at creation", () => {
    const base = {
      baseUrl: "https://api.example/grid/2025-10-13",
      tokenId: "id",
      clientSecret: "secret",
      resolveUser: () => null,
    };
    expect(() => relay.createRelay({ ...base, baseUrl: "https://u:p@api.example/" })).toThrow(
      TypeError,
    );
    expect(() => relay.createRelay({ ...base, baseUrl: "ftp://api.example/" })).toThrow(TypeError);
    expect(() => relay.createRelay({ ...base, baseUrl: "https://api.example/?x=1" })).toThrow();
    expect(() => relay.createRelay({ ...base, tokenId: "a:b" })).toThrow(TypeError);
    expect(() => relay.createRelay({ ...base, clientSecret: "" })).toThrow(TypeError);
    expect(() => relay.createRelay({ ...base, basePath: "/api/../x" })).toThrow(TypeError);
    expect(() => relay.createRelay({ ...base, maxBodyBytes: 0 })).toThrow(TypeError);
    const webhooks = { publicKey: `04${"ab".repeat(64)}` };
    expect(() => relay.createRelay({ ...base, webhooks: { publicKey: "not a key" } })).toThrow(
      TypeError,
    );
    expect(() => relay.createRelay({ ...base, webhooks: { ...webhooks, waitMs: 0 } })).toThrow(
      TypeError,
    );
    expect(() =>
      relay.createRelay({ ...base, webhooks: { ...webhooks, toleranceMs: Number.NaN } }),
    ).toThrow(TypeError);
  });

  it("runs as a plain fetch handler (no Node adapter) and refuses control characters", async () => {
    const handler = relay.createRelay({
      baseUrl: "http://127.0.0.1:1",
      tokenId: "id",
      clientSecret: "secret",
      resolveUser: () => ({ customerId: "Customer:2b0e4a8c-1f4e-4c59-9f0e-6b1d2a3c4d5e" }),
      fetch: () => Promise.reject(new Error("must not be called")),
    });
    const url = "http://app/api/grid/auth/sessions/Session:2b0e4a8c-1f4e-4c59-9f0e-6b1d2a3c4d5e";
    const response = await handler(
      new Request(url, { method: "DELETE", headers: { "Idempotency-Key": "a\u0001b" } }),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as relay.RelayErrorBody;
    expect(body.code).toBe(relay.RelayErrorCode.INVALID_INPUT);
    expect(body.details).toEqual({
      header: "Idempotency-Key",
      reason: "control or non-ASCII character",
    });
  });
});
