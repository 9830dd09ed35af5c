// The memory webhook store's bounds and sweep, on a fake clock: each kind (delivery ids, senders,
// ends) has its own bound, so a flood of one never evicts another; delivery ids are never evicted
// (a full shelf refuses, and the receiver answers 503 for the service to retry), senders and ends
// are, oldest first; expired entries leave before anything live does, so nothing grows past its
// bound and a full shelf frees itself as its entries expire.
import { describe, expect, it } from "vitest";
import { createMemoryWebhookStore } from "./store.js";

const delivery = (n: number) => `webhook:event:Webhook:${n}`;
const owner = (n: number) => `webhook:owner:Request:${n}`;
const end = (n: number) => `webhook:operation:Request:${n}`;

function fakeClock() {
  const clock = { at: 1_000_000 };
  return { clock, now: () => clock.at };
}

describe("createMemoryWebhookStore", () => {
  it("bounds each kind apart: a flood of senders and ends keeps every delivery id", async () => {
    const { now } = fakeClock();
    const store = createMemoryWebhookStore({ maxDeliveries: 3, maxOwners: 2, maxEnds: 2, now });
    for (const n of [1, 2, 3]) expect(await store.claim(delivery(n), "1", 60_000)).toBe(true);
    for (let n = 0; n < 50; n++) {
      await store.claim(owner(n), "Customer:x", 60_000);
      await store.publish(end(n), "{}", 60_000);
    }
    // Still remembered: their replays are duplicates.
    for (const n of [1, 2, 3]) expect(await store.claim(delivery(n), "1", 60_000)).toBe(false);
    // Senders and ends keep only the newest, up to their own bounds.
    expect(await store.get(owner(47))).toBeUndefined();
    expect(await store.get(owner(48))).toBe("Customer:x");
    expect(await store.get(owner(49))).toBe("Customer:x");
    expect(await store.get(end(47))).toBeUndefined();
    expect(await store.get(end(49))).toBe("{}");
  });

  it("a full shelf of live delivery ids refuses a new one rather than forget one (a replay stays refused)", async () => {
    const { clock, now } = fakeClock();
    const store = createMemoryWebhookStore({ maxDeliveries: 2, now });
    await store.claim(delivery(1), "1", 10_000);
    await store.claim(delivery(2), "1", 10_000);
    await expect(store.claim(delivery(3), "1", 10_000)).rejects.toThrow(/deliveries/);
    expect(await store.claim(delivery(1), "1", 10_000)).toBe(false);
    // Once they expire they are swept, and the shelf takes new ids again.
    clock.at += 10_000;
    expect(await store.claim(delivery(3), "1", 10_000)).toBe(true);
    expect(await store.claim(delivery(4), "1", 10_000)).toBe(true);
    await expect(store.claim(delivery(5), "1", 10_000)).rejects.toThrow(/deliveries/);
  });

  it("sweeps expired entries before evicting a live one, even when they are not the oldest", async () => {
    const { clock, now } = fakeClock();
    const store = createMemoryWebhookStore({ maxOwners: 2, now });
    await store.claim(owner(1), "Customer:long", 60_000);
    await store.claim(owner(2), "Customer:short", 100);
    clock.at += 200;
    await store.claim(owner(3), "Customer:new", 60_000);
    // The expired sender went, not the oldest live one.
    expect(await store.get(owner(1))).toBe("Customer:long");
    expect(await store.get(owner(3))).toBe("Customer:new");
  });

  it("never holds more than its bounds, however many entries come and expire", async () => {
    const { clock, now } = fakeClock();
    const store = createMemoryWebhookStore({ maxDeliveries: 10, maxOwners: 10, maxEnds: 10, now });
    for (let n = 0; n < 10_000; n++) {
      clock.at += 7;
      expect(await store.claim(delivery(n), "1", 50)).toBe(true);
      await store.claim(owner(n), "Customer:x", 50);
      await store.publish(end(n), "{}", 50);
    }
    // Every one of them has expired: none holds a place, and the bound holds exactly.
    clock.at += 50;
    for (let n = 0; n < 10; n++) expect(await store.claim(delivery(-n - 1), "1", 50)).toBe(true);
    await expect(store.claim(delivery(-11), "1", 50)).rejects.toThrow(/deliveries \(10\)/);
  });

  it("the deprecated maxEntries is each kind's default; a bound that is no positive integer is a TypeError naming it", async () => {
    const store = createMemoryWebhookStore({ maxEntries: 1, now: fakeClock().now });
    await store.claim(delivery(1), "1", 60_000);
    await expect(store.claim(delivery(2), "1", 60_000)).rejects.toThrow();
    await store.claim(owner(1), "a", 60_000);
    await store.claim(owner(2), "b", 60_000);
    expect(await store.get(owner(1))).toBeUndefined();
    for (const name of ["maxDeliveries", "maxOwners", "maxEnds", "maxEntries"] as const)
      for (const bad of [0, -1, 1.5, Number.NaN])
        expect(() => createMemoryWebhookStore({ [name]: bad })).toThrowError(
          new TypeError(`"${name}" expected a positive integer, got ${bad}`),
        );
  });
});
