// docs/architecture.md layer 2: browser persistence of non-extractable WebCrypto keys in IndexedDB through
// idb-keyval (./idb.ts), in Signet's own database; a stored key or a probe shows whether this
// browser can hold them.
import type { CryptoBackend } from "../crypto/backend.js";
import { loadChunk } from "../crypto/chunk.js";
import { createWebCryptoBackend } from "../crypto/webcrypto.js";
import { SignetError } from "../errors/errors.js";
import { openIdbStore } from "./idb.js";
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
  return indexedDbKeyStore(options).store;
}

/** The IndexedDB key store, and whether it already holds a `CryptoKey` (for the probe). */
function indexedDbKeyStore(options: IndexedDbKeyStoreOptions): {
  store: KeyStore;
  holdsCryptoKey: () => Promise<boolean>;
} {
  const idb = openIdbStore(
    options.dbName ?? "signet",
    options.storeName ?? "keys",
    options.indexedDB,
  );
  const typed = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (cause) {
      throw new SignetError("KEY_STORAGE_UNAVAILABLE", "IndexedDB key storage failed", { cause });
    }
  };
  const store: KeyStore = {
    persistence: "indexeddb",
    get: async (id) => {
      assertId(id);
      const record = await typed(() => idb.get(id));
      if (record === undefined) return undefined;
      assertRecord(record);
      return record;
    },
    set: async (id, record) => {
      assertId(id);
      assertRecord(record);
      await typed(() => idb.set(id, record));
    },
    delete: async (id) => {
      assertId(id);
      await typed(() => idb.delete(id));
    },
    list: async () =>
      (await typed(() => idb.keys())).filter((id): id is string => typeof id === "string"),
  };
  return {
    store,
    // One read of the few records of Signet's own store, kept for the reads that follow it.
    holdsCryptoKey: async () => (await typed(() => idb.entries())).some(isCryptoKeyRecord),
  };
}

/** A WebCrypto record whose private key came back from IndexedDB as a private `CryptoKey`. */
function isCryptoKeyRecord(value: unknown): boolean {
  const record = value as { type?: unknown; privateKey?: unknown } | null | undefined;
  return (
    record?.type === "webcrypto" &&
    typeof CryptoKey !== "undefined" &&
    record.privateKey instanceof CryptoKey &&
    record.privateKey.type === "private"
  );
}

/** Options of {@link createDefaultKeyStore}. */
export type DefaultKeyStoreOptions = IndexedDbKeyStoreOptions & {
  /** Backend that makes the probe key. Default: WebCrypto. */
  backend?: CryptoBackend | undefined;
  /** Give up on IndexedDB after this many milliseconds (some browsers never answer). Default 3,000. */
  timeoutMs?: number | undefined;
};

/**
 * Picks the best key store this browser allows: IndexedDB when it can store and read back a real
 * non-extractable `CryptoKey`, otherwise memory (no IndexedDB, Safari private browsing, Lockdown
 * Mode, `DataCloneError`, a hanging open). A store that already holds a key an earlier visit
 * stored has shown that (one read); an empty one is probed by storing a new key, reading it back
 * and signing with the copy. Call at start-up and show `persistence` to the user when it is
 * `"memory"` (signing in again after a reload).
 *
 * @param options - {@link DefaultKeyStoreOptions}.
 * @returns `{ store, persistence }`.
 * @throws Never for storage problems (they select memory); when there is a probe to make (an
 *   empty store), `CRYPTO_UNAVAILABLE` without WebCrypto and a retryable `NETWORK` when the probe's
 *   code (a lazy chunk) cannot be fetched.
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
  const { store, holdsCryptoKey } = indexedDbKeyStore({ ...options, indexedDB: factory });
  // One deadline for the whole decision: some browsers never answer an open.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), options.timeoutMs ?? 3_000);
  });
  const indexeddb = { store, persistence: "indexeddb" as const };
  try {
    // A key an earlier visit stored, read back as a private CryptoKey, is what the probe would
    // show: this browser clones CryptoKeys into IndexedDB and out again. Its record's own public
    // key is proven by its first signature (restoreSigningKey). One read, no write.
    if (await Promise.race([holdsCryptoKey().catch(() => false), timeout])) return indexeddb;
    // An empty store (a first visit) is probed: code a returning visit never runs, so a chunk
    // (under the same deadline). One that cannot be fetched says nothing about the storage:
    // NETWORK, not memory.
    const loaded = await Promise.race([loadChunk(() => import("./probe.js")), timeout]);
    if (!loaded) return memory();
    const { probe } = loaded;
    const key = await backend.generateSigningKey(); // CRYPTO_UNAVAILABLE is the caller's to see
    try {
      return (await Promise.race([probe(store, backend, key), timeout])) ? indexeddb : memory();
    } catch {
      return memory();
    }
  } finally {
    clearTimeout(timer);
  }
}
