// The session store under a flood of cross-tab messages (each one a `sync()` re-read of the shared
// key store): `getSession` must keep reporting a session whose key is held, whatever the reads
// interleave with, and the store must follow what the other tabs changed. The key store answers
// after a delay, as IndexedDB does, so that reads and readers interleave.
import { describe, expect, it } from "vitest";
import { createClient, createMemoryKeyStore, getSession, type KeyStore } from "../../src/index.js";

const ACCOUNT = "InternalAccount:019542f5-b3e7-1d02-0000-000000000001";
const later = () => new Promise<void>((resolve) => setTimeout(resolve, Math.random() * 2));

/** A memory key store whose every call takes a little while (another tab's writes land here too). */
function slowStore(): KeyStore {
  const store = createMemoryKeyStore();
  return {
    persistence: "memory",
    get: (id) => later().then(() => store.get(id)),
    set: (id, record) => later().then(() => store.set(id, record)),
    delete: (id) => later().then(() => store.delete(id)),
    list: () => later().then(() => store.list()),
  };
}

const session = (n: number, publicKey: string) => ({
  id: `Session:019542f5-b3e7-1d02-0000-00000000000${n}`,
  accountId: ACCOUNT,
  expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
  publicKey,
});

describe("a flood of cross-tab messages", () => {
  it("never makes getSession report no session while its key is held", async () => {
    const keyStore = slowStore();
    const client = createClient({ relayUrl: "http://127.0.0.1:9/api/grid", keyStore });
    const key = await client.crypto.generateSigningKey();
    await client.holdSession(session(1, key.publicKey), key);
    const seen: (string | undefined)[] = [];
    const flood: Promise<unknown>[] = [];
    for (let i = 0; i < 200; i++) {
      flood.push(client.sessions.sync());
      flood.push(getSession(client, { accountId: ACCOUNT }).then((s) => seen.push(s?.id)));
      if (i % 10 === 0) await later();
    }
    await Promise.all(flood);
    expect(seen).toHaveLength(200);
    expect(new Set(seen)).toEqual(new Set([session(1, key.publicKey).id]));
    expect(client.sessions.getSnapshot()[ACCOUNT]?.map((s) => s.id)).toEqual([
      session(1, key.publicKey).id,
    ]);
  });

  it("follows the other tabs: a session another tab stored or removed shows after the re-read, and this tab's own adds during a re-read stay", async () => {
    const keyStore = slowStore();
    const tab = createClient({ relayUrl: "http://127.0.0.1:9/api/grid", keyStore });
    const other = createClient({ relayUrl: "http://127.0.0.1:9/api/grid", keyStore });
    const [k1, k2, k3] = await Promise.all([1, 2, 3].map(() => tab.crypto.generateSigningKey()));
    await tab.holdSession(session(1, k1!.publicKey), k1!);
    // Another tab adds a session: after any re-read, this tab holds it too.
    await other.holdSession(session(2, k2!.publicKey), k2!);
    const ids = () => (tab.sessions.getSnapshot()[ACCOUNT] ?? []).map((s) => s.id).sort();
    // This tab adds one while a flood of re-reads runs: it is never lost.
    const flood = Array.from({ length: 50 }, () => tab.sessions.sync());
    await tab.holdSession(session(3, k3!.publicKey), k3!);
    await Promise.all(flood);
    expect(ids()).toEqual([1, 2, 3].map((n) => session(n, "").id));
    // The other tab removes one of them: gone here after the next re-read.
    await other.sessions.load();
    await other.sessions.remove(ACCOUNT, session(1, "").id);
    await tab.sessions.sync();
    expect(ids()).toEqual([2, 3].map((n) => session(n, "").id));
    expect((await getSession(tab, { accountId: ACCOUNT }))?.id).toBeDefined();
  });

  it("reads the key store a bounded number of times, however many messages arrive", async () => {
    let lists = 0;
    const inner = slowStore();
    const keyStore: KeyStore = {
      ...inner,
      list: async () => {
        lists++;
        return inner.list();
      },
    };
    const client = createClient({ relayUrl: "http://127.0.0.1:9/api/grid", keyStore });
    await client.sessions.load();
    const before = lists;
    await Promise.all(Array.from({ length: 500 }, () => client.sessions.sync()));
    // The read in flight, then one more for every message that came during it.
    expect(lists - before).toBeLessThanOrEqual(2);
  });
});
