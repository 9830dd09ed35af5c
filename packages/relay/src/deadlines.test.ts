// One timer for many deadlines of one duration; the bounded slots of calls to the service.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDeadlines } from "./deadlines.js";
import { createSlots } from "./upstream.js";

describe("createDeadlines", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("expires each deadline once, in start order, and never one that was stopped", () => {
    const deadlines = createDeadlines(1_000);
    const expired: string[] = [];
    deadlines.start(() => expired.push("a"));
    vi.advanceTimersByTime(300);
    const stopB = deadlines.start(() => expired.push("b"));
    deadlines.start(() => expired.push("c"));
    vi.advanceTimersByTime(699);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["a"]);
    stopB();
    vi.advanceTimersByTime(300);
    expect(expired).toEqual(["a", "c"]);
    vi.advanceTimersByTime(5_000);
    expect(expired).toEqual(["a", "c"]);
  });

  it("keeps one timer for any number of pending deadlines", () => {
    const deadlines = createDeadlines(30_000);
    const stops = Array.from({ length: 10_000 }, () => deadlines.start(() => {}));
    expect(vi.getTimerCount()).toBe(1);
    for (const stop of stops) stop();
    vi.advanceTimersByTime(30_000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("goes on expiring the others when one expiry throws", () => {
    const deadlines = createDeadlines(10);
    const expired: number[] = [];
    deadlines.start(() => {
      throw new Error("boom");
    });
    deadlines.start(() => expired.push(2));
    vi.advanceTimersByTime(10);
    expect(expired).toEqual([2]);
  });

  it("keeps start order when the first, the last and a middle one are stopped, and after", () => {
    const deadlines = createDeadlines(100);
    const expired: string[] = [];
    const stops = ["a", "b", "c", "d", "e"].map((name) =>
      deadlines.start(() => expired.push(name)),
    );
    stops[0]!();
    stops[4]!();
    stops[2]!();
    stops[2]!(); // again: nothing
    vi.advanceTimersByTime(50);
    const stopF = deadlines.start(() => expired.push("f"));
    deadlines.start(() => expired.push("g"));
    vi.advanceTimersByTime(50);
    expect(expired).toEqual(["b", "d"]);
    stopF();
    vi.advanceTimersByTime(50);
    expect(expired).toEqual(["b", "d", "g"]);
    // Emptied and started again: a new timer for the new head.
    deadlines.start(() => expired.push("h"));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(["b", "d", "g", "h"]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("createSlots", () => {
  it("lets at most `size` hold a slot; the next waits for a release, in arrival order", async () => {
    const slots = createSlots(2);
    const signal = new AbortController().signal;
    const first = await slots.acquire(signal);
    await slots.acquire(signal);
    const order: string[] = [];
    const third = slots.acquire(signal).then((release) => {
      order.push("third");
      return release;
    });
    const fourth = slots.acquire(signal).then(() => order.push("fourth"));
    await Promise.resolve();
    expect(order).toEqual([]);
    first();
    first(); // a second release of the same slot frees nothing more
    (await third)();
    await fourth;
    expect(order).toEqual(["third", "fourth"]);
  });

  it("gives up waiting when the call's deadline aborts, and the slot goes to the next", async () => {
    const slots = createSlots(1);
    const release = await slots.acquire(new AbortController().signal);
    const deadline = new AbortController();
    const waiting = slots.acquire(deadline.signal);
    const next = slots.acquire(new AbortController().signal);
    deadline.abort(new DOMException("late", "TimeoutError"));
    await expect(waiting).rejects.toMatchObject({ name: "TimeoutError" });
    release();
    await expect(next).resolves.toBeTypeOf("function");
  });
});
