// The rare paths load on first use (crypto/api.ts, crypto/webcrypto.ts, the actions' chunks, the
// signed-request engine): a chunk that fails to
// load (offline, a deploy that removed it) must surface as one typed, retryable SignetError, the
// same code everywhere, and a later call must work once the chunk loads again.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SignetError } from "../../src/errors/errors.js";

const SCALAR = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721";
// One chunk holds them all (crypto/rare.ts). The IndexedDB key store loads with the page: a stored
// key is read without waiting for a chunk (keys/idb.ts).
const CHUNKS = ["../../src/crypto/rare.js"];

function failChunks() {
  for (const chunk of CHUNKS) {
    vi.doMock(chunk, () => {
      throw new TypeError("Failed to fetch dynamically imported module");
    });
  }
}

async function loadApi() {
  const { createCryptoApi } = await import("../../src/crypto/api.js");
  const { createWebCryptoBackend } = await import("../../src/crypto/webcrypto.js");
  const { SignetError } = await import("../../src/errors/errors.js");
  return { api: createCryptoApi(createWebCryptoBackend()), SignetError };
}

async function failure(run: () => Promise<unknown>, type: typeof SignetError) {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as SignetError;
  }
  throw new Error("expected a failure");
}

afterEach(() => {
  for (const chunk of CHUNKS) vi.doUnmock(chunk);
  vi.resetModules();
});

describe("lazy chunks that fail to load", () => {
  it("importSigningKey / importDecryptionKey / restoreSigningKey: NETWORK, retryable (not KEY_INVALID)", async () => {
    vi.resetModules();
    failChunks();
    const { api, SignetError } = await loadApi();
    for (const run of [
      () => api.importSigningKey(SCALAR),
      () => api.importDecryptionKey(SCALAR),
      () =>
        api.restoreSigningKey({
          type: "scalar",
          privateKey: SCALAR,
          publicKey: "0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
        }),
    ]) {
      const error = await failure(run, SignetError);
      expect(error.code).toBe("NETWORK");
      expect(error.retryable).toBe(true);
      expect(error.message).not.toContain(SCALAR);
    }
  });

  it("openExportBundle / openSessionKeyBundle / verifyStamp: NETWORK, retryable", async () => {
    vi.resetModules();
    failChunks();
    const { api, SignetError } = await loadApi();
    const key = await api.generateDecryptionKey();
    for (const run of [
      () => api.openExportBundle({ bundle: "{}", key }),
      () => api.openSessionKeyBundle({ bundle: "1111", key }),
      () => api.verifyStamp({ payload: "{}", stamp: "e30" }),
    ]) {
      const error = await failure(run, SignetError);
      expect(error.code).toBe("NETWORK");
      expect(error.retryable).toBe(true);
    }
  });

  it("sealOtpBundle (its chunk is the bundle checks, prefetched by createClient): NETWORK, retryable", async () => {
    vi.resetModules();
    vi.doMock("../../src/crypto/bundles.js", () => {
      throw new TypeError("Failed to fetch dynamically imported module");
    });
    const { api, SignetError } = await loadApi();
    const error = await failure(
      () => api.sealOtpBundle({ targetBundle: "{}", otpCode: "123456", publicKey: "04" }),
      SignetError,
    );
    expect(error).toMatchObject({ code: "NETWORK", retryable: true });
    expect(error.message).not.toContain("123456");
    vi.doUnmock("../../src/crypto/bundles.js");
  });

  it("a later call succeeds once the chunk loads (nothing cached from the failure)", async () => {
    vi.resetModules();
    vi.doMock("../../src/crypto/rare.js", async (importOriginal) => {
      // Fails the first load only, like a flaky network.
      const state = globalThis as { __signetChunkTries?: number };
      state.__signetChunkTries = (state.__signetChunkTries ?? 0) + 1;
      if (state.__signetChunkTries === 1) throw new TypeError("Failed to fetch");
      return importOriginal();
    });
    const { api, SignetError } = await loadApi();
    expect((await failure(() => api.importSigningKey(SCALAR), SignetError)).code).toBe("NETWORK");
    const key = await api.importSigningKey(SCALAR);
    expect(key.publicKey).toBe(
      "0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
    );
    delete (globalThis as { __signetChunkTries?: number }).__signetChunkTries;
  });
});

const ACCOUNT = "InternalAccount:7f1c2a3b-4d5e-4f60-8a71-92b3c4d5e6f7";

describe("the actions' chunks", () => {
  it("start loading when a client is made; a failed load is the first call's NETWORK, and the next call works", async () => {
    vi.resetModules();
    let evaluated = 0;
    let fail = true;
    vi.doMock("../../src/catalog/chunks/walletActions.js", async (original) => {
      evaluated++;
      if (fail) throw new TypeError("Failed to fetch dynamically imported module");
      return original();
    });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    try {
      const { createClient, listCredentials, SignetError } = await import("../../src/index.js");
      const seen: string[] = [];
      const fetch = async (input: RequestInfo | URL) => {
        seen.push(String(input));
        return Response.json({ data: [] });
      };
      const client = createClient({ relayUrl: "http://127.0.0.1:9/relay", fetch });
      // The load began with the client, before any call.
      await vi.waitFor(() => expect(evaluated).toBe(1));
      const error = await failure(
        () => listCredentials(client, { accountId: ACCOUNT }),
        SignetError,
      );
      expect(error.code).toBe("NETWORK");
      expect(error.retryable).toBe(true);
      expect(seen).toEqual([]);
      fail = false;
      vi.resetModules();
      await expect(listCredentials(client, { accountId: ACCOUNT })).resolves.toBeDefined();
      expect(seen).toHaveLength(1);
      client.destroy();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(rejections).toEqual([]);
    } finally {
      process.off("unhandledRejection", onRejection);
      vi.doUnmock("../../src/catalog/chunks/walletActions.js");
    }
  });
});

describe("the signed-request engine's chunk", () => {
  it("starts loading with the client; a failed load is NETWORK before anything is sent, and the next signed call is sent", async () => {
    vi.resetModules();
    let evaluated = 0;
    let fail = true;
    vi.doMock("../../src/transport/signedRequest.js", async (original) => {
      evaluated++;
      if (fail) throw new TypeError("Failed to fetch dynamically imported module");
      return original();
    });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    try {
      const { createClient, SignetError } = await import("../../src/index.js");
      const seen: string[] = [];
      const fetch = async (input: RequestInfo | URL) => {
        seen.push(String(input));
        return Response.json({ code: "NOT_FOUND", message: "no such session" }, { status: 404 });
      };
      const client = createClient({ relayUrl: "http://127.0.0.1:9/relay", fetch });
      await vi.waitFor(() => expect(evaluated).toBe(1));
      // Leg 1 of a challenge-mode request goes unsigned: `sign` is never reached here.
      const parameters = {
        method: "DELETE",
        path: "/auth/sessions/Session:1",
        body: "",
        expectedStatus: 204,
        sign: async () => {
          throw new Error("not reached");
        },
        checkPayload: () => undefined,
      } as never;
      const error = await failure(() => client.signed(parameters), SignetError);
      expect(error).toMatchObject({ code: "NETWORK", retryable: true });
      expect(seen).toEqual([]);
      fail = false;
      vi.resetModules();
      // The modules were reset: the engine's error is another realm's SignetError, read by its code.
      await expect(client.signed(parameters)).rejects.toMatchObject({ code: "NOT_FOUND" });
      expect(seen).toEqual(["http://127.0.0.1:9/relay/auth/sessions/Session:1"]);
      client.destroy();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(rejections).toEqual([]);
    } finally {
      process.off("unhandledRejection", onRejection);
      vi.doUnmock("../../src/transport/signedRequest.js");
    }
  });

  it("a sign-out whose engine cannot load ends its sessions on the device as offline: keys deleted, NETWORK thrown", async () => {
    vi.resetModules();
    vi.doMock("../../src/transport/signedRequest.js", () => {
      throw new TypeError("Failed to fetch dynamically imported module");
    });
    try {
      const { createClient, createMemoryKeyStore, signOut } = await import("../../src/index.js");
      const seen: string[] = [];
      const keyStore = createMemoryKeyStore();
      const client = createClient({
        relayUrl: "http://127.0.0.1:9/relay",
        keyStore,
        fetch: async (input: RequestInfo | URL) => {
          seen.push(String(input));
          return Response.json({ data: [] });
        },
      });
      const key = await client.crypto.generateSigningKey();
      await client.holdSession(
        {
          id: "Session:22222222-2222-4222-8222-222222222222",
          accountId: ACCOUNT,
          expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
          publicKey: key.publicKey,
        },
        key,
      );
      expect(await keyStore.list()).toHaveLength(1);
      await expect(signOut(client, { accountId: ACCOUNT })).rejects.toMatchObject({
        code: "NETWORK",
        retryable: true,
      });
      expect(client.sessions.getSnapshot()[ACCOUNT] ?? []).toEqual([]);
      expect(await keyStore.list()).toEqual([]);
      expect(seen).toEqual([]);
      client.destroy();
    } finally {
      vi.doUnmock("../../src/transport/signedRequest.js");
    }
  });
});
