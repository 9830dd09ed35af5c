// The probe of an empty IndexedDB key store is a lazy chunk (keys/probe.ts): a returning visit's
// stored key never loads it, a first visit that cannot fetch it gets a retryable NETWORK error
// (never memory: a failed fetch says nothing about the storage), and a client makes its key
// store's choice again at its next use.
import { IDBFactory } from "fake-indexeddb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createCryptoApi } from "../../src/crypto/api.js";
import { createWebCryptoBackend } from "../../src/crypto/webcrypto.js";
import { SignetError } from "../../src/errors/errors.js";

const PROBE = "../../src/keys/probe.js";

afterEach(() => {
  vi.doUnmock(PROBE);
  vi.resetModules();
});

function failProbeChunk() {
  vi.doMock(PROBE, () => {
    throw new TypeError("Failed to fetch dynamically imported module");
  });
}

describe("the key store's probe chunk", () => {
  it("an empty store whose probe cannot be fetched: NETWORK, retryable; fetched again, IndexedDB", async () => {
    vi.resetModules();
    failProbeChunk();
    const { createDefaultKeyStore } = await import("../../src/keys/indexeddb.js");
    // The class of the modules just loaded (vi.resetModules gives each test its own).
    const { SignetError } = await import("../../src/errors/errors.js");
    const indexedDB = new IDBFactory();
    const failure = await createDefaultKeyStore({ indexedDB }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SignetError);
    expect((failure as SignetError).code).toBe("NETWORK");
    expect((failure as SignetError).retryable).toBe(true);
    vi.doUnmock(PROBE);
    const { persistence, store } = await createDefaultKeyStore({ indexedDB });
    expect(persistence).toBe("indexeddb");
    // The probe left nothing behind.
    expect(await store.list()).toEqual([]);
  });

  it("a store holding a key an earlier visit stored is taken without the probe's chunk", async () => {
    vi.resetModules();
    const indexedDB = new IDBFactory();
    const { createDefaultKeyStore, createIndexedDbKeyStore } = await import(
      "../../src/keys/indexeddb.js"
    );
    const key = await createWebCryptoBackend().generateSigningKey();
    await createIndexedDbKeyStore({ indexedDB }).set("Session:1", key.toRecord());
    failProbeChunk();
    const { persistence, store } = await createDefaultKeyStore({ indexedDB });
    expect(persistence).toBe("indexeddb");
    expect((await store.get("Session:1"))?.publicKey).toBe(key.publicKey);
  });

  it("a client whose key store choice failed makes it again at the next use", async () => {
    const { createClientFactory } = await import("../../src/client.js");
    let attempts = 0;
    const createClient = createClientFactory({
      crypto: () => createCryptoApi(createWebCryptoBackend()),
      keyStore: async () => {
        attempts++;
        if (attempts === 1)
          throw new SignetError("NETWORK", "could not load a part of Signet", { retryable: true });
        const { createMemoryKeyStore } = await import("../../src/keys/key-store.js");
        return { store: createMemoryKeyStore(), persistence: "memory" };
      },
      webauthn: () => undefined,
    });
    const client = createClient({ relayUrl: "https://relay.test/api/grid", resumePending: false });
    await expect(client.persistence()).rejects.toMatchObject({ code: "NETWORK" });
    await expect(client.persistence()).resolves.toBe("memory");
    expect(attempts).toBe(2);
    client.destroy();
  });
});
