// Every rule of the signed-request engine as a row: the answer, the state, the step.
import { describe, expect, it } from "vitest";
import { SignetError } from "../errors/errors.js";
import type { TransportResponse } from "./http.js";
import {
  type Answer,
  mayHaveTakenEffect,
  nextStep,
  type ReadAnswerParameters,
  readAnswer,
  type Step,
  type StepState,
} from "./nextStep.js";

const NOW = Date.parse("2026-01-01T00:00:00Z");
const base: StepState = {
  direct: false,
  expectedStatus: 204,
  challengeExpiresAtMs: NOW + 60_000,
  now: NOW,
  pastDeadline: false,
  transientRetries: 0,
  maxTransientRetries: 2,
  rateLimitRetries: 0,
  maxRateLimitRetries: 2,
  maxRetryAfterMs: 30_000,
};

const network = new SignetError("NETWORK", "down", { retryable: true });
const timeout = new SignetError("TIMEOUT", "slow", { retryable: true });
const aborted = new SignetError("ABORTED", "stop");
const serverError = new SignetError("INTERNAL_ERROR", "oops", { status: 500, retryable: true });
const limited = new SignetError("RATE_LIMITED", "slow down", { status: 429, retryable: true });
const unavailable = new SignetError("UPSTREAM_UNAVAILABLE", "later", {
  status: 503,
  retryable: true,
});
const badStamp = new SignetError("WALLET_SIGNATURE_INVALID", "no", { status: 401 });
const expiredId = new SignetError("UNAUTHORIZED", "request id expired", { status: 401 });
const conflict = new SignetError("QUOTE_ALREADY_EXECUTED", "done", { status: 409 });

const rows: [string, Answer, Partial<StepState>, Step][] = [
  [
    "no answer, retryable: re-send",
    { failure: network },
    {},
    { type: "resend", reason: "transient", cause: network },
  ],
  [
    "no answer, retries spent: fail",
    { failure: network },
    { transientRetries: 2 },
    { type: "fail", error: network },
  ],
  ["aborted: fail at once", { failure: aborted }, {}, { type: "fail", error: aborted }],
  [
    "timeout past the deadline: PROCESSING_TIMEOUT",
    { failure: timeout },
    { pastDeadline: true },
    { type: "timeout", cause: timeout },
  ],
  [
    "timeout before the deadline: re-send",
    { failure: timeout },
    {},
    { type: "resend", reason: "transient", cause: timeout },
  ],
  ["202 in challenge mode: sign it", { status: 202 }, {}, { type: "sign" }],
  [
    "202 in direct mode: an unexpected status",
    { status: 202, error: conflict },
    { direct: true },
    { type: "fail", error: conflict },
  ],
  ["expected 204: done", { status: 204 }, {}, { type: "succeed" }],
  [
    "200 on a 204 endpoint, read as still processing: processing",
    { status: 200, processing: true },
    {},
    { type: "resend", reason: "processing" },
  ],
  [
    "200 on a 201 endpoint whose body is the resource (read as settled): done",
    { status: 200, processing: false },
    { expectedStatus: 201 },
    { type: "succeed" },
  ],
  [
    "200 PROCESSING on a 200 endpoint: processing",
    { status: 200, processing: true },
    { expectedStatus: 200 },
    { type: "resend", reason: "processing" },
  ],
  [
    "200 with a result on a 200 endpoint: done",
    { status: 200, processing: false },
    { expectedStatus: 200 },
    { type: "succeed" },
  ],
  [
    "201 among several expected: done",
    { status: 201 },
    { expectedStatus: [200, 201] },
    { type: "succeed" },
  ],
  [
    "429 with a short wait: re-send after it",
    { status: 429, error: limited, delayMs: 1_000 },
    {},
    { type: "resend", reason: "rate-limited", delayMs: 1_000, cause: limited },
  ],
  [
    "429 with a long wait: fail",
    { status: 429, error: limited, delayMs: 60_000 },
    {},
    { type: "fail", error: limited },
  ],
  [
    "429, retries spent: fail",
    { status: 429, error: limited },
    { rateLimitRetries: 2 },
    { type: "fail", error: limited },
  ],
  [
    "503 with Retry-After: re-send after it, as a rate limit",
    { status: 503, error: unavailable, delayMs: 2_000 },
    {},
    { type: "resend", reason: "rate-limited", delayMs: 2_000, cause: unavailable },
  ],
  [
    "503 without Retry-After: a transient re-send",
    { status: 503, error: unavailable },
    {},
    { type: "resend", reason: "transient", cause: unavailable },
  ],
  [
    "5xx: re-send",
    { status: 500, error: serverError },
    {},
    { type: "resend", reason: "transient", cause: serverError },
  ],
  [
    "5xx, retries spent: fail",
    { status: 500, error: serverError },
    { transientRetries: 2 },
    { type: "fail", error: serverError },
  ],
  [
    "401 for an expired request id: the challenge lapsed",
    { status: 401, error: expiredId },
    {},
    { type: "lapse", cause: expiredId },
  ],
  [
    "409 after expiresAt: still the 409",
    { status: 409, error: conflict },
    { now: NOW + 60_000 },
    { type: "fail", error: conflict },
  ],
  [
    "401 bad stamp: fails, never a lapse",
    { status: 401, error: badStamp },
    { now: NOW + 60_000 },
    { type: "fail", error: badStamp },
  ],
  [
    "401 on leg 1 (no challenge): fail",
    { status: 401, error: expiredId },
    { challengeExpiresAtMs: undefined },
    { type: "fail", error: expiredId },
  ],
  ["409: fail", { status: 409, error: conflict }, {}, { type: "fail", error: conflict }],
];

describe("nextStep", () => {
  it.each(rows)("%s", (_name, answer, state, step) => {
    expect(nextStep(answer, { ...base, ...state })).toEqual(step);
  });

  it("a 401 past the challenge's expiry is a lapse when its status says 401", () => {
    const unauthorized = new SignetError("UNAUTHORIZED", "no", { status: 401 });
    expect(nextStep({ status: 401, error: unauthorized }, { ...base, now: NOW + 60_000 })).toEqual({
      type: "lapse",
      cause: unauthorized,
    });
  });

  it("is pure: the same answer and state give the same step, and nothing is changed", () => {
    const state = { ...base };
    const answer: Answer = { status: 500, error: serverError };
    const first = nextStep(answer, state);
    expect(nextStep(answer, state)).toEqual(first);
    expect(state).toEqual(base);
  });
});

describe("readAnswer: what an HTTP answer says, each rule once", () => {
  const response = (status: number, json?: unknown, retryAfter?: string): TransportResponse => ({
    status,
    headers: new Headers(retryAfter === undefined ? {} : { "retry-after": retryAfter }),
    text: json === undefined ? "" : JSON.stringify(json),
    durationMs: 1,
  });
  const read = (res: TransportResponse, over: Partial<ReadAnswerParameters> = {}) =>
    readAnswer({
      response: res,
      direct: false,
      expectedStatus: 204,
      isProcessing: (body) =>
        typeof body === "object" &&
        body !== null &&
        "status" in body &&
        body.status === "PROCESSING",
      isResource: (body) => typeof body === "object" && body !== null && "id" in body,
      now: NOW,
      details: {},
      rateLimitDelay: () => 700,
      ...over,
    }).answer;
  const error = { code: "RATE_LIMITED", message: "slow" };
  it.each<[string, TransportResponse, Partial<ReadAnswerParameters>, Partial<Answer>]>([
    ["a 200 on a 204 endpoint: still processing", response(200, {}), {}, { processing: true }],
    [
      "a 200 on a 201 endpoint, not the resource: still processing",
      response(200, { status: "PROCESSING" }),
      { expectedStatus: 201 },
      { processing: true },
    ],
    [
      "a 200 on a 201 endpoint that is the resource: settled",
      response(200, { id: "Session:1" }),
      { expectedStatus: 201 },
      { processing: false },
    ],
    [
      "a 200 on a 201 endpoint that is not JSON: still processing",
      { status: 200, headers: new Headers(), text: "<html>", durationMs: 1 },
      { expectedStatus: 201 },
      { processing: true },
    ],
    [
      "a 200 PROCESSING on a 200 endpoint: processing",
      response(200, { status: "PROCESSING" }),
      { expectedStatus: 200 },
      { processing: true },
    ],
    [
      "a 200 result on a 200 endpoint: settled",
      response(200, { id: "Quote:1" }),
      { expectedStatus: 200 },
      { processing: false },
    ],
    ["a 429 with Retry-After: its wait", response(429, error, "2"), {}, { delayMs: 2_000 }],
    ["a 429 without Retry-After: the backoff", response(429, error), {}, { delayMs: 700 }],
    ["a 503 with Retry-After: a rate limit", response(503, error, "3"), {}, { delayMs: 3_000 }],
  ])("%s", (_name, res, over, expected) => {
    expect(read(res, over)).toMatchObject(expected);
  });
  it.each<[string, TransportResponse, Partial<ReadAnswerParameters>]>([
    ["a 503 without Retry-After: no wait (transient)", response(503, error), {}],
    ["a 500 with Retry-After: no wait (not a rate limit)", response(500, error, "1"), {}],
    [
      "a 429 once the rate-limit retries are spent",
      response(429, error, "1"),
      { rateLimitDelay: undefined },
    ],
  ])("%s", (_name, res, over) => {
    expect(read(res, over)).not.toHaveProperty("delayMs");
  });
});

describe("mayHaveTakenEffect: which final answers leave an earlier send's outcome open", () => {
  const error = (code: string, status?: number, reason?: string) =>
    new SignetError(code, "x", {
      ...(status === undefined ? {} : { status }),
      ...(reason === undefined ? {} : { details: { reason } }),
    });
  it.each<[string, SignetError, boolean]>([
    ["no answer", network, true],
    ["PROCESSING_TIMEOUT", error("PROCESSING_TIMEOUT"), true],
    ["a lapse after a send", error("CHALLENGE_EXPIRED"), true],
    ["a 500", error("INTERNAL_ERROR", 500), true],
    ["the relay's 504", error("UPSTREAM_TIMEOUT", 504), true],
    ["a used request id", error("UNAUTHORIZED", 401, "REQUEST_ID_ALREADY_USED"), true],
    ["an unknown request id", error("UNAUTHORIZED", 401, "REQUEST_ID_UNKNOWN"), true],
    [
      "a 401 with no reason (the service's only word for a spent id)",
      error("UNAUTHORIZED", 401),
      true,
    ],
    [
      "the session ended by an earlier refresh",
      error("UNAUTHORIZED", 401, "SESSION_NOT_ACTIVE"),
      true,
    ],
    [
      "the OTP challenge consumed by an earlier verify",
      error("UNAUTHORIZED", 401, "OTP_NOT_ISSUED"),
      true,
    ],
    ["a wrong OTP code", error("UNAUTHORIZED", 401, "OTP_CODE_INVALID"), false],
    ["a refused signature", error("WALLET_SIGNATURE_INVALID", 401), false],
    ["a 400", error("INVALID_INPUT", 400), false],
    ["a 403", error("FORBIDDEN", 403), false],
    [
      "the relay's 403 for a resource it no longer lists (an earlier send may have ended it)",
      error("RELAY_FORBIDDEN", 403),
      true,
    ],
    ["a 409", error("CONFLICT", 409), false],
    ["a 429", error("RATE_LIMITED", 429), false],
  ])("%s → %s", (_, thrown, expected) => {
    expect(mayHaveTakenEffect(thrown)).toBe(expected);
  });
});
