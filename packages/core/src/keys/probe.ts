// The probe of an empty IndexedDB key store (./indexeddb.ts): a chunk, as only a first visit (or
// a store an earlier visit left empty) runs it; a returning visit's stored key shows the same.
import type { CryptoBackend, SigningKey } from "../crypto/backend.js";
import type { KeyStore } from "./key-store.js";

const PROBE_ID = "signet:probe";
const PROBE_MESSAGE = new Uint8Array([0x73, 0x69, 0x67, 0x6e, 0x65, 0x74]); // "signet"

/**
 * Whether `store` keeps `key` as a key that still signs: stored, read back, restored and signed
 * with, its first signature checked against the stored public key. The record is deleted after.
 * @throws what the store or the backend throw (the caller selects memory then).
 */
export async function probe(
  store: KeyStore,
  backend: CryptoBackend,
  key: SigningKey,
): Promise<boolean> {
  try {
    await store.set(PROBE_ID, key.toRecord());
    const record = await store.get(PROBE_ID);
    if (!record) return false;
    // Reading back is not enough: the clone must still sign with the same key (its first
    // signature is checked against the stored public key).
    const restored = await backend.restoreSigningKey(record);
    await restored.sign(PROBE_MESSAGE);
    return restored.publicKey === key.publicKey;
  } finally {
    await store.delete(PROBE_ID).catch(() => undefined);
  }
}
