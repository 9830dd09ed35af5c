// docs/architecture.md layer 2, React Native: adapts string key-value stores (expo-secure-store,
// react-native-keychain) to the KeyStore seam by serialising noble `scalar` records.
import type { SigningKeyRecord } from "../crypto/backend.js";
import { base64UrlEncode, utf8Encode } from "../crypto/encoding.js";
import { SignetError } from "../errors/errors.js";
import { assertId, assertRecord, type KeyStore } from "./key-store.js";

/** A string key-value store, as `expo-secure-store` and similar libraries offer. */
export type StringStorage = {
  getItem(key: string): Promise<string | null | undefined> | string | null | undefined;
  setItem(key: string, value: string): Promise<void> | void;
  removeItem(key: string): Promise<void> | void;
};

/**
 * A marker kept somewhere the operating system deletes together with the app (its document
 * directory, its preferences), unlike the iOS Keychain, which keeps an app's items after the app
 * is deleted. A missing marker means the first launch after an install.
 */
export type InstallMarkerStore = {
  /** Whether this install of the app has written the marker. */
  exists(): Promise<boolean> | boolean;
  /** Writes the marker (idempotent). */
  create(): Promise<void> | void;
};

/** Options of {@link createStringKeyStore}. */
export type StringKeyStoreOptions = StringStorage & {
  /** Prefix of every storage key. Default `"signet."`; letters, digits, `.`, `-`, `_` only. */
  prefix?: string | undefined;
  /**
   * Detects the first launch after a reinstall and clears what an earlier install of the app left
   * under `prefix`: session keys are replaced by tombstones that read back as unrestorable
   * records (the client then removes each and emits a session `lost` event), other ids are
   * removed. Entries outside `prefix` are never touched. Without it, nothing is checked.
   */
  installMarker?: InstallMarkerStore | undefined;
};

/** Session key ids (see session/sessionStore.ts): these are reported `lost` after a reinstall. */
const SESSION_ID_PREFIX = "signet.session|";
/** What a session key left by an earlier install is overwritten with. */
const TOMBSTONE = JSON.stringify({ v: 1, type: "removed" });

type StoredRecord = { v: 1; type: "scalar"; privateKey: string; publicKey: string };

async function guarded<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    if (cause instanceof SignetError) throw cause;
    throw new SignetError("KEY_STORAGE_UNAVAILABLE", "key storage failed", { cause });
  }
}

function parseStored(text: string): SigningKeyRecord {
  // A key of an earlier install (see `installMarker`): a record no backend restores, so the
  // session store removes it and reports the session `lost`, as for a key the platform evicted.
  if (text === TOMBSTONE) return { type: "scalar", privateKey: "", publicKey: "" };
  let value: Partial<StoredRecord> | null;
  try {
    value = JSON.parse(text) as Partial<StoredRecord> | null;
  } catch (cause) {
    throw new SignetError("KEY_INVALID", "stored key record is not JSON", { cause });
  }
  if (
    value?.v !== 1 ||
    value.type !== "scalar" ||
    typeof value.privateKey !== "string" ||
    typeof value.publicKey !== "string"
  ) {
    throw new SignetError("KEY_INVALID", "stored key record has an unknown shape");
  }
  return { type: "scalar", privateKey: value.privateKey, publicKey: value.publicKey };
}

/**
 * A {@link KeyStore} over a string store, for React Native. Records are JSON
 * `{"v":1,"type":"scalar","privateKey":"<hex>","publicKey":"<hex>"}`; ids are base64url-encoded
 * into storage keys (expo-secure-store allows only `[A-Za-z0-9._-]`), and an index entry lists them.
 * WebCrypto `CryptoKey` records cannot be written as strings and are refused.
 *
 * With `installMarker`, every method first checks (once per store) whether this is the first
 * launch after an install: when the marker is missing but this store says an earlier install
 * wrote one, the earlier install's keys are cleared (see `installMarker`). A store that never had
 * a marker (a first install, or an update from a version without one) keeps its keys.
 *
 * @param options - `getItem`, `setItem`, `removeItem`, optional `prefix` and `installMarker`.
 * @returns A {@link KeyStore} with `persistence` `"secure-store"` semantics.
 * @throws {SignetError} From its methods: `KEY_STORAGE_UNAVAILABLE` when the storage fails or the
 * record is a CryptoKey, `KEY_INVALID` for a corrupt stored value.
 * @example
 * ```ts
 * import * as SecureStore from "expo-secure-store";
 * const store = createStringKeyStore({
 *   getItem: (k) => SecureStore.getItemAsync(k),
 *   setItem: (k, v) => SecureStore.setItemAsync(k, v),
 *   removeItem: (k) => SecureStore.deleteItemAsync(k),
 * });
 * ```
 */
export function createStringKeyStore(options: StringKeyStoreOptions): KeyStore {
  const { getItem, setItem, removeItem } = options ?? ({} as StringKeyStoreOptions);
  if (
    typeof getItem !== "function" ||
    typeof setItem !== "function" ||
    typeof removeItem !== "function"
  ) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"options" expected getItem, setItem and removeItem functions`,
    );
  }
  const prefix = options.prefix ?? "signet.";
  if (!/^[A-Za-z0-9._-]*$/.test(prefix)) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"prefix" expected letters, digits, ".", "-" or "_" only`,
    );
  }
  const indexKey = `${prefix}index`;
  const itemKey = (id: string) => `${prefix}k.${base64UrlEncode(utf8Encode(id, "id"))}`;
  const readIndex = async (): Promise<string[]> => {
    const text = await guarded(() => getItem(indexKey));
    if (text === null || text === undefined) return [];
    try {
      const ids = JSON.parse(text) as unknown;
      if (Array.isArray(ids) && ids.every((id) => typeof id === "string")) return ids as string[];
    } catch {
      // fall through
    }
    throw new SignetError("KEY_INVALID", "stored key index is corrupt");
  };
  // Writes from one store are serialised so concurrent sets do not lose index entries.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
  const marker = options.installMarker;
  if (
    marker !== undefined &&
    (typeof marker?.exists !== "function" || typeof marker.create !== "function")
  ) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"installMarker" expected exists and create functions`,
    );
  }
  // This store's own record that a marker was written: it survives a reinstall where the iOS
  // Keychain does, which is what tells a reinstall from an update that introduces the marker.
  const installedKey = `${prefix}installed`;
  let checked: Promise<void> | undefined;
  const checkInstall = (): Promise<void> => {
    if (marker === undefined) return Promise.resolve();
    checked ??= (async () => {
      const marked = await guarded(() => marker.exists());
      const recorded = await guarded(() => getItem(installedKey));
      const wasInstalled = recorded !== null && recorded !== undefined;
      if (!marked && wasInstalled) {
        const kept: string[] = [];
        for (const id of await readIndex()) {
          if (id.startsWith(SESSION_ID_PREFIX)) {
            await guarded(() => setItem(itemKey(id), TOMBSTONE));
            kept.push(id);
          } else {
            await guarded(() => removeItem(itemKey(id)));
          }
        }
        await guarded(() => setItem(indexKey, JSON.stringify(kept)));
      }
      if (!wasInstalled) await guarded(() => setItem(installedKey, "1"));
      if (!marked) await guarded(() => marker.create());
    })().catch((cause) => {
      checked = undefined; // retried by the next call (a locked device at a background launch)
      throw cause;
    });
    return checked;
  };
  return {
    persistence: "secure-store",
    get: async (id) => {
      assertId(id);
      await checkInstall();
      const text = await guarded(() => getItem(itemKey(id)));
      return text === null || text === undefined ? undefined : parseStored(text);
    },
    set: (id, record) =>
      serial(async () => {
        assertId(id);
        assertRecord(record);
        await checkInstall();
        if (record.type !== "scalar") {
          throw new SignetError(
            "KEY_STORAGE_UNAVAILABLE",
            "a string store holds scalar (noble) key records only",
          );
        }
        const stored: StoredRecord = {
          v: 1,
          type: "scalar",
          privateKey: record.privateKey,
          publicKey: record.publicKey,
        };
        await guarded(() => setItem(itemKey(id), JSON.stringify(stored)));
        const ids = await readIndex();
        if (!ids.includes(id)) await guarded(() => setItem(indexKey, JSON.stringify([...ids, id])));
      }),
    delete: (id) =>
      serial(async () => {
        assertId(id);
        await checkInstall();
        await guarded(() => removeItem(itemKey(id)));
        const ids = await readIndex();
        if (ids.includes(id))
          await guarded(() =>
            setItem(indexKey, JSON.stringify(ids.filter((other) => other !== id))),
          );
      }),
    list: async () => {
      await checkInstall();
      return readIndex();
    },
  };
}
