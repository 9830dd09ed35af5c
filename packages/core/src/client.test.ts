import { describe, expect, it } from "vitest";
import { createClient, createMemoryKeyStore, getSession, SignetError } from "./index.js";
import { createStringKeyStore } from "./keys/string-store.js";

describe("createClient", () => {
  it("reads no global at creation and refuses a missing relayUrl", () => {
    const saved = { fetch: globalThis.fetch };
    // @ts-expect-error: simulate a runtime without fetch (SSR, old React Native)
    delete globalThis.fetch;
    try {
      const client = createClient({ relayUrl: "/api/grid" });
      expect(client.relayUrl).toBe("/api/grid");
    } finally {
      globalThis.fetch = saved.fetch;
    }
    expect(() => createClient({} as never)).toThrow(SignetError);
  });

  it("holds sessions in the key store, snapshots them and drops expired ones", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const keyStore = createMemoryKeyStore();
    const events: unknown[] = [];
    const client = createClient({
      relayUrl: "/r",
      keyStore,
      clock: { now: () => now },
      onEvent: (e) => events.push(e),
    });
    const key = await client.crypto.generateSigningKey();
    const accountId = "InternalAccount:11111111-1111-4111-8111-111111111111";
    const session = {
      id: "Session:22222222-2222-4222-8222-222222222222",
      accountId,
      credentialId: "AuthMethod:33333333-3333-4333-8333-333333333333",
      expiresAt: new Date(now + 15 * 60_000).toISOString(),
      publicKey: key.publicKey,
    };
    const before = client.sessions.getSnapshot();
    await client.holdSession(session, key);
    expect(client.sessions.getSnapshot()).not.toBe(before);
    expect(client.sessions.getSnapshot()[accountId]).toEqual([session]);

    // A second client on the same store restores it, metadata and key alike.
    const again = createClient({ relayUrl: "/r", keyStore, clock: { now: () => now } });
    const restored = await getSession(again, { accountId });
    expect(restored).toEqual(session);

    now += 15 * 60_000;
    expect(await getSession(again, { accountId })).toBeUndefined();
    expect(await keyStore.list()).toEqual([]);
  });

  it("reports where a given key store persists", async () => {
    const memory = createClient({ relayUrl: "/r", keyStore: createMemoryKeyStore() });
    expect(await memory.persistence()).toBe("memory");
    const items = new Map<string, string>();
    const secure = createClient({
      relayUrl: "/r",
      keyStore: createStringKeyStore({
        getItem: async (k) => items.get(k) ?? null,
        setItem: async (k, v) => void items.set(k, v),
        removeItem: async (k) => void items.delete(k),
      }),
    });
    expect(await secure.persistence()).toBe("secure-store");
  });

  it("refuses ids that could change the relay path", async () => {
    const client = createClient({ relayUrl: "/r", keyStore: createMemoryKeyStore() });
    for (const accountId of ["InternalAccount:../../x", "Session:1", "InternalAccount:a/b", ""]) {
      await expect(getSession(client, { accountId })).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
    }
  });
});
