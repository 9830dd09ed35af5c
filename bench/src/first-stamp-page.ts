// Runs in each browser (bundled with code splitting by first-stamp.ts, as an app's bundler would):
// one page load does one thing, named by the query, and leaves its outcome on
// `globalThis.firstStampResult` for the driver.
//   ?prepare  stores a session key the way an earlier visit does (`createDefaultKeyStore`).
//   ?floor    the floor: IndexedDB opened and read with the bare API, one WebCrypto sign.
//   ?signet   what an app does on load: `createDefaultKeyStore()`, `get`, `restoreSigningKey`,
//             `stampPayload`.
// Times are milliseconds from this script's start (and from navigation start).
import {
  createDefaultKeyStore,
  generateSigningKey,
  restoreSigningKey,
  stampPayload,
} from "@signet/core";

const scriptStart = performance.now();

/** The id a session key is stored under (the session store's format). */
const STORED_ID = "signet.session|InternalAccount:bench|Session:bench||4102444800000";

export type FirstStampResult =
  | { ok: true; sinceScript: number; sinceNavigation: number; publicKey?: string; stamp?: string }
  | { ok: false; error: string };

const payload = (): string => new URLSearchParams(location.search).get("payload") ?? "";

async function prepare(): Promise<{ publicKey: string }> {
  const { store, persistence } = await createDefaultKeyStore();
  if (persistence !== "indexeddb") throw new Error(`this browser keeps keys in ${persistence}`);
  const key = await generateSigningKey();
  await store.set(STORED_ID, key.toRecord());
  return { publicKey: key.publicKey };
}

function request<T>(run: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    run.onsuccess = () => resolve(run.result);
    run.onerror = () => reject(run.error);
  });
}

// The least any library can do: open the database, read the record, sign the payload's bytes.
async function floor(): Promise<Record<string, never>> {
  const db = await request(indexedDB.open("signet"));
  const record = (await request(
    db.transaction("keys", "readonly").objectStore("keys").get(STORED_ID),
  )) as { privateKey: CryptoKey };
  await crypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    record.privateKey,
    new TextEncoder().encode(payload()),
  );
  return {};
}

async function signet(): Promise<{ publicKey: string; stamp: string }> {
  const { store } = await createDefaultKeyStore();
  const record = await store.get(STORED_ID);
  if (!record) throw new Error("no stored key: load ?prepare first");
  const key = await restoreSigningKey(record);
  return { publicKey: key.publicKey, stamp: await stampPayload(payload(), key) };
}

const task = location.search.startsWith("?prepare")
  ? prepare
  : location.search.startsWith("?floor")
    ? floor
    : signet;
task().then(
  (out) => {
    const end = performance.now();
    const result: FirstStampResult = {
      ok: true,
      sinceScript: end - scriptStart,
      sinceNavigation: end,
      ...out,
    };
    (globalThis as { firstStampResult?: FirstStampResult }).firstStampResult = result;
  },
  (error: unknown) => {
    (globalThis as { firstStampResult?: FirstStampResult }).firstStampResult = {
      ok: false,
      error: String(error),
    };
  },
);
