// The storage of kept calls that a reload or a second tab shares (docs/protocol.md §2.5): one
// in-memory `PendingStore`, handed to each client made over it, as an app's own `pendingStore`
// would be. Records are copied in (structuredClone), so no client holds another's object.
// Beside it, the waits those flow tests share.
import type { KeptCall, PendingEvent, PendingStore, SignetEvent } from "@signet/core";

/**
 * A kept-call store that several clients share: "two tabs", or "a reload" (a new client on the
 * same stores).
 * @example
 * ```ts
 * const pendingStore = sharedPendingStore();
 * const tab = createClient({ relayUrl, keyStore, pendingStore });
 * ```
 */
export function sharedPendingStore(): PendingStore {
  const calls = new Map<string, KeptCall>();
  return {
    persistence: "memory",
    get: async (id) => calls.get(id),
    set: async (call) => void calls.set(call.requestId, structuredClone(call)),
    delete: async (id) => void calls.delete(id),
    list: async () => [...calls.values()],
  };
}

/** The `pending` events among a client's events. */
export const pendingOf = (events: readonly SignetEvent[]) =>
  events.filter((e): e is PendingEvent => e.type === "pending");

/** Polls `check` every 10 ms until it holds; fails naming `what` after 10 s. */
export async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until the emulator's request log has not grown for 150 ms (late deliveries landed). */
export async function quiet(stack: { requests(): Promise<readonly unknown[]> }): Promise<void> {
  let seen = -1;
  for (;;) {
    const now = (await stack.requests()).length;
    if (now === seen) return;
    seen = now;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
