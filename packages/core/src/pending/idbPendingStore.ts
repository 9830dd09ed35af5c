// Kept calls in IndexedDB (./pendingStore.ts says what they are): the browser entries' default
// where the key store is IndexedDB. Its own module, so that a React Native build never holds
// idb-keyval.
import { openIdbStore } from "../keys/idb.js";
import { type KeptCall, type PendingStore, readKeptCall } from "./pendingStore.js";

/** Options of {@link createIndexedDbPendingStore}. */
export type IndexedDbPendingStoreOptions = {
  /** Database name. Default `"signet-pending"`. */
  dbName?: string | undefined;
  /** The IndexedDB factory. Default `globalThis.indexedDB`, looked up at first use. */
  indexedDB?: IDBFactory | undefined;
};

/**
 * Kept calls in IndexedDB (through idb-keyval), shared by the tabs of the origin and kept across
 * reloads. A record that does not read back as a kept call is deleted.
 * @throws from its methods what IndexedDB throws (the client treats keeping as best effort).
 * @example
 * ```ts
 * const client = createClient({ relayUrl, pendingStore: createIndexedDbPendingStore() });
 * ```
 */
export function createIndexedDbPendingStore(
  options: IndexedDbPendingStoreOptions = {},
): PendingStore {
  const idb = openIdbStore(options.dbName ?? "signet-pending", "calls", options.indexedDB);
  return {
    persistence: "indexeddb",
    get: async (id) => readKeptCall(await idb.get(id)),
    // Refused here too, not only on the way back: nothing but a resumable call is written.
    set: async (call) => {
      if (readKeptCall(call) === undefined) throw new TypeError("Not a resumable kept call");
      await idb.set(call.requestId, call);
    },
    delete: (id) => idb.delete(id),
    list: async () => {
      const calls: KeptCall[] = [];
      for (const id of await idb.keys()) {
        const call = readKeptCall(await idb.get(String(id)));
        if (call) calls.push(call);
        else await idb.delete(String(id));
      }
      return calls;
    },
  };
}
