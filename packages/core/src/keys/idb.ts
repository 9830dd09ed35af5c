// The IndexedDB half of the browser key store, through idb-keyval: loaded as a chunk of its own
// when a store is first used. ./indexeddb.ts checks ids and records before anything gets here and
// turns failures into KEY_STORAGE_UNAVAILABLE, so that this chunk shares nothing but idb-keyval.
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

/** Plain IndexedDB operations on one object store (./indexeddb.ts types their failures). */
export function openIdbStore(dbName: string, storeName: string, factory: IDBFactory | undefined) {
  const useStore = createUseStore(dbName, storeName, factory);
  return {
    get: (id: string) => get(id, useStore),
    set: (id: string, value: unknown) => set(id, value, useStore),
    delete: (id: string) => del(id, useStore),
    keys: () => keys(useStore),
  };
}
