// The judge itself: it must pass what the OpenAPI allows and name what it does not.
import { describe, expect, it } from "vitest";
import { formatFindings, judgingFetch, type OpenApiFinding, openApiJudge } from "./openapi.js";

const judge = openApiJudge();
const headers = new Headers();
const session = {
  id: "Session:019542f5-b3e7-1d02-0000-000000000003",
  accountId: "InternalAccount:019542f5-b3e7-1d02-0000-000000000002",
  type: "EMAIL_OTP",
  nickname: "ada@example.com",
  createdAt: "2026-11-22T10:00:00Z",
  updatedAt: "2026-11-22T10:00:00Z",
  expiresAt: "2026-11-22T10:15:00Z",
};

describe("openApiJudge", () => {
  it("matches operations by method and template, literal segments first", () => {
    expect(judge.operationOf("GET", "/customers/internal-accounts?type=EMBEDDED_WALLET")).toBe(
      "GET /customers/internal-accounts",
    );
    expect(judge.operationOf("GET", "/customers/Customer:1")).toBe("GET /customers/{customerId}");
    expect(judge.operationOf("POST", "/quotes/Quote:1/authorize/resend")).toBe(
      "POST /quotes/{quoteId}/authorize/resend",
    );
    expect(judge.operationOf("GET", "/cards")).toBeUndefined();
  });

  it("passes an answer the schema allows and names the field of one it does not", () => {
    const url = `/auth/sessions/${session.id}/refresh`;
    const ok = judge.checkResponse(
      { method: "POST", url },
      { status: 201, headers, body: JSON.stringify(session) },
    );
    expect(ok).toEqual([]);
    const { expiresAt: _, ...partial } = session;
    const [finding] = judge.checkResponse(
      { method: "POST", url },
      { status: 201, headers, body: JSON.stringify(partial) },
    );
    expect(finding).toMatchObject({
      side: "response",
      operation: "POST /auth/sessions/{id}/refresh",
      status: 201,
    });
    expect(finding?.errors.join()).toContain("expiresAt");
  });

  it("refuses an undocumented status, an invented error code and a body where none is documented", () => {
    const quote = { method: "GET", url: "/quotes/Quote:1" };
    expect(judge.checkResponse(quote, { status: 418, headers, body: "" })[0]?.errors[0]).toContain(
      "not documented",
    );
    const invented = judge.checkResponse(quote, {
      status: 404,
      headers,
      body: '{"status":404,"code":"NOT_FOUND","message":"no"}',
    });
    expect(invented[0]?.errors[0]).toContain("/code");
    const resend = { method: "POST", url: "/quotes/Quote:1/authorize/resend" };
    expect(judge.checkResponse(resend, { status: 204, headers, body: "" })).toEqual([]);
    expect(judge.checkResponse(resend, { status: 204, headers, body: "{}" })).toHaveLength(1);
  });

  it("merges #850 and #854: PROCESSING on the seven signed retries, the operations otherwise the subset's", () => {
    const processing = JSON.stringify({ status: "PROCESSING", message: "Still settling." });
    const seven = [
      ["POST", "/auth/credentials"],
      ["POST", "/auth/credentials/AuthMethod:1/challenge"],
      ["POST", "/auth/credentials/AuthMethod:1/verify"],
      ["POST", `/auth/sessions/${session.id}/refresh`],
      ["DELETE", "/auth/credentials/AuthMethod:1"],
      ["DELETE", `/auth/sessions/${session.id}`],
      ["POST", "/internal-accounts/InternalAccount:1/export"],
    ] as const;
    for (const [method, url] of seven) {
      const answer = { status: 200, headers, body: processing };
      expect(judge.checkResponse({ method, url }, answer), `${method} ${url}`).toEqual([]);
    }
    // Any other status of PROCESSING, or another 200 body on a 201/204 endpoint, is refused.
    const revoke = { method: "DELETE", url: `/auth/sessions/${session.id}` };
    expect(judge.checkResponse(revoke, { status: 200, headers, body: "{}" })).toHaveLength(1);
    expect(
      judge.checkResponse(revoke, {
        status: 200,
        headers,
        body: JSON.stringify({ status: "PENDING" }),
      }),
    ).toHaveLength(1);
    // The subset's answers of those operations stay: the 204, the 202, the session of a verify.
    expect(judge.checkResponse(revoke, { status: 204, headers, body: "" })).toEqual([]);
    const verify = { method: "POST", url: "/auth/credentials/AuthMethod:1/verify" };
    expect(
      judge.checkResponse(verify, { status: 200, headers, body: JSON.stringify(session) }),
    ).toEqual([]);
    const { expiresAt: _, ...partial } = session;
    expect(
      judge.checkResponse(verify, { status: 200, headers, body: JSON.stringify(partial) }),
    ).toHaveLength(1);
    for (const [method, url] of seven) expect(judge.documentsProcessing(method, url)).toBe(true);
    expect(judge.documentsProcessing("POST", "/quotes/Quote:1/execute")).toBe(false);
    expect(
      judge.documentsProcessing("POST", "/customers/Customer:1/contact-changes/C:1/submit"),
    ).toBe(true);
    expect(judge.operationOf("DELETE", "/auth/credentials/AuthMethod:1")).toBe(
      "DELETE /auth/credentials/{id}",
    );
  });

  it("judges request bodies: SCA authorizations, and the customer update keyed on customerType", () => {
    const authorize = (body: unknown) =>
      judge.checkRequest({
        method: "POST",
        url: "/quotes/Quote:1/authorize",
        headers,
        body: JSON.stringify(body),
      });
    expect(authorize({ code: "123456", endUserIpAddress: "203.0.113.42" })).toEqual([]);
    expect(authorize({ code: 123456 })).toHaveLength(1);
    const patch = (body: unknown) =>
      judge.checkRequest({
        method: "PATCH",
        url: "/customers/Customer:1",
        headers,
        body: JSON.stringify(body),
      });
    expect(patch({ customerType: "INDIVIDUAL", email: "ada@example.com" })).toEqual([]);
    expect(patch({ email: "ada@example.com" })[0]?.errors.join()).toContain("customerType");
  });

  it("reports through judgingFetch without touching the exchange, and skips fault-made answers", async () => {
    const findings: OpenApiFinding[] = [];
    const answers: Record<string, Response> = {
      "/quotes/Quote:1": new Response('{"status":404,"code":"NOT_FOUND","message":"no"}', {
        status: 404,
      }),
      "/quotes/Quote:2": new Response('{"status":503,"code":"X","message":"injected"}', {
        status: 503,
        headers: { "X-Emulator-Fault": "error" },
      }),
    };
    const fetch = judgingFetch({
      base: "http://service.test/grid/2025-10-13",
      onFinding: (f) => findings.push(f),
      fetch: async (input) =>
        answers[new URL(String(input)).pathname.slice("/grid/2025-10-13".length)]!,
    });
    const first = await fetch("http://service.test/grid/2025-10-13/quotes/Quote:1");
    expect(first.status).toBe(404);
    expect(await first.json()).toMatchObject({ code: "NOT_FOUND" });
    await fetch("http://service.test/grid/2025-10-13/quotes/Quote:2");
    expect(findings).toHaveLength(1);
    expect(formatFindings(findings)).toContain("response GET /quotes/Quote:1 → 404");
  });
});
