// docs/architecture.md layer 2: the KeyStore seam. Records, not keys, are stored: a WebCrypto record keeps the
// CryptoKey object itself (structured clone, non-extractable included), a noble record a hex scalar.
import type { SigningKeyRecord } from "../crypto/backend.js";
import { SignetError } from "../errors/errors.js";

/**
 * Async storage of signing-key records by string id (for example a session id). Implement it to
 * keep keys somewhere else (a native keystore, an encrypted file).
 *
 * @example
 * ```ts
 * await store.set("Session:1", key.toRecord());
 * const record = await store.get("Session:1");
 * const restored = record && (await restoreSigningKey(record));
 * ```
 */
export interface KeyStore {
  /** The record under `id`, or `undefined`. */
  get(id: string): Promise<SigningKeyRecord | undefined>;
  /** Stores `record` under `id`, replacing any previous one. */
  set(id: string, record: SigningKeyRecord): Promise<void>;
  /** Removes `id`; removing a missing id is not an error. */
  delete(id: string): Promise<void>;
  /** Every stored id. */
  list(): Promise<string[]>;
  /** Where this store keeps keys, when it knows (reported by `client.persistence()`). */
  readonly persistence?: KeyPersistence;
}

/** Where a store keeps keys: across reloads (`indexeddb`, `secure-store`) or only in this page (`memory`). */
export type KeyPersistence = "indexeddb" | "memory" | "secure-store";

export function assertId(id: unknown): asserts id is string {
  if (typeof id !== "string" || id.length === 0 || id.length > 512) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"id" expected a non-empty string of at most 512 characters`,
    );
  }
}

export function assertRecord(record: unknown): asserts record is SigningKeyRecord {
  const candidate = record as Partial<SigningKeyRecord> | null | undefined;
  if (
    typeof candidate !== "object" ||
    candidate === null ||
    typeof candidate.publicKey !== "string" ||
    (candidate.type === "handle"
      ? typeof candidate.handle !== "string"
      : (candidate.type !== "webcrypto" && candidate.type !== "scalar") ||
        candidate.privateKey === undefined)
  ) {
    throw new SignetError(
      "KEY_INVALID",
      `"record" expected a signing key record (SigningKey.toRecord())`,
    );
  }
}

/**
 * A key store in memory: keys live as long as the page or process. The fallback where nothing
 * can persist keys, and handy in tests.
 *
 * @returns A {@link KeyStore}.
 * @example
 * ```ts
 * const store = createMemoryKeyStore();
 * await store.set("Session:1", key.toRecord());
 * ```
 */
export function createMemoryKeyStore(): KeyStore {
  const records = new Map<string, SigningKeyRecord>();
  return {
    persistence: "memory",
    get: async (id) => {
      assertId(id);
      return records.get(id);
    },
    set: async (id, record) => {
      assertId(id);
      assertRecord(record);
      records.set(id, record);
    },
    delete: async (id) => {
      assertId(id);
      records.delete(id);
    },
    list: async () => [...records.keys()],
  };
}
