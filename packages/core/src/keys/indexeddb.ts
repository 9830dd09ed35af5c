// docs/architecture.md layer 2: browser persistence of non-extractable WebCrypto keys in IndexedDB through
// idb-keyval, in Signet's own database; a probe decides whether this browser can hold them.
import { del, get, keys, promisifyRequest, set, type UseStore } from "idb-keyval";
import type { CryptoBackend } from "../crypto/backend.js";
import { createWebCryptoBackend } from "../crypto/webcrypto.js";
import { SignetError } from "../errors.js";
import {
  assertId,
  assertRecord,
  createMemoryKeyStore,
  type KeyPersistence,
  type KeyStore,
} from "./key-store.js";

/** Options of {@link createIndexedDbKeyStore}. */
export type IndexedDbKeyStoreOptions = {
  /** Database name. Default `"signet"`. */
  dbName?: string | undefined;
  /** Object store name. Default `"keys"`. */
  storeName?: string | undefined;
  /** The IndexedDB factory. Default: `globalThis.indexedDB`, looked up when the store is first used. */
  indexedDB?: IDBFactory | undefined;
};

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
    if (!indexedDB)
      throw new SignetError("KEY_STORAGE_UNAVAILABLE", "IndexedDB is not available here");
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

async function storage<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    if (cause instanceof SignetError) throw cause;
    throw new SignetError("KEY_STORAGE_UNAVAILABLE", "IndexedDB key storage failed", { cause });
  }
}

/**
 * A key store in IndexedDB (through idb-keyval) that keeps WebCrypto `CryptoKey` objects by
 * structured clone, so non-extractable keys survive reloads without ever being exportable.
 *
 * @param options - `dbName` (default `"signet"`), `storeName` (default `"keys"`), `indexedDB` factory.
 * @returns A {@link KeyStore}. Nothing is opened until first use.
 * @throws {SignetError} From its methods: `KEY_STORAGE_UNAVAILABLE` when IndexedDB fails.
 * @example
 * ```ts
 * const store = createIndexedDbKeyStore({ dbName: "my-app-keys" });
 * await store.set("Session:1", key.toRecord());
 * ```
 */
export function createIndexedDbKeyStore(options: IndexedDbKeyStoreOptions = {}): KeyStore {
  const useStore = createUseStore(
    options.dbName ?? "signet",
    options.storeName ?? "keys",
    options.indexedDB,
  );
  return {
    persistence: "indexeddb",
    get: async (id) => {
      assertId(id);
      const record = await storage(() => get(id, useStore));
      if (record === undefined) return undefined;
      assertRecord(record);
      return record;
    },
    set: async (id, record) => {
      assertId(id);
      assertRecord(record);
      await storage(() => set(id, record, useStore));
    },
    delete: async (id) => {
      assertId(id);
      await storage(() => del(id, useStore));
    },
    list: async () =>
      (await storage(() => keys(useStore))).filter((id): id is string => typeof id === "string"),
  };
}

/** Options of {@link createDefaultKeyStore}. */
export type DefaultKeyStoreOptions = IndexedDbKeyStoreOptions & {
  /** Backend that makes the probe key. Default: WebCrypto. */
  backend?: CryptoBackend | undefined;
  /** Give up on IndexedDB after this many milliseconds (some browsers never answer). Default 3,000. */
  timeoutMs?: number | undefined;
};

const PROBE_ID = "signet:probe";

/**
 * Picks the best key store this browser allows: IndexedDB when it can store and read back a real
 * non-extractable `CryptoKey`, otherwise memory (no IndexedDB, Safari private browsing, Lockdown
 * Mode, `DataCloneError`, a hanging open). Call at start-up and show `persistence` to the user
 * when it is `"memory"` (signing in again after a reload).
 *
 * @param options - {@link DefaultKeyStoreOptions}.
 * @returns `{ store, persistence }`.
 * @throws Never for storage problems (they select memory); `CRYPTO_UNAVAILABLE` without WebCrypto.
 * @example
 * ```ts
 * const { store, persistence } = await createDefaultKeyStore();
 * if (persistence === "memory") showNotice("Keys last until this tab closes");
 * ```
 */
export async function createDefaultKeyStore(
  options: DefaultKeyStoreOptions = {},
): Promise<{ store: KeyStore; persistence: KeyPersistence }> {
  const memory = () => ({ store: createMemoryKeyStore(), persistence: "memory" as const });
  const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory) return memory();
  const backend = options.backend ?? createWebCryptoBackend();
  const probeKey = await backend.generateSigningKey();
  const store = createIndexedDbKeyStore({ ...options, indexedDB: factory });
  const probe = async (): Promise<boolean> => {
    try {
      await store.set(PROBE_ID, probeKey.toRecord());
      const record = await store.get(PROBE_ID);
      if (!record) return false;
      // Reading back is not enough: the clone must still sign with the same key.
      const restored = await backend.restoreSigningKey(record);
      return restored.publicKey === probeKey.publicKey;
    } finally {
      await store.delete(PROBE_ID).catch(() => undefined);
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), options.timeoutMs ?? 3_000);
  });
  try {
    const ok = await Promise.race([probe(), timeout]);
    return ok ? { store, persistence: "indexeddb" } : memory();
  } catch {
    return memory();
  } finally {
    clearTimeout(timer);
  }
}
