// The one wait of every retry loop, case by case: which delay it takes, what refuses it, and what
// it announces; and the loop that runs tries until one is done.
import { describe, expect, it } from "vitest";
import { SignetError } from "../errors/errors.js";
import { repeat, type Wait, type WaitSeat, waitOnce } from "./repeat.js";
import { type RetryEvent, resolveRetryPolicy } from "./retry.js";

const NOW = 1_700_000_000_000;
const failure = new SignetError("NETWORK", "no answer", { retryable: true });

function seat(over: Partial<WaitSeat> = {}) {
  const slept: number[] = [];
  const events: RetryEvent[] = [];
  const s: WaitSeat = {
    // Backoff without jitter spread: random 1 gives the ceiling, 500 ms doubling.
    policy: resolveRetryPolicy({ backoff: { baseMs: 500, maxMs: 8_000 }, maxRetryAfterMs: 30_000 }),
    request: { method: "GET", path: "/x", operation: "op" },
    random: () => 1,
    sleep: async (ms) => {
      slept.push(ms);
    },
    clock: { now: () => NOW },
    fits: () => undefined,
    onRetry: (event) => events.push(event),
    ...over,
  };
  return { s, slept, events };
}

describe("waitOnce", () => {
  const rows: [string, Wait, number | "throws"][] = [
    ["the caller's interval", { reason: "processing", attempt: 3, delayMs: 1_234 }, 1_234],
    [
      "a Retry-After within the policy",
      { reason: "rate-limited", attempt: 1, cause: failure, retryAfterMs: 3_000 },
      3_000,
    ],
    [
      "a Retry-After over the policy's max: the cause",
      { reason: "rate-limited", attempt: 1, cause: failure, retryAfterMs: 60_000 },
      "throws",
    ],
    ["the backoff, first retry", { reason: "transient", attempt: 1, cause: failure }, 500],
    ["the backoff, third retry", { reason: "transient", attempt: 3, cause: failure }, 2_000],
  ];
  for (const [name, wait, expected] of rows) {
    it(name, async () => {
      const { s, slept, events } = seat();
      if (expected === "throws") {
        await expect(waitOnce(wait, s)).rejects.toBe(failure);
        expect([slept, events]).toEqual([[], []]);
        return;
      }
      await expect(waitOnce(wait, s)).resolves.toBe(expected);
      expect(slept).toEqual([expected]);
      expect(events).toEqual([
        expect.objectContaining({
          type: "retry",
          reason: wait.reason,
          attempt: wait.attempt,
          delayMs: expected,
          retryAt: NOW + expected,
        }),
      ]);
    });
  }

  it("a wait past the caller's budget throws what `fits` throws, and asks shouldRetry nothing", async () => {
    let asked = 0;
    const late = new SignetError("PROCESSING_TIMEOUT", "late", { retryable: true });
    const { s, slept, events } = seat({
      policy: resolveRetryPolicy({
        shouldRetry: () => {
          asked += 1;
          return true;
        },
      }),
      fits: () => {
        throw late;
      },
    });
    await expect(waitOnce({ reason: "transient", attempt: 1, cause: failure }, s)).rejects.toBe(
      late,
    );
    expect([asked, slept, events]).toEqual([0, [], []]);
  });

  it("shouldRetry saying no throws the cause before any event", async () => {
    const { s, slept, events } = seat({
      policy: resolveRetryPolicy({ shouldRetry: () => false }),
    });
    await expect(waitOnce({ reason: "transient", attempt: 1, cause: failure }, s)).rejects.toBe(
      failure,
    );
    expect([slept, events]).toEqual([[], []]);
  });

  it("an aborted signal ends the wait with ABORTED", async () => {
    const controller = new AbortController();
    controller.abort();
    const { s } = seat({ signal: controller.signal });
    await expect(
      waitOnce({ reason: "processing", attempt: 1, delayMs: 10 }, s),
    ).rejects.toMatchObject({
      code: "ABORTED",
    });
  });
});

describe("repeat", () => {
  it("runs tries until one is done, waiting as each says", async () => {
    const { s, slept } = seat();
    const value = await repeat(
      async (tries) =>
        tries < 3
          ? { again: { reason: "processing", attempt: tries, delayMs: tries * 10 } }
          : { done: tries },
      s,
    );
    expect([value, slept]).toEqual([3, [10, 20]]);
  });
});
