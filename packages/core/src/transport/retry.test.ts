// The one retry policy: the backoff, merging, what is safe to repeat, the delay, and withRetry's loop.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { fakeClock } from "../../../test/src/scriptedFetch.js";
import { SignetError } from "../errors/errors.js";
import {
  backoffCeiling,
  backoffDelay,
  defaultBackoff,
  defaultRetryPolicy,
  type RetryEvent,
  resolveRetryPolicy,
  retryDelay,
  retryReasonOf,
} from "./retry.js";
import { withRetry } from "./withRetry.js";

const failure = (code: string, status?: number, details?: Record<string, unknown>) =>
  new SignetError(code, "x", {
    retryable: true,
    ...(status === undefined ? {} : { status }),
    ...(details ? { details } : {}),
  });

describe("resolveRetryPolicy", () => {
  it("merges field by field over the defaults; false turns retries off", () => {
    expect(resolveRetryPolicy()).toBe(defaultRetryPolicy);
    const policy = resolveRetryPolicy({ backoff: { baseMs: 10 } }, { retryCount: 5 });
    expect(policy).toMatchObject({
      retryCount: 5,
      backoff: { baseMs: 10, factor: 2, maxMs: 8_000 },
    });
    expect(resolveRetryPolicy(policy, false).retryCount).toBe(0);
    expect(resolveRetryPolicy({ retryCount: -2 }).retryCount).toBe(0);
  });
});

describe("retryReasonOf", () => {
  const rows: [string, SignetError, boolean, string | undefined][] = [
    ["no answer, safe", failure("NETWORK"), true, "transient"],
    ["no answer, unsafe", failure("NETWORK"), false, undefined],
    [
      "refused connection, unsafe",
      failure("NETWORK", undefined, { sent: false }),
      false,
      "transient",
    ],
    ["5xx, safe", failure("INTERNAL_ERROR", 500), true, "transient"],
    ["429, safe", failure("RATE_LIMITED", 429), true, "rate-limited"],
    ["429, unsafe", failure("RATE_LIMITED", 429), false, undefined],
    ["503 with Retry-After", failure("X", 503, { retryAfterMs: 1 }), true, "rate-limited"],
    ["aborted", new SignetError("ABORTED", "x"), true, undefined],
    ["4xx", new SignetError("UNAUTHORIZED", "x", { status: 401 }), true, undefined],
  ];
  it.each(rows)("%s", (_name, error, safe, expected) => {
    expect(retryReasonOf(error, { safe })).toBe(expected);
  });
});

it("retryDelay takes Retry-After within the cap, else the backoff; past the cap, none", () => {
  const policy = resolveRetryPolicy({ maxRetryAfterMs: 5_000 });
  expect(retryDelay(policy, { attempt: 1, retryAfterMs: 3_000, random: () => 0.5 })).toBe(3_000);
  expect(
    retryDelay(policy, { attempt: 1, retryAfterMs: 6_000, random: () => 0.5 }),
  ).toBeUndefined();
  expect(retryDelay(policy, { attempt: 2, random: () => 0.5 })).toBe(500);
});

describe("withRetry", () => {
  const setup = () => {
    const time = fakeClock();
    const events: RetryEvent[] = [];
    const base = {
      policy: resolveRetryPolicy({ retryCount: 2 }),
      method: "GET",
      path: "/quotes/Quote:1",
      sleep: time.sleep,
      random: () => 0.5,
      timer: time.clock,
      clock: time.clock,
      onRetry: (event: RetryEvent) => events.push(event),
    };
    return { time, events, base };
  };

  it("repeats a safe failure, announcing each wait, and returns the first success", async () => {
    const { time, events, base } = setup();
    const task = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(failure("NETWORK"))
      .mockRejectedValueOnce(failure("RATE_LIMITED", 429, { retryAfterMs: 2_000 }))
      .mockResolvedValue("ok");
    await expect(withRetry(task, { ...base, safe: true })).resolves.toBe("ok");
    expect(time.sleeps).toEqual([250, 2_000]);
    expect(events.map((e) => [e.reason, e.attempt, e.delayMs, e.code])).toEqual([
      ["transient", 1, 250, "NETWORK"],
      ["rate-limited", 2, 2_000, "RATE_LIMITED"],
    ]);
  });

  it("stops after retryCount, on an unsafe failure, and when shouldRetry says no", async () => {
    const { base } = setup();
    const down = vi.fn(async () => {
      throw failure("NETWORK");
    });
    await expect(withRetry(down, { ...base, safe: true })).rejects.toMatchObject({
      code: "NETWORK",
    });
    expect(down).toHaveBeenCalledTimes(3);
    down.mockClear();
    await expect(withRetry(down, { ...base, safe: false })).rejects.toMatchObject({
      code: "NETWORK",
    });
    expect(down).toHaveBeenCalledTimes(1);
    down.mockClear();
    const policy = resolveRetryPolicy({ shouldRetry: () => false });
    await expect(withRetry(down, { ...base, policy, safe: true })).rejects.toThrow();
    expect(down).toHaveBeenCalledTimes(1);
  });

  it("makes no wait that would end past the policy's timeoutMs", async () => {
    const { base, time } = setup();
    const task = vi.fn(async () => {
      throw failure("RATE_LIMITED", 429, { retryAfterMs: 20_000 });
    });
    const policy = resolveRetryPolicy({ timeoutMs: 10_000 });
    await expect(withRetry(task, { ...base, policy, safe: true })).rejects.toMatchObject({
      code: "RATE_LIMITED",
    });
    expect(time.sleeps).toEqual([]);
  });
});

describe("backoffCeiling", () => {
  it("doubles from 500 ms and caps at 8 s by default", () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffCeiling({ attempt }));
    expect(ceilings).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(defaultBackoff).toEqual({ baseMs: 500, factor: 2, maxMs: 8000 });
  });

  it("follows a custom schedule", () => {
    const schedule = { baseMs: 100, factor: 3, maxMs: 1000 };
    const ceilings = [1, 2, 3, 4].map((attempt) => backoffCeiling({ ...schedule, attempt }));
    expect(ceilings).toEqual([100, 300, 900, 1000]);
  });

  it("never returns a negative or non-finite ceiling", () => {
    expect(backoffCeiling({ attempt: 0 })).toBe(500);
    expect(backoffCeiling({ attempt: 10_000 })).toBe(8000);
    expect(backoffCeiling({ attempt: 3, baseMs: -1 })).toBe(0);
    expect(backoffCeiling({ attempt: 3, maxMs: Number.NaN })).toBe(0);
  });
});

describe("backoffDelay (full jitter)", () => {
  it("scales the ceiling by the random draw", () => {
    expect(backoffDelay({ attempt: 1, random: () => 0 })).toBe(0);
    expect(backoffDelay({ attempt: 2, random: () => 0.5 })).toBe(500);
    expect(backoffDelay({ attempt: 3, random: () => 0.999_999 })).toBe(1999);
  });

  it("clamps a misbehaving random source", () => {
    expect(backoffDelay({ attempt: 1, random: () => 7 })).toBe(500);
    expect(backoffDelay({ attempt: 1, random: () => -1 })).toBe(0);
    expect(backoffDelay({ attempt: 1, random: () => Number.NaN })).toBe(0);
  });

  it("always lies in [0, ceiling]", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, draw) => {
          const delay = backoffDelay({ attempt, random: () => draw });
          return Number.isInteger(delay) && delay >= 0 && delay <= backoffCeiling({ attempt });
        },
      ),
    );
  });
});
