// Issue #24 A: the iOS Keychain keeps an app's items after the app is deleted. The adapters find
// the first launch after a reinstall through a marker that is deleted with the app, and clear what
// the earlier install left (sessions reported `lost`), never touching other libraries' entries.
// Proven over the fakes of ./fakes.ts (the keychain survives; the marker store is wiped) and the
// emulator stack.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "../../../../test/support/signIn.js";
import { type Stack, startStack } from "../../../../test/support/stack.js";
import { createCryptoApi } from "../../src/crypto/api.js";
import { createNobleBackend } from "../../src/crypto/noble.js";
import { getSession, type KeyStore, SignetError } from "../../src/index.js";
import type { InstallMarkerStore } from "../../src/keys/string-store.js";
import { documentDirectoryMarker, settingsMarker } from "../../src/react-native/installMarkers.js";
import { keychainKeyStore } from "../../src/react-native/keychain.js";
import { secureStoreKeyStore } from "../../src/react-native/secureStore.js";
import { createFakeKeychain, createFakeSecureStore } from "./fakes.js";

const noble = createCryptoApi(createNobleBackend());

/** An install marker in memory; `wipe` is what deleting the app does to the real ones. */
function createMemoryMarker() {
  let present = false;
  let failing = false;
  const marker: InstallMarkerStore & { wipe(): void; fail(on: boolean): void; present(): boolean } =
    {
      exists: async () => {
        if (failing) throw new Error("document directory unavailable");
        return present;
      },
      create: async () => {
        if (failing) throw new Error("document directory unavailable");
        present = true;
      },
      wipe: () => {
        present = false;
      },
      fail: (on) => {
        failing = on;
      },
      present: () => present,
    };
  return marker;
}

type Adapter = {
  name: string;
  /** One device: its keychain survives reinstalls. */
  device(): {
    store(options?: Record<string, unknown>): KeyStore;
    /** Every value in the device's keychain, for leak checks. */
    values(): string[];
    /** Writes an entry of another library, outside Signet's prefix. */
    writeForeign(key: string, value: string): Promise<void>;
    readForeign(key: string): Promise<string | null>;
  };
};

const adapters: Adapter[] = [
  {
    name: "expo-secure-store",
    device() {
      const module = createFakeSecureStore();
      const options = { keychainAccessible: module.WHEN_UNLOCKED_THIS_DEVICE_ONLY };
      return {
        store: (options = {}) => secureStoreKeyStore(module, options),
        values: () => [...module.fake.items.values()].map((item) => item.value),
        writeForeign: (key, value) => module.setItemAsync(key, value, options),
        readForeign: (key) => module.getItemAsync(key, options),
      };
    },
  },
  {
    name: "react-native-keychain",
    device() {
      const module = createFakeKeychain();
      return {
        store: (options = {}) => keychainKeyStore(module, options),
        values: () => [...module.fake.items.values()].map((item) => item.value),
        writeForeign: async (key, value) => {
          await module.setGenericPassword("other", value, {
            service: key,
            accessible: module.ACCESSIBLE.WHEN_UNLOCKED_THIS_DEVICE_ONLY,
          });
        },
        readForeign: async (key) => {
          const found = await module.getGenericPassword({ service: key });
          return found === false ? null : found.password;
        },
      };
    },
  },
];

describe("reinstall: the adapters clear what an earlier install left", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  for (const adapter of adapters) {
    it(`${adapter.name}: a restart keeps the session; a reinstall reports it lost and removes every Signet key, never another library's entry`, async () => {
      const { customerId, accountId, emailCredentialId } = await stack.signUp();
      const device = adapter.device();
      const marker = createMemoryMarker();
      await device.writeForeign("other.library.token", "their-token");

      const first = stack.client(customerId, {
        keyStore: device.store({ installMarker: marker }),
        crypto: noble,
      });
      const session = await signInWithEmail(first.client, emailCredentialId);
      // An id of the app's own, not a session: removed at reinstall without an event.
      const own = await noble.generateSigningKey();
      await device.store({ installMarker: marker }).set("app-device-key", own.toRecord());
      expect(marker.present()).toBe(true);
      const sessionKey = (await device.store({ installMarker: marker }).list()).find((id) =>
        id.startsWith("signet.session|"),
      );
      const stored = sessionKey
        ? await device.store({ installMarker: marker }).get(sessionKey)
        : undefined;
      const secrets = [stored, own.toRecord()].map((r) =>
        r?.type === "scalar" ? r.privateKey : "",
      );
      expect(secrets.every((secret) => secret.length === 64)).toBe(true);

      // A restart (same install): the session is restored.
      const restarted = stack.client(customerId, {
        keyStore: device.store({ installMarker: marker }),
        crypto: noble,
      });
      expect((await getSession(restarted.client, { accountId }))?.id).toBe(session.id);
      expect(restarted.events.filter((e) => e.type === "session" && e.action === "lost")).toEqual(
        [],
      );

      // The app is deleted and installed again: the keychain keeps its items, the marker is gone.
      marker.wipe();
      for (const secret of secrets) expect(device.values().join("\n")).toContain(secret);
      const reinstalled = stack.client(customerId, {
        keyStore: device.store({ installMarker: marker }),
        crypto: noble,
      });
      expect(await getSession(reinstalled.client, { accountId })).toBeUndefined();
      const lost = reinstalled.events.filter((e) => e.type === "session" && e.action === "lost");
      expect(lost).toEqual([
        expect.objectContaining({
          type: "session",
          action: "lost",
          accountId,
          sessionId: session.id,
        }),
      ]);
      // No private key of the earlier install is left, nor named in an event.
      for (const secret of secrets) {
        expect(device.values().join("\n")).not.toContain(secret);
        expect(JSON.stringify(reinstalled.events)).not.toContain(secret);
      }
      expect(await device.store({ installMarker: marker }).list()).toEqual([]);
      expect(await device.readForeign("other.library.token")).toBe("their-token");
      expect(marker.present()).toBe(true);

      // The new install signs in again and keeps its session across restarts.
      const again = await signInWithEmail(reinstalled.client, emailCredentialId);
      const next = stack.client(customerId, {
        keyStore: device.store({ installMarker: marker }),
        crypto: noble,
      });
      expect((await getSession(next.client, { accountId }))?.id).toBe(again.id);
    });

    it(`${adapter.name}: an update to a version with the marker keeps existing sessions; clearAfterReinstall: false keeps them after a reinstall`, async () => {
      const { customerId, accountId, emailCredentialId } = await stack.signUp();
      const device = adapter.device();
      // Signed in by a version without the marker (no install record in the keychain).
      const old = stack.client(customerId, { keyStore: device.store(), crypto: noble });
      const session = await signInWithEmail(old.client, emailCredentialId);

      const marker = createMemoryMarker();
      const updated = stack.client(customerId, {
        keyStore: device.store({ installMarker: marker }),
        crypto: noble,
      });
      expect((await getSession(updated.client, { accountId }))?.id).toBe(session.id);
      expect(marker.present()).toBe(true);

      marker.wipe();
      const optedOut = stack.client(customerId, {
        keyStore: device.store({ installMarker: marker, clearAfterReinstall: false }),
        crypto: noble,
      });
      expect((await getSession(optedOut.client, { accountId }))?.id).toBe(session.id);
      expect(marker.present()).toBe(false);
    });
  }
});

describe("reinstall: failures and markers", () => {
  it("a marker store that fails is KEY_STORAGE_UNAVAILABLE, and the check runs again on the next call", async () => {
    const module = createFakeSecureStore();
    const marker = createMemoryMarker();
    const store = secureStoreKeyStore(module, { installMarker: marker });
    marker.fail(true);
    const error = await store.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).code).toBe("KEY_STORAGE_UNAVAILABLE");
    marker.fail(false);
    expect(await store.list()).toEqual([]);
    expect(marker.present()).toBe(true);
  });

  it("refuses a marker without exists and create", () => {
    const module = createFakeSecureStore();
    expect(() => secureStoreKeyStore(module, { installMarker: {} as InstallMarkerStore })).toThrow(
      /installMarker/,
    );
  });

  it("the default marker is used unless one is given or the check is off", async () => {
    const module = createFakeKeychain();
    const fallback = createMemoryMarker();
    const given = createMemoryMarker();
    await keychainKeyStore(module, {}, () => fallback).list();
    expect(fallback.present()).toBe(true);
    await keychainKeyStore(module, { prefix: "b.", installMarker: given }, () => fallback).list();
    expect(given.present()).toBe(true);
    fallback.wipe();
    await keychainKeyStore(module, { clearAfterReinstall: false }, () => fallback).list();
    expect(fallback.present()).toBe(false);
  });

  it("document-directory marker: one empty file, created once (expo-file-system's File and Paths)", () => {
    const files = new Set<string>();
    let creates = 0;
    class File {
      readonly path: string;
      constructor(directory: unknown, name: string) {
        this.path = `${String(directory)}/${name}`;
      }
      get exists() {
        return files.has(this.path);
      }
      create() {
        if (files.has(this.path)) throw new Error("exists");
        creates++;
        files.add(this.path);
      }
    }
    const marker = documentDirectoryMarker({ File, Paths: { document: "file:///doc" } });
    expect(marker.exists()).toBe(false);
    marker.create();
    marker.create();
    expect(marker.exists()).toBe(true);
    expect([...files]).toEqual(["file:///doc/signet-installed"]);
    expect(creates).toBe(1);
  });

  it("preferences marker: one value in NSUserDefaults (React Native's Settings)", () => {
    const defaults = new Map<string, unknown>();
    const marker = settingsMarker({
      get: (key) => defaults.get(key),
      set: (values) => {
        for (const [key, value] of Object.entries(values)) defaults.set(key, value);
      },
    });
    expect(marker.exists()).toBe(false);
    marker.create();
    expect(marker.exists()).toBe(true);
    expect([...defaults.keys()]).toEqual(["signet.installed"]);
  });
});
