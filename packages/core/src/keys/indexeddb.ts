// docs/architecture.md layer 2: browser persistence of non-extractable WebCrypto keys in IndexedDB through
// idb-keyval, in Signet's own database; a probe decides whether this browser can hold them.
import type { CryptoBackend } from "../crypto/backend.js";
import { loadChunk } from "../crypto/chunk.js";
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
  type Idb = ReturnType<typeof import("./idb.js").openIdbStore>;
  // IndexedDB's code loads with the first call (a failed load is retried on the next one).
  let opened: Promise<Idb> | undefined;
  const idb = async <T>(run: (store: Idb) => Promise<T>): Promise<T> => {
    opened ??= loadChunk(() => import("./idb.js")).then(
      (m) =>
        m.openIdbStore(options.dbName ?? "signet", options.storeName ?? "keys", options.indexedDB),
      (error) => {
        opened = undefined;
        throw error;
      },
    );
    const store = await opened;
    try {
      return await run(store);
    } catch (cause) {
      throw new SignetError("KEY_STORAGE_UNAVAILABLE", "IndexedDB key storage failed", { cause });
    }
  };
  return {
    persistence: "indexeddb",
    get: async (id) => {
      assertId(id);
      const record = await idb((store) => store.get(id));
      if (record === undefined) return undefined;
      assertRecord(record);
      return record;
    },
    set: async (id, record) => {
      assertId(id);
      assertRecord(record);
      await idb((store) => store.set(id, record));
    },
    delete: async (id) => {
      assertId(id);
      await idb((store) => store.delete(id));
    },
    list: async () =>
      (await idb((store) => store.keys())).filter((id): id is string => typeof id === "string"),
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
