// The one retry policy: merging, what is safe to repeat, the delay, and withRetry's loop.
import { describe, expect, it, vi } from "vitest";
import { fakeClock } from "../../../test/src/scriptedFetch.js";
import { SignetError } from "../errors.js";
import {
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
