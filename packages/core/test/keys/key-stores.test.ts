// KeyStore seam: memory, IndexedDB (fake-indexeddb, whose structured clone in Node 20 keeps
// CryptoKey objects, non-extractable included), the start-up probe and its fallbacks, and the
// string-store adapter for React Native secure stores.
import { IDBDatabase, IDBFactory, IDBObjectStore } from "fake-indexeddb";
import { describe, expect, it, vi } from "vitest";
import { expectDocumentedDetails } from "../../../test/src/errorDetails.js";
import type { SigningKey } from "../../src/crypto/backend.js";
import { derToP1363 } from "../../src/crypto/der-parse.js";
import { hexToBytes } from "../../src/crypto/encoding.js";
import { createNobleBackend } from "../../src/crypto/noble.js";
import { createNodeCryptoBackend } from "../../src/crypto/node.js";
import { stampPayload } from "../../src/crypto/stamp.js";
import { createWebCryptoBackend } from "../../src/crypto/webcrypto.js";
import type { SignetError } from "../../src/errors/errors.js";
import { createDefaultKeyStore, createIndexedDbKeyStore } from "../../src/keys/indexeddb.js";
import { createMemoryKeyStore, type KeyStore } from "../../src/keys/key-store.js";
import { createStringKeyStore } from "../../src/keys/string-store.js";

const web = createWebCryptoBackend();
const webRecordOf = (key: SigningKey) => {
  const record = key.toRecord();
  if (record.type !== "webcrypto") throw new Error("expected a CryptoKey record");
  return record;
};
const privateKeyOf = (key: SigningKey): CryptoKey => webRecordOf(key).privateKey;
const verifyKeyOf = (key: SigningKey): CryptoKey => {
  const { verifyKey } = webRecordOf(key);
  if (!verifyKey) throw new Error("expected a record with a verifyKey");
  return verifyKey;
};
/** The record as keys made before `verifyKey` stored it: no verification key of its own. */
const olderRecordOf = (key: SigningKey) => {
  const { type, privateKey, publicKey } = webRecordOf(key);
  return { type, privateKey, publicKey };
};

/** Runs `body` counting the byte lengths of `crypto.subtle.importKey` and `exportKey` calls. */
async function countingKeyCalls<T>(
  body: (calls: { imported: number[]; exported: string[] }) => Promise<T>,
  refuseCompressed = false,
): Promise<T> {
  const calls = { imported: [] as number[], exported: [] as string[] };
  const importKey = crypto.subtle.importKey.bind(crypto.subtle);
  const exportKey = crypto.subtle.exportKey.bind(crypto.subtle);
  const imports = vi.spyOn(crypto.subtle, "importKey").mockImplementation(((
    format: KeyFormat,
    data: BufferSource,
    ...rest: never[]
  ) => {
    const length = (data as Uint8Array).byteLength;
    calls.imported.push(length);
    // What WebKit does with a compressed point.
    if (refuseCompressed && format === "raw" && length === 33)
      return Promise.reject(new DOMException("compressed", "DataError"));
    return (importKey as (...args: unknown[]) => Promise<CryptoKey>)(format, data, ...rest);
  }) as never);
  const exports = vi.spyOn(crypto.subtle, "exportKey").mockImplementation(((
    format: KeyFormat,
    key: CryptoKey,
  ) => {
    calls.exported.push(`${format} ${key.type}`);
    return exportKey(format as "raw", key);
  }) as never);
  try {
    return await body(calls);
  } finally {
    imports.mockRestore();
    exports.mockRestore();
  }
}
const noble = createNobleBackend();

async function exercise(store: KeyStore, backend = web) {
  const key = await backend.generateSigningKey();
  await store.set("Session:1", key.toRecord());
  expect(await store.list()).toEqual(["Session:1"]);
  const record = await store.get("Session:1");
  expect(record?.publicKey).toBe(key.publicKey);
  const restored = await backend.restoreSigningKey(record!);
  expect(restored.publicKey).toBe(key.publicKey);
  expect(await restored.sign(new Uint8Array([1, 2, 3]))).toBeInstanceOf(Uint8Array);
  expect(await store.get("Session:2")).toBeUndefined();
  await store.delete("Session:1");
  await store.delete("Session:1"); // deleting twice is fine
  expect(await store.get("Session:1")).toBeUndefined();
  expect(await store.list()).toEqual([]);
  return key;
}

describe("createMemoryKeyStore", () => {
  it("stores, lists, restores and deletes", async () => {
    await exercise(createMemoryKeyStore());
  });

  it("refuses bad ids and records with typed errors", async () => {
    const store = createMemoryKeyStore();
    await expect(store.get("")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(store.set("a", {} as never)).rejects.toMatchObject({ code: "KEY_INVALID" });
  });
});

describe("createIndexedDbKeyStore (fake-indexeddb)", () => {
  it("keeps a non-extractable CryptoKey across a new store object (a reload)", async () => {
    const indexedDB = new IDBFactory();
    const key = await web.generateSigningKey();
    await createIndexedDbKeyStore({ indexedDB }).set("Session:1", key.toRecord());
    const reloaded = createIndexedDbKeyStore({ indexedDB });
    const record = await reloaded.get("Session:1");
    if (record?.type !== "webcrypto") throw new Error("expected a CryptoKey record");
    expect(record.privateKey).toBeInstanceOf(CryptoKey);
    expect(record.privateKey.extractable).toBe(false);
    await expect(globalThis.crypto.subtle.exportKey("pkcs8", record.privateKey)).rejects.toThrow();
    const restored = await web.restoreSigningKey(record);
    expect(restored.publicKey).toBe(key.publicKey);
    await exercise(reloaded);
  });

  it("the records read at start-up serve the reads that follow until their transaction completes; a write drops them", async () => {
    const indexedDB = new IDBFactory();
    const first = (await web.generateSigningKey()).toRecord();
    const second = (await web.generateSigningKey()).toRecord();
    await createIndexedDbKeyStore({ indexedDB }).set("Session:1", first);
    const transactions = vi.spyOn(IDBDatabase.prototype, "transaction");
    try {
      const { store } = await createDefaultKeyStore({ indexedDB });
      // A write right after the start-up read: the read that follows sees it.
      const writing = store.set("Session:2", second);
      expect((await store.get("Session:2"))?.publicKey).toBe(second.publicKey);
      await writing;
      const removing = store.delete("Session:2");
      expect(await store.list()).toEqual(["Session:1"]);
      await removing;
      // Once that transaction has completed, reads are reads of their own again.
      const { store: later } = await createDefaultKeyStore({ indexedDB });
      await new Promise((resolve) => setTimeout(resolve, 10));
      await createIndexedDbKeyStore({ indexedDB }).set("Session:3", second);
      expect(await later.list()).toEqual(["Session:1", "Session:3"]);
      expect(transactions.mock.calls.map((call) => call[1])).toEqual([
        "readonly", // start-up read
        "readwrite",
        "readonly",
        "readwrite",
        "readonly",
        "readonly", // the later start-up read
        "readwrite", // another tab's write
        "readonly",
      ]);
    } finally {
      transactions.mockRestore();
    }
  });

  it("uses its own database and store names", async () => {
    const indexedDB = new IDBFactory();
    const store = createIndexedDbKeyStore({ indexedDB, dbName: "app-keys", storeName: "k" });
    await store.set("x", (await web.generateSigningKey()).toRecord());
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).toEqual(["app-keys"]);
  });

  it("maps IndexedDB failures to KEY_STORAGE_UNAVAILABLE", async () => {
    const broken = {
      open() {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
    } as unknown as IDBFactory;
    const store = createIndexedDbKeyStore({ indexedDB: broken });
    const error = await store.list().catch((e: SignetError) => e);
    expect(error).toMatchObject({ code: "KEY_STORAGE_UNAVAILABLE" });
    expectDocumentedDetails(error as SignetError);
  });

  it("KEY_STORAGE_UNAVAILABLE when there is no IndexedDB at all", async () => {
    vi.stubGlobal("indexedDB", undefined);
    try {
      const store = createIndexedDbKeyStore();
      await expect(store.get("x")).rejects.toMatchObject({ code: "KEY_STORAGE_UNAVAILABLE" });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("looks up globalThis.indexedDB lazily (fake-indexeddb installed after creation)", async () => {
    const store = createIndexedDbKeyStore({ dbName: "lazy" });
    vi.stubGlobal("indexedDB", new IDBFactory());
    try {
      await exercise(store);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("createDefaultKeyStore probe", () => {
  it("picks IndexedDB when it round-trips a real non-extractable CryptoKey, and leaves no probe behind", async () => {
    const indexedDB = new IDBFactory();
    const { store, persistence } = await createDefaultKeyStore({ indexedDB });
    expect(persistence).toBe("indexeddb");
    expect(await store.list()).toEqual([]);
    await exercise(store);
  });

  it("falls back to memory without IndexedDB", async () => {
    vi.stubGlobal("indexedDB", undefined);
    const { store, persistence } = await createDefaultKeyStore().finally(() =>
      vi.unstubAllGlobals(),
    );
    expect(persistence).toBe("memory");
    await exercise(store);
  });

  it("falls back to memory when open throws (Safari private mode, Firefox private windows)", async () => {
    const throwing = {
      open() {
        throw new DOMException(
          "A mutation operation was attempted on a database that did not allow mutations.",
          "InvalidStateError",
        );
      },
    } as unknown as IDBFactory;
    await expect(createDefaultKeyStore({ indexedDB: throwing })).resolves.toMatchObject({
      persistence: "memory",
    });
  });

  it("falls back to memory on DataCloneError (a store that cannot clone CryptoKey)", async () => {
    const indexedDB = new IDBFactory();
    const original = globalThis.structuredClone;
    // fake-indexeddb clones with structuredClone: make it refuse CryptoKey like old WebKit did.
    globalThis.structuredClone = ((value: unknown, options?: StructuredSerializeOptions) => {
      const hasKey = (v: unknown): boolean =>
        v instanceof CryptoKey ||
        (typeof v === "object" && v !== null && Object.values(v).some(hasKey));
      if (hasKey(value)) throw new DOMException("CryptoKey could not be cloned.", "DataCloneError");
      return original(value, options);
    }) as typeof structuredClone;
    try {
      await expect(createDefaultKeyStore({ indexedDB })).resolves.toMatchObject({
        persistence: "memory",
      });
    } finally {
      globalThis.structuredClone = original;
    }
  });

  it("falls back to memory when the open never answers (timeout)", async () => {
    const hanging = { open: () => ({}) } as unknown as IDBFactory;
    await expect(
      createDefaultKeyStore({ indexedDB: hanging, timeoutMs: 50 }),
    ).resolves.toMatchObject({
      persistence: "memory",
    });
  });

  it("skips the probe when the store already holds a CryptoKey an earlier visit stored: one read, no key made, nothing written", async () => {
    const indexedDB = new IDBFactory();
    const stored = await web.generateSigningKey();
    await createIndexedDbKeyStore({ indexedDB }).set("Session:1", stored.toRecord());
    const made = vi.fn(web.generateSigningKey);
    const writes = vi.spyOn(IDBObjectStore.prototype, "put");
    const transactions = vi.spyOn(IDBDatabase.prototype, "transaction");
    const gets = vi.spyOn(IDBObjectStore.prototype, "get");
    try {
      const { store, persistence } = await createDefaultKeyStore({
        indexedDB,
        backend: { ...web, generateSigningKey: made },
      });
      expect(persistence).toBe("indexeddb");
      expect(made).not.toHaveBeenCalled();
      expect(writes).not.toHaveBeenCalled();
      // What the session store reads next comes from that read's transaction, without a request.
      expect(await store.list()).toEqual(["Session:1"]);
      expect((await store.get("Session:1"))?.privateKey).toBeInstanceOf(CryptoKey);
      expect(await store.get("Session:2")).toBeUndefined();
      expect(transactions).toHaveBeenCalledTimes(1);
      expect(gets).not.toHaveBeenCalled();
    } finally {
      writes.mockRestore();
      transactions.mockRestore();
      gets.mockRestore();
    }
  });

  it("still probes a store that holds no CryptoKey (only scalar records)", async () => {
    const indexedDB = new IDBFactory();
    await createIndexedDbKeyStore({ indexedDB }).set(
      "Session:noble",
      (await noble.generateSigningKey()).toRecord(),
    );
    const made = vi.fn(web.generateSigningKey);
    const writes = vi.spyOn(IDBObjectStore.prototype, "put");
    try {
      const { persistence } = await createDefaultKeyStore({
        indexedDB,
        backend: { ...web, generateSigningKey: made },
      });
      expect(persistence).toBe("indexeddb");
      expect(made).toHaveBeenCalledTimes(1);
      expect(writes).toHaveBeenCalledTimes(1); // the probe's record
    } finally {
      writes.mockRestore();
    }
  });

  it("falls back to memory when the read-back is not the same key", async () => {
    const indexedDB = new IDBFactory();
    const other = (await web.generateSigningKey()).toRecord();
    const store = createIndexedDbKeyStore({ indexedDB });
    // A store that hands back some other key (corruption, a shim) must not pass the probe.
    const liar = { ...web, restoreSigningKey: async () => web.restoreSigningKey(other) };
    await expect(createDefaultKeyStore({ indexedDB, backend: liar })).resolves.toMatchObject({
      persistence: "memory",
    });
    expect(await store.list()).toEqual([]);
  });
});

describe("restoreSigningKey on a stored CryptoKey record", () => {
  it("proves the stored public key on the key's first signature: a mismatched record never signs", async () => {
    const key = await web.generateSigningKey();
    const other = await web.generateSigningKey();
    const message = new Uint8Array([1, 2, 3]);
    // A matching record signs, and its signatures verify against the stored public key.
    const restored = await web.restoreSigningKey(key.toRecord());
    for (let i = 0; i < 3; i++) {
      const signature = await restored.sign(message);
      const p1363 = derToP1363(signature);
      expect(await web.verify(hexToBytes(key.publicKeyUncompressed), message, p1363)).toBe(true);
    }
    // Another key's CryptoKey under this public key: every signature is refused, none returned.
    const swapped = await web.restoreSigningKey({
      ...webRecordOf(key),
      privateKey: privateKeyOf(other),
    });
    expect(swapped.publicKey).toBe(key.publicKey);
    for (let i = 0; i < 2; i++) {
      await expect(swapped.sign(message)).rejects.toMatchObject({ code: "KEY_INVALID" });
      await expect(stampPayload("{}", swapped)).rejects.toMatchObject({ code: "KEY_INVALID" });
    }
  });

  it("a stored public key off the curve matches no key: its first signature is refused; other encodings are normalised at once", async () => {
    const key = await web.generateSigningKey();
    const offCurve = `02${"0".repeat(63)}1`; // x = 1: x³ − 3x + b has no square root mod p
    const restored = await web.restoreSigningKey({ ...key.toRecord(), publicKey: offCurve });
    await expect(restored.sign(new Uint8Array([1]))).rejects.toMatchObject({ code: "KEY_INVALID" });
    // One never used: its refused import is no unhandled rejection (vitest fails on one).
    await web.restoreSigningKey({ ...key.toRecord(), publicKey: offCurve });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(() => restored.publicKeyUncompressed).toThrow(
      expect.objectContaining({ code: "KEY_INVALID" }),
    );
    await expect(
      web.restoreSigningKey({ ...key.toRecord(), publicKey: "not hex" }),
    ).rejects.toMatchObject({ code: "KEY_INVALID" });
    for (const publicKey of [key.publicKey.toUpperCase(), key.publicKeyUncompressed]) {
      const same = await web.restoreSigningKey({ ...key.toRecord(), publicKey });
      expect(same.publicKey).toBe(key.publicKey);
      expect(same.toRecord().publicKey).toBe(key.publicKey);
      expect(same.publicKeyUncompressed).toBe(key.publicKeyUncompressed);
      await expect(stampPayload("{}", same)).resolves.toEqual(expect.any(String));
    }
  });

  it("a stored public key with the other parity of y (the same x) never signs", async () => {
    const key = await web.generateSigningKey();
    const flipped = `${key.publicKey.startsWith("02") ? "03" : "02"}${key.publicKey.slice(2)}`;
    const restored = await web.restoreSigningKey({ ...key.toRecord(), publicKey: flipped });
    await expect(stampPayload("{}", restored)).rejects.toMatchObject({ code: "KEY_INVALID" });
  });

  it("where the browser refuses a compressed point (WebKit), an older record's key is decompressed here and proven alike", async () => {
    vi.resetModules();
    const { createWebCryptoBackend: fresh } = await import("../../src/crypto/webcrypto.js");
    const backend = fresh();
    try {
      const key = await backend.generateSigningKey();
      const other = await backend.generateSigningKey();
      const message = new Uint8Array([4, 5, 6]);
      await countingKeyCalls(async ({ imported }) => {
        // A record with its verifyKey needs no import at all, whatever the engine imports.
        const current = await backend.restoreSigningKey(key.toRecord());
        await current.sign(message);
        expect(imported).toEqual([]);
        // An older record (no verifyKey): its public key is imported to verify the first
        // signature; WebKit refuses the compressed form once, then it is decompressed here.
        const restored = await backend.restoreSigningKey(olderRecordOf(key));
        const p1363 = derToP1363(await restored.sign(message));
        expect(imported).toEqual([33, 65]);
        expect(await backend.verify(hexToBytes(key.publicKeyUncompressed), message, p1363)).toBe(
          true,
        );
        imported.length = 0;
        const swapped = await backend.restoreSigningKey({
          ...olderRecordOf(key),
          privateKey: privateKeyOf(other),
        });
        await expect(swapped.sign(message)).rejects.toMatchObject({ code: "KEY_INVALID" });
        expect(imported).toEqual([65]); // this realm no longer tries the compressed form
      }, true);
    } finally {
      vi.resetModules();
    }
  });

  it("a generated key's record keeps its verification key: the first signature is proven with it, bound to the hex by an export, with no import", async () => {
    const key = await web.generateSigningKey();
    const record = webRecordOf(key);
    expect(record.verifyKey).toMatchObject({
      type: "public",
      extractable: true,
      algorithm: { name: "ECDSA", namedCurve: "P-256" },
      usages: ["verify"],
    });
    // Through IndexedDB (a reload): the verification key is cloned with the record.
    const indexedDB = new IDBFactory();
    await createIndexedDbKeyStore({ indexedDB }).set("Session:1", record);
    const stored = await createIndexedDbKeyStore({ indexedDB }).get("Session:1");
    if (stored?.type !== "webcrypto") throw new Error("expected a CryptoKey record");
    expect(stored.verifyKey).toBeInstanceOf(CryptoKey);
    const message = new Uint8Array([7, 8, 9]);
    await countingKeyCalls(async ({ imported, exported }) => {
      const restored = await web.restoreSigningKey(stored);
      const signatures = [await restored.sign(message), await restored.sign(message)];
      expect(imported).toEqual([]);
      expect(exported).toEqual(["raw public"]); // the binding, once
      for (const signature of signatures) {
        const p1363 = derToP1363(signature);
        expect(await web.verify(hexToBytes(key.publicKeyUncompressed), message, p1363)).toBe(true);
      }
      // The binding gave the uncompressed form too: no square root for it either.
      expect(restored.publicKeyUncompressed).toBe(key.publicKeyUncompressed);
      // Kept by the restored key's record, to be stored again as it came.
      expect(webRecordOf(restored).verifyKey).toBe(stored.verifyKey);
    });
  });

  it("an older record without a verification key still restores and stamps, through one import of its public key (Node imports the compressed form)", async () => {
    const key = await web.generateSigningKey();
    const other = await web.generateSigningKey();
    await countingKeyCalls(async ({ imported }) => {
      const restored = await web.restoreSigningKey(olderRecordOf(key));
      const stamp = await stampPayload("{}", restored);
      expect(stamp).toEqual(expect.any(String));
      expect(imported).toEqual([33]);
      expect(Object.keys(restored.toRecord()).sort()).toEqual(["privateKey", "publicKey", "type"]);
    });
    const swapped = await web.restoreSigningKey({
      ...olderRecordOf(key),
      privateKey: privateKeyOf(other),
    });
    await expect(stampPayload("{}", swapped)).rejects.toMatchObject({ code: "KEY_INVALID" });
  });

  it("a record whose verification key is another key's never stamps", async () => {
    const key = await web.generateSigningKey();
    const other = await web.generateSigningKey();
    const message = new Uint8Array([1, 2, 3]);
    const variants = [
      // The right private key, another key's verifyKey.
      { ...webRecordOf(key), verifyKey: verifyKeyOf(other) },
      // Another key's private and verification keys under this public key.
      { ...webRecordOf(other), publicKey: key.publicKey },
      // This key's verifyKey beside another key's private key: it binds, the signature does not.
      { ...webRecordOf(key), privateKey: privateKeyOf(other) },
    ];
    for (const record of variants) {
      const restored = await web.restoreSigningKey(record);
      expect(restored.publicKey).toBe(key.publicKey);
      for (let i = 0; i < 2; i++) {
        await expect(restored.sign(message)).rejects.toMatchObject({ code: "KEY_INVALID" });
        await expect(stampPayload("{}", restored)).rejects.toMatchObject({ code: "KEY_INVALID" });
      }
    }
  });

  it("a verification key that is not a P-256 public verify key it can export is refused at restore", async () => {
    const key = await web.generateSigningKey();
    const subtle = crypto.subtle;
    const raw = new Uint8Array(hexToBytes(key.publicKeyUncompressed));
    const p384 = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, [
      "sign",
      "verify",
    ]);
    const ecdh = await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
      "deriveBits",
    ]);
    const ecdsa = { name: "ECDSA", namedCurve: "P-256" };
    const refused = [
      privateKeyOf(key), // a private key
      p384.publicKey, // another curve
      ecdh.publicKey, // another algorithm
      await subtle.importKey("raw", raw, ecdsa, true, []), // no verify usage
      await subtle.importKey("raw", raw, ecdsa, false, ["verify"]), // cannot be bound (exported)
      key.publicKeyUncompressed, // not a CryptoKey
      null,
    ];
    for (const verifyKey of refused) {
      await expect(
        web.restoreSigningKey({ ...webRecordOf(key), verifyKey } as never),
      ).rejects.toMatchObject({ code: "KEY_INVALID" });
    }
  });

  it("the node entry proves it at once, through OpenSSL", async () => {
    const node = createNodeCryptoBackend();
    const key = await node.generateSigningKey();
    const other = await node.generateSigningKey();
    expect((await node.restoreSigningKey(key.toRecord())).publicKey).toBe(key.publicKey);
    await expect(
      node.restoreSigningKey({ ...webRecordOf(key), privateKey: privateKeyOf(other) }),
    ).rejects.toMatchObject({ code: "KEY_INVALID" });
  });
});

describe("createStringKeyStore (React Native secure stores)", () => {
  const makeStorage = () => {
    const items = new Map<string, string>();
    return {
      items,
      getItem: async (key: string) => items.get(key) ?? null,
      setItem: async (key: string, value: string) => {
        if (!/^[A-Za-z0-9._-]+$/.test(key)) throw new Error(`invalid key ${key}`); // expo-secure-store's rule
        items.set(key, value);
      },
      removeItem: async (key: string) => {
        items.delete(key);
      },
    };
  };

  it("round-trips noble keys through strings with expo-safe key names", async () => {
    const storage = makeStorage();
    const store = createStringKeyStore(storage);
    await exercise(store, noble);
    const key = await noble.generateSigningKey();
    await store.set("Session:0f8e-…", key.toRecord());
    expect([...storage.items.keys()].every((k) => /^[A-Za-z0-9._-]+$/.test(k))).toBe(true);
    expect(await store.list()).toEqual(["Session:0f8e-…"]);
    const stored = [...storage.items.values()].find((v) => v.includes('"type":"scalar"'));
    expect(JSON.parse(stored!)).toEqual({
      v: 1,
      type: "scalar",
      privateKey: expect.stringMatching(/^[0-9a-f]{64}$/),
      publicKey: key.publicKey,
    });
  });

  it("keeps the index right under concurrent writes", async () => {
    const store = createStringKeyStore(makeStorage());
    const keys = await Promise.all([1, 2, 3, 4, 5].map(() => noble.generateSigningKey()));
    await Promise.all(keys.map((k, i) => store.set(`s${i}`, k.toRecord())));
    expect((await store.list()).sort()).toEqual(["s0", "s1", "s2", "s3", "s4"]);
  });

  it("refuses CryptoKey records, corrupt values and bad options with typed errors", async () => {
    const storage = makeStorage();
    const store = createStringKeyStore(storage);
    await expect(store.set("a", (await web.generateSigningKey()).toRecord())).rejects.toMatchObject(
      {
        code: "KEY_STORAGE_UNAVAILABLE",
      },
    );
    storage.items.set(`signet.k.${Buffer.from("b").toString("base64url")}`, "{not json");
    await expect(store.get("b")).rejects.toMatchObject({ code: "KEY_INVALID" });
    expect(() => createStringKeyStore({} as never)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => createStringKeyStore({ ...storage, prefix: "bad prefix" })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    const failing = createStringKeyStore({
      ...storage,
      getItem: () => {
        throw new Error("keychain locked");
      },
    });
    await expect(failing.get("a")).rejects.toMatchObject({ code: "KEY_STORAGE_UNAVAILABLE" });
  });
});
