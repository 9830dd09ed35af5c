// The storage of kept calls that a reload or a second tab shares (docs/protocol.md §2.5): one
// in-memory `PendingStore`, handed to each client made over it, as an app's own `pendingStore`
// would be. Records are copied in (structuredClone), so no client holds another's object.
import type { KeptCall, PendingStore } from "@signet/core";

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
