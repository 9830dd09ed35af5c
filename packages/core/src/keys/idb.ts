// The IndexedDB half of the browser key store, through idb-keyval. Loaded with the page, not as a
// chunk: a key stored by an earlier visit is read as soon as IndexedDB answers (a dynamic import
// cost the first stamp tens of milliseconds in Firefox). ./indexeddb.ts checks ids and records
// before anything gets here and types the failures.
import { del, get, keys, promisifyRequest, set, type UseStore } from "idb-keyval";

// idb-keyval's createStore, with the factory injectable and looked up lazily.
function createUseStore(
  dbName: string,
  storeName: string,
  factory: IDBFactory | undefined,
): UseStore {
  let database: Promise<IDBDatabase> | undefined;
  const open = (): Promise<IDBDatabase> => {
    if (database) return database;
    const indexedDB = factory ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    if (!indexedDB) throw new Error("IndexedDB is not available here");
    const request = indexedDB.open(dbName);
    request.onupgradeneeded = () => request.result.createObjectStore(storeName);
    const opened = promisifyRequest(request);
    database = opened;
    opened.then(
      (db) => {
        // Safari sometimes closes the connection; reopen on next use.
        db.onclose = () => {
          database = undefined;
        };
      },
      () => {
        database = undefined;
      },
    );
    return opened;
  };
  return (mode, callback) =>
    open().then((db) => callback(db.transaction(storeName, mode).objectStore(storeName)));
}

/**
 * Plain IndexedDB operations on one object store (./indexeddb.ts types their failures).
 *
 * `entries` reads every record in one transaction and keeps them for the reads that follow
 * until that transaction completes: the session store's reads at start-up (the ids, then each
 * stored key) then cost no further round trip to the browser's storage. Until it completes no
 * write can change the store (IndexedDB starts a read-write transaction only once the read-only
 * ones created before it have finished), so such a read answers what a read of its own would. A
 * write through this store drops them at once, so that a read made after a write sees it.
 */
export function openIdbStore(dbName: string, storeName: string, factory: IDBFactory | undefined) {
  const useStore = createUseStore(dbName, storeName, factory);
  let kept: Map<IDBValidKey, unknown> | undefined;
  let writes = 0;
  const write = <T>(run: () => Promise<T>): Promise<T> => {
    writes++;
    kept = undefined;
    return run();
  };
  return {
    get: (id: string) => (kept ? Promise.resolve(kept.get(id)) : get(id, useStore)),
    set: (id: string, value: unknown) => write(() => set(id, value, useStore)),
    delete: (id: string) => write(() => del(id, useStore)),
    keys: () => (kept ? Promise.resolve([...kept.keys()]) : keys(useStore)),
    /** Every record's value; kept for the reads that follow, as above. */
    entries: (): Promise<unknown[]> =>
      useStore("readonly", async (store) => {
        const before = writes;
        const [ids, records] = await Promise.all([
          promisifyRequest(store.getAllKeys()),
          promisifyRequest(store.getAll()),
        ]);
        if (before === writes) {
          const read = new Map(ids.map((id, i) => [id, records[i]]));
          kept = read;
          store.transaction.oncomplete = store.transaction.onabort = () => {
            if (kept === read) kept = undefined;
          };
        }
        return records;
      }),
  };
}
