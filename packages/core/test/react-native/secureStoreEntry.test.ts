/// <reference path="../../src/react-native/modules.d.ts" />
// Issue #39: `@signet/core/expo-secure-store` imports nothing beyond expo-secure-store and React
// Native. Its default install marker is a value in the app's preferences (React Native's
// `Settings`, NSUserDefaults) on iOS, under its own key, and none on Android, where the items go
// with the app's data. The entry itself is loaded here, its two native modules replaced by the
// faithful fakes of ./fakes.ts (the keychain survives a reinstall; the preferences do not).
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createCryptoApi } from "../../src/crypto/api.js";
import { createNobleBackend } from "../../src/crypto/noble.js";
import { createFakeSecureStore } from "./fakes.js";

const native = vi.hoisted(() => ({
  os: "ios",
  defaults: new Map<string, unknown>(),
  settingsCalls: 0,
  store: {} as Record<string, unknown>,
}));

vi.mock("react-native", () => ({
  Platform: {
    get OS() {
      return native.os;
    },
  },
  Settings: {
    get: (key: string) => {
      native.settingsCalls++;
      return native.defaults.get(key);
    },
    set: (values: Record<string, unknown>) => {
      native.settingsCalls++;
      for (const [key, value] of Object.entries(values)) native.defaults.set(key, value);
    },
  },
}));
vi.mock("expo-secure-store", () => native.store);
// Nothing else: an import of expo-file-system would fail to resolve here (it is not installed).

const noble = createCryptoApi(createNobleBackend());

beforeEach(() => {
  native.defaults.clear();
  native.settingsCalls = 0;
  // A module namespace's members, as `import * as SecureStore` sees them.
  native.store = { ...createFakeSecureStore() };
  vi.resetModules();
});

async function entry() {
  return import("../../src/react-native/expo-secure-store.js");
}

describe("@signet/core/expo-secure-store: the default install marker", () => {
  it("iOS: a value in the app's preferences under its own key; a reinstall (preferences gone, keychain kept) clears the earlier install's keys", async () => {
    native.os = "ios";
    const { createSecureStoreKeyStore } = await entry();
    const key = await noble.generateSigningKey();
    await createSecureStoreKeyStore().set("app-device-key", key.toRecord());
    expect([...native.defaults.keys()]).toEqual(["signet.installed.expo-secure-store"]);

    // A restart: the same preferences, the key is still there.
    expect(await createSecureStoreKeyStore().list()).toEqual(["app-device-key"]);

    // The app deleted and installed again: its preferences go, the iOS Keychain stays.
    native.defaults.clear();
    const after = createSecureStoreKeyStore();
    expect(await after.list()).toEqual([]);
    expect(await after.get("app-device-key")).toBeUndefined();
    expect(native.defaults.get("signet.installed.expo-secure-store")).toBe("1");
  });

  it("Android: no marker and no preference read (the store goes with the app's data); keys stay across restarts", async () => {
    native.os = "android";
    const { createSecureStoreKeyStore } = await entry();
    const key = await noble.generateSigningKey();
    await createSecureStoreKeyStore().set("app-device-key", key.toRecord());
    expect(await createSecureStoreKeyStore().list()).toEqual(["app-device-key"]);
    expect(native.settingsCalls).toBe(0);
  });

  it("an injected document-directory marker (expo-file-system passed by the app) replaces the default", async () => {
    native.os = "ios";
    const { createSecureStoreKeyStore, createDocumentDirectoryMarker } = await entry();
    const files = new Set<string>();
    const fileSystem = {
      Paths: { document: "file:///doc" },
      File: class {
        readonly path: string;
        constructor(directory: unknown, name: string) {
          this.path = `${String(directory)}/${name}`;
        }
        get exists() {
          return files.has(this.path);
        }
        create() {
          files.add(this.path);
        }
      },
    };
    const store = createSecureStoreKeyStore({
      installMarker: createDocumentDirectoryMarker(fileSystem),
    });
    await store.list();
    expect([...files]).toEqual(["file:///doc/signet-installed"]);
    expect(native.settingsCalls).toBe(0);
  });
});
