import { afterEach, describe, expect, it, vi } from "vitest";
import { refreshPayloadFor } from "../../test/src/payloads.js";
import {
  addPasskey,
  createClient,
  createMemoryKeyStore,
  type FetchFunction,
  getSession,
  listCredentials,
  refreshSession,
  SignetError,
  type SignetEvent,
} from "./index.js";
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

  it("configuration mistakes are INVALID_ARGUMENT at creation, never retryable, and name the option", () => {
    const mistake = (parameters: object) => {
      try {
        createClient(parameters as never);
      } catch (error) {
        return error as SignetError;
      }
      throw new Error("expected createClient to throw");
    };
    for (const relayUrl of [
      "htps://relay.example",
      "ftp://relay.example",
      "api/grid",
      "//cdn",
      "",
    ]) {
      const error = mistake({ relayUrl });
      expect(error).toMatchObject({ code: "INVALID_ARGUMENT", retryable: false });
      expect(error.message).toContain('"relayUrl"');
    }
    for (const trustedKeys of [
      ["04ab"],
      { otp: ["04ab"] },
      { otpTargetBundle: "04ab" },
      { exportBundle: ["04ab"], extra: [] },
    ]) {
      const error = mistake({ relayUrl: "https://relay.example", trustedKeys });
      expect(error).toMatchObject({ code: "INVALID_ARGUMENT", retryable: false });
      expect(error.message).toContain("otpTargetBundle");
    }
    for (const contactChanges of ["PATCH", "resources", true]) {
      const error = mistake({ relayUrl: "https://relay.example", contactChanges });
      expect(error).toMatchObject({ code: "INVALID_ARGUMENT", retryable: false });
      expect(error.message).toContain('"contactChanges"');
    }
    expect(createClient({ relayUrl: "/api/grid" }).contactChanges).toBe("patch");
    expect(createClient({ relayUrl: "/api/grid", contactChanges: "resource" }).contactChanges).toBe(
      "resource",
    );
    for (const relayUrl of ["https://relay.example/api/grid", "http://localhost:8080", "/api/grid"])
      expect(() =>
        createClient({ relayUrl, trustedKeys: { otpTargetBundle: [], exportBundle: [] } }),
      ).not.toThrow();
  });

  it("a path as relayUrl where there is no page origin fails the first request as INVALID_ARGUMENT, not NETWORK", async () => {
    const client = createClient({ relayUrl: "/api/grid" });
    const error = (await listCredentials(client, {
      accountId: "InternalAccount:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a10",
    }).catch((e: unknown) => e)) as SignetError;
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT", retryable: false });
    expect(error.message).toMatch(/absolute http\(s\) URL/);
  });

  it("a 404 that is not the relay's answer says to check relayUrl", async () => {
    const client = createClient({
      relayUrl: "https://app.example/wrong",
      fetch: async () => new Response("", { status: 404 }),
    });
    const error: SignetError = await listCredentials(client, {
      accountId: "InternalAccount:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a10",
    }).then(
      () => {
        throw new Error("expected a failure");
      },
      (e: SignetError) => e,
    );
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/check relayUrl/);
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

describe("session timers and snapshots", () => {
  const accountId = "InternalAccount:11111111-1111-4111-8111-111111111111";
  const credentialId = "AuthMethod:33333333-3333-4333-8333-333333333333";

  /** A relay that answers every refresh: 202, then 201 with a new session of `lifeMs`. */
  function refreshingRelay(lifeMs: number) {
    const refreshed: string[] = [];
    const fetch: FetchFunction = async (input, init) => {
      const signed = new Headers(init.headers).has("Grid-Wallet-Signature");
      if (!signed) {
        return Response.json(
          {
            payloadToSign: refreshPayloadFor(init.body),
            requestId: `Request:44444444-4444-4444-8444-${String(refreshed.length).padStart(12, "0")}`,
            expiresAt: new Date(Date.now() + 300_000).toISOString(),
          },
          { status: 202 },
        );
      }
      refreshed.push(input);
      return Response.json(
        {
          id: `Session:55555555-5555-4555-8555-${String(refreshed.length).padStart(12, "0")}`,
          accountId,
          type: "EMAIL_OTP",
          nickname: "n",
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
          expiresAt: new Date(Date.now() + lifeMs).toISOString(),
        },
        { status: 201 },
      );
    };
    return { fetch, refreshed };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it("never replaces the key of a session id another tab holds (KEY_INVALID), and keeps that tab's key", async () => {
    const keyStore = createMemoryKeyStore();
    const tab = createClient({ relayUrl: "https://relay.test/api/grid", keyStore });
    const other = createClient({ relayUrl: "https://relay.test/api/grid", keyStore });
    await other.sessions.load(); // loaded before the first tab stores its session
    const session = {
      id: "Session:33333333-3333-4333-8333-333333333333",
      accountId,
      credentialId,
      expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    };
    const mine = await tab.crypto.generateSigningKey();
    await tab.holdSession({ ...session, publicKey: mine.publicKey }, mine);
    const theirs = await other.crypto.generateSigningKey();
    const error = await other
      .holdSession({ ...session, publicKey: theirs.publicKey }, theirs)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).code).toBe("KEY_INVALID");
    const records = await Promise.all((await keyStore.list()).map((id) => keyStore.get(id)));
    expect(records.map((record) => record?.publicKey)).toEqual([mine.publicKey]);
    // The same key again (a re-hold after a sync) is no conflict.
    await tab.holdSession({ ...session, publicKey: mine.publicKey }, mine);
  });

  it("auto-refreshes sessions restored from the key store, not only new ones", async () => {
    vi.useFakeTimers();
    const keyStore = createMemoryKeyStore();
    const first = createClient({ relayUrl: "https://relay.test/api/grid", keyStore });
    const key = await first.crypto.generateSigningKey();
    await first.holdSession(
      {
        id: "Session:22222222-2222-4222-8222-222222222222",
        accountId,
        credentialId,
        expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
        publicKey: key.publicKey,
      },
      key,
    );
    // The page reloads: a new client on the same store, with auto-refresh.
    const relay = refreshingRelay(15 * 60_000);
    const client = createClient({
      relayUrl: "https://relay.test/api/grid",
      keyStore,
      fetch: relay.fetch,
      autoRefresh: true,
    });
    await client.sessions.load();
    await vi.advanceTimersByTimeAsync(9 * 60_000 + 1_000);
    // The refresh's WebCrypto work resolves on the real event loop.
    await vi.waitFor(() => expect(relay.refreshed).toHaveLength(1));
    expect((await getSession(client, { accountId }))?.id).toMatch(/^Session:5/);
    client.destroy();
  });

  it("addPasskey does not open the prompt when the only held session has expired", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    let prompts = 0;
    const client = createClient({
      relayUrl: "https://relay.test/api/grid",
      keyStore: createMemoryKeyStore(),
      clock: { now: () => now },
      webauthn: {
        register: async () => {
          prompts += 1;
          throw new Error("a passkey was created");
        },
        authenticate: async () => {
          throw new Error("unused");
        },
      },
    });
    const key = await client.crypto.generateSigningKey();
    await client.holdSession(
      {
        id: "Session:22222222-2222-4222-8222-222222222222",
        accountId,
        credentialId,
        expiresAt: new Date(now + 60_000).toISOString(),
        publicKey: key.publicKey,
      },
      key,
    );
    now += 60_000; // still in the snapshot, but expired
    await expect(
      addPasskey(client, {
        accountId,
        nickname: "Phone",
        challenge: "Y2hhbGxlbmdlLWNoYWxsZW5nZQ",
        rp: { id: "localhost", name: "Test" },
        user: { id: "dXNlcg", name: "u", displayName: "u" },
      }),
    ).rejects.toMatchObject({ code: "NO_SESSION" });
    expect(prompts).toBe(0);
  });
});

describe("refresh: one at a time, cancelled by destroy, margins that would loop refused", () => {
  const accountId = "InternalAccount:11111111-1111-4111-8111-111111111111";
  const sessionId = "Session:22222222-2222-4222-8222-222222222222";

  /** A relay that refreshes sessions, counting the signed refresh requests it answers. */
  function relay(options: { hold?: (signal: AbortSignal) => Promise<void> } = {}) {
    const refreshed: string[] = [];
    let seen: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      seen = resolve;
    });
    const fetch: FetchFunction = async (input, init) => {
      if (!new Headers(init.headers).has("Grid-Wallet-Signature")) {
        return Response.json(
          {
            payloadToSign: refreshPayloadFor(init.body),
            requestId: `Request:44444444-4444-4444-8444-${String(refreshed.length).padStart(12, "0")}`,
            expiresAt: new Date(Date.now() + 300_000).toISOString(),
          },
          { status: 202 },
        );
      }
      seen();
      if (options.hold && init.signal) await options.hold(init.signal);
      refreshed.push(input);
      return Response.json(
        {
          id: `Session:55555555-5555-4555-8555-${String(refreshed.length).padStart(12, "0")}`,
          accountId,
          expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
        },
        { status: 201 },
      );
    };
    return { fetch, refreshed, arrived };
  }

  async function hold(client: ReturnType<typeof createClient>, expiresInMs = 10 * 60_000) {
    const key = await client.crypto.generateSigningKey();
    await client.holdSession(
      {
        id: sessionId,
        accountId,
        expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
        publicKey: key.publicKey,
      },
      key,
    );
  }

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("concurrent refreshes of one session make one request and share its result", async () => {
    const { fetch, refreshed } = relay();
    const client = createClient({ relayUrl: "/r", fetch, keyStore: createMemoryKeyStore() });
    await hold(client);
    const [first, second, third] = await Promise.all([
      refreshSession(client, { accountId }),
      refreshSession(client, { accountId, sessionId }),
      refreshSession(client, { accountId }),
    ]);
    expect(refreshed).toHaveLength(1);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect((await getSession(client, { accountId }))?.id).toBe(first.id);
  });

  it("across tabs (Web Locks): the tab that waited takes the session the other one made", async () => {
    // Two clients over one key store stand for two tabs of an origin; a lock manager like the
    // browser's serialises them.
    const tails = new Map<string, Promise<unknown>>();
    vi.stubGlobal("navigator", {
      locks: {
        request(name: string, callback: () => Promise<unknown>) {
          const run = (tails.get(name) ?? Promise.resolve()).then(callback, callback);
          tails.set(
            name,
            run.catch(() => {}),
          );
          return run;
        },
      },
    });
    const keyStore = createMemoryKeyStore();
    const { fetch, refreshed } = relay();
    const tabA = createClient({ relayUrl: "/r", fetch, keyStore });
    const tabB = createClient({ relayUrl: "/r", fetch, keyStore });
    try {
      await hold(tabA);
      await tabB.sessions.load();
      const [a, b] = await Promise.all([
        refreshSession(tabA, { accountId }),
        refreshSession(tabB, { accountId }),
      ]);
      expect(refreshed).toHaveLength(1);
      expect(b.id).toBe(a.id);
      expect((await getSession(tabB, { accountId }))?.id).toBe(a.id);
    } finally {
      tabA.destroy();
      tabB.destroy();
    }
  });

  it("destroy() cancels an automatic refresh in flight", async () => {
    const events: SignetEvent[] = [];
    const { fetch, arrived } = relay({
      hold: (signal) =>
        new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
    });
    const client = createClient({
      relayUrl: "/r",
      fetch,
      keyStore: createMemoryKeyStore(),
      autoRefresh: { marginMs: 60_000 },
      onEvent: (event) => events.push(event),
    });
    await hold(client, 60_000); // due at once
    await arrived;
    client.destroy();
    await vi.waitFor(() =>
      expect(events).toContainEqual(
        expect.objectContaining({ type: "signedRequest", stage: "failed", code: "ABORTED" }),
      ),
    );
  });

  it("refuses an autoRefresh margin that would loop", () => {
    for (const marginMs of [15 * 60_000, 20 * 60_000, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createClient({ relayUrl: "/r", autoRefresh: { marginMs } })).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }),
      );
    }
    createClient({ relayUrl: "/r", autoRefresh: { marginMs: 5 * 60_000 } }).destroy();
    createClient({ relayUrl: "/r", autoRefresh: true }).destroy();
  });
});
