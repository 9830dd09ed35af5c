import { describe, expect, it } from "vitest";
import { detailOf, SignetError } from "../errors/errors.js";
import {
  errorFromResponse,
  isRetryableStatus,
  parseRetryAfter,
  parseServiceError,
} from "./responseError.js";

function response(status: number, text: string, headers: Record<string, string> = {}) {
  return { status, text, headers: new Headers(headers) };
}

const json = (value: unknown) => JSON.stringify(value);

describe("errorFromResponse", () => {
  it("keeps the service's code, status, message and details", () => {
    const error = errorFromResponse({
      response: response(
        400,
        json({
          status: 400,
          code: "INVALID_INPUT",
          message: "nickname is too long",
          details: {
            errors: [{ field: "nickname", constraint: { maxLength: 100 }, message: "too long" }],
          },
        }),
      ),
    });
    expect(error).toBeInstanceOf(SignetError);
    expect(error.name).toBe("SignetError");
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.status).toBe(400);
    expect(error.message).toBe("nickname is too long");
    expect(error.retryable).toBe(false);
    expect(error.details).toEqual({
      errors: [{ field: "nickname", constraint: { maxLength: 100 }, message: "too long" }],
    });
  });

  it("keeps unknown codes as given", () => {
    const error = errorFromResponse({
      response: response(418, json({ status: 418, code: "SOMETHING_NEW", message: "new" })),
    });
    expect(error.code).toBe("SOMETHING_NEW");
    expect(error.status).toBe(418);
  });

  it("maps the 401 wallet-signature codes unchanged and not retryable", () => {
    for (const code of [
      "WALLET_SIGNATURE_INVALID",
      "WALLET_SIGNATURE_MISSING",
      "WALLET_SIGNATURE_MALFORMED",
      "WALLET_SIGNATURE_BODY_MISMATCH",
      "REQUEST_ID_MISSING",
    ]) {
      const error = errorFromResponse({
        response: response(401, json({ status: 401, code, message: "no" })),
      });
      expect([error.code, error.status, error.retryable]).toEqual([code, 401, false]);
    }
  });

  it("reads Retry-After in seconds into details.retryAfterMs", () => {
    const error = errorFromResponse({
      response: response(429, json({ status: 429, code: "RATE_LIMITED", message: "slow down" }), {
        "Retry-After": "3",
      }),
    });
    expect(error.retryable).toBe(true);
    expect(error.details).toEqual({ retryAfterMs: 3000 });
  });

  it("takes retryAfterMs from the Retry-After header only, never from the body's details", () => {
    const body = (retryAfterMs: unknown) =>
      json({
        status: 503,
        code: "UNAVAILABLE",
        message: "busy",
        details: { retryAfterMs, why: "x" },
      });
    const bodyOnly = errorFromResponse({ response: response(503, body(-5)) });
    expect(bodyOnly.details).toEqual({ why: "x" });
    const both = errorFromResponse({
      response: response(503, body(999_999), { "Retry-After": "2" }),
    });
    expect(both.details).toEqual({ why: "x", retryAfterMs: 2000 });
  });

  it("reads Retry-After as an HTTP date against the given clock", () => {
    const now = Date.parse("2025-10-13T12:00:00Z");
    const error = errorFromResponse({
      now,
      response: response(503, json({ status: 503, code: "INTERNAL_ERROR", message: "busy" }), {
        "Retry-After": "Mon, 13 Oct 2025 12:00:05 GMT",
      }),
    });
    expect(detailOf(error, "retryAfterMs")).toBe(5000);
  });

  it("marks 429, 502, 503, 504, every 5xx and QUOTE_REQUEST_FAILED retryable", () => {
    for (const status of [429, 500, 502, 503, 504, 599]) {
      const error = errorFromResponse({
        response: response(status, json({ status, code: "X", message: "m" })),
      });
      expect(error.retryable, String(status)).toBe(true);
    }
    const quote = errorFromResponse({
      response: response(
        400,
        json({ status: 400, code: "QUOTE_REQUEST_FAILED", message: "try again" }),
      ),
    });
    expect(quote.retryable).toBe(true);
    expect(isRetryableStatus(404)).toBe(false);
    expect(isRetryableStatus(409, "CONFLICT")).toBe(false);
  });

  it("tells the two 429s apart: a rate limit passes with time, a spent daily volume does not", () => {
    const limited = errorFromResponse({
      response: response(429, json({ status: 429, code: "RATE_LIMITED", message: "slow down" }), {
        "Retry-After": "2",
      }),
    });
    expect([limited.code, limited.retryable, detailOf(limited, "retryAfterMs")]).toEqual([
      "RATE_LIMITED",
      true,
      2000,
    ]);
    const spent = errorFromResponse({
      response: response(
        429,
        json({ status: 429, code: "DAILY_VOLUME_LIMIT_EXCEEDED", message: "daily limit" }),
      ),
    });
    expect([spent.code, spent.status, spent.retryable]).toEqual([
      "DAILY_VOLUME_LIMIT_EXCEEDED",
      429,
      false,
    ]);
  });

  it("merges caller context into details without losing the service's", () => {
    const error = errorFromResponse({
      response: response(
        404,
        json({ status: 404, code: "NOT_FOUND", message: "gone", details: { id: "x" } }),
      ),
      details: { requestId: "Request:00000000-0000-4000-8000-000000000000" },
    });
    expect(error.details).toEqual({
      id: "x",
      requestId: "Request:00000000-0000-4000-8000-000000000000",
    });
  });

  it("gives MALFORMED_RESPONSE for a body that is not the error JSON, retryable on 5xx", () => {
    const html = errorFromResponse({ response: response(503, "<html>Service Unavailable</html>") });
    expect([html.code, html.status, html.retryable]).toEqual(["MALFORMED_RESPONSE", 503, true]);
    expect(html.message).not.toContain("<html>");

    for (const text of [
      "not json",
      json([1, 2]),
      json("string"),
      json({ code: 7, message: "m" }),
      json({ code: "X" }),
      json({ code: "", message: "m" }),
      json({ code: "X", message: "m", status: "400" }),
      json({ code: "X", message: "m", details: [1] }),
    ]) {
      const error = errorFromResponse({ response: response(400, text) });
      expect([error.code, error.retryable], text).toEqual(["MALFORMED_RESPONSE", false]);
    }
  });

  it("derives a code from the status when the body is empty", () => {
    const cases: Array<[number, string]> = [
      [401, "UNAUTHORIZED"],
      [404, "NOT_FOUND"],
      [409, "CONFLICT"],
      [429, "RATE_LIMITED"],
      [502, "UNEXPECTED_STATUS"],
    ];
    for (const [status, code] of cases) {
      const error = errorFromResponse({ response: response(status, "") });
      expect([error.code, error.status], String(status)).toEqual([code, status]);
    }
  });

  it("shortens long messages to one line", () => {
    const error = errorFromResponse({
      response: response(
        400,
        json({ code: "INVALID_INPUT", message: `line\n${"x".repeat(1000)}` }),
      ),
    });
    expect(error.message.length).toBeLessThanOrEqual(300);
    expect(error.message).not.toContain("\n");
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and dates, ignores garbage", () => {
    const now = Date.parse("2025-10-13T12:00:00Z");
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter(" 120 ", now)).toBe(120_000);
    expect(parseRetryAfter("1.5", now)).toBe(1500);
    expect(parseRetryAfter("Mon, 13 Oct 2025 11:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
    expect(parseRetryAfter("-5", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});

describe("parseServiceError", () => {
  it("accepts a body without status and drops nothing it needs", () => {
    expect(parseServiceError(json({ code: "X", message: "m", extra: 1 }))).toEqual({
      code: "X",
      message: "m",
    });
  });
});

describe("service text is redacted of what looks like a secret (docs/protocol.md §11)", () => {
  const stamp = Buffer.from(
    JSON.stringify({
      publicKey: `02${"ab".repeat(32)}`,
      scheme: "SIGNATURE_SCHEME_TK_API_P256",
      signature: "30".repeat(35),
    }),
  ).toString("base64url");
  const answer = (message: string, details?: object) => ({
    status: 401,
    headers: new Headers(),
    text: JSON.stringify({ status: 401, code: "WALLET_SIGNATURE_INVALID", message, details }),
  });

  it.each([
    ["a stamp the service echoes", `signature ${stamp} does not verify`],
    ["a public key", `key 04${"cd".repeat(64)} is not allowed`],
    ["a JWT", "token eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhYmMifQ.c2lnbmF0dXJlMTIz expired"],
    ["an OTP code", "code 000000 is not correct"],
  ])("%s", (_name, message) => {
    const error = errorFromResponse({ response: answer(message) });
    expect(error.message).toContain("[redacted]");
    for (const secret of [stamp, `04${"cd".repeat(64)}`, "000000", "eyJzdWIiOiJhYmMifQ"]) {
      expect(JSON.stringify(error)).not.toContain(secret);
    }
  });

  it("keeps codes, ids, field names and counts readable; details are redacted too", () => {
    const error = errorFromResponse({
      response: answer(
        "Request:7c0b7b4e-0000-4000-8000-000000000001 failed ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2 after 3 attempts",
        {
          reason: "REQUEST_ID_UNKNOWN",
          errors: [{ field: "clientPublicKey", message: `got 02${"ef".repeat(32)}` }],
        },
      ),
    });
    expect(error.message).toBe(
      "Request:7c0b7b4e-0000-4000-8000-000000000001 failed ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2 after 3 attempts",
    );
    expect(error.details).toMatchObject({
      reason: "REQUEST_ID_UNKNOWN",
      errors: [{ field: "clientPublicKey", message: "got [redacted]" }],
    });
  });
});
