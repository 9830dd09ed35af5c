/**
 * `@signet/core/expo-secure-store`: session keys in expo-secure-store (React Native, Expo or bare
 * with expo-modules). `expo-secure-store` is an optional peer dependency, imported only here, so
 * web bundles never see it.
 *
 * @module @signet/core/expo-secure-store
 */

import * as SecureStore from "expo-secure-store";
import { Platform, Settings } from "react-native";
import type { KeyStore } from "../keys/key-store.js";
import type { InstallMarkerStore } from "../keys/string-store.js";
import {
  documentDirectoryMarker,
  type ExpoFileSystemModule,
  settingsMarker,
} from "./installMarkers.js";
import { type SecureStoreKeyStoreOptions, secureStoreKeyStore } from "./secureStore.js";

export type { InstallMarkerStore } from "../keys/string-store.js";
export type { ExpoFileSystemModule } from "./installMarkers.js";
export type { DeviceOnlyAccessibility, SecureStoreKeyStoreOptions } from "./secureStore.js";

// Its own preference key, apart from the keychain adapter's: each store checks its own marker.
const SETTINGS_KEY = "signet.installed.expo-secure-store";

/**
 * An install marker as an empty file in the app's document directory, over the `expo-file-system`
 * module the app passes (SDK 54 or later: `File` and `Paths`); the system deletes it with the app.
 * Not the default (which needs no module beyond React Native, see
 * {@link createSecureStoreKeyStore}): for apps that already carry `expo-file-system`, or that kept
 * their marker there with an earlier version of this adapter.
 *
 * @param fileSystem - `import * as FileSystem from "expo-file-system"`.
 * @param name - The file name. Default `"signet-installed"`.
 * @returns An install marker to pass as `installMarker`.
 * @example
 * ```ts
 * import * as FileSystem from "expo-file-system";
 * createSecureStoreKeyStore({ installMarker: createDocumentDirectoryMarker(FileSystem) });
 * ```
 */
export function createDocumentDirectoryMarker(
  fileSystem: ExpoFileSystemModule,
  name?: string,
): InstallMarkerStore {
  return documentDirectoryMarker(fileSystem, name);
}

/**
 * A {@link KeyStore} in expo-secure-store: each key record is one item, readable only by this app
 * on this device while it is unlocked (`WHEN_UNLOCKED_THIS_DEVICE_ONLY`, or the stricter
 * `WHEN_PASSCODE_SET_THIS_DEVICE_ONLY`); never in backups or iCloud Keychain. The keys are
 * software P-256 keys encrypted at rest by the platform, not keys inside the Secure Enclave.
 *
 * On the first launch after the app is reinstalled, the keys an earlier install left in the iOS
 * Keychain are cleared, each session reported as a session `lost` event; entries outside `prefix`
 * are never touched. The install marker is a value in the app's preferences (React Native's
 * `Settings`, `NSUserDefaults`, deleted with the app), so the adapter needs no module beyond
 * `expo-secure-store` and React Native; on Android the items go with the app's data, so no marker
 * is kept unless `installMarker` is given. `clearAfterReinstall: false` turns the check off.
 *
 * @param options - `accessible`, `keychainService`, `requireAuthentication`, `prefix`,
 * `clearAfterReinstall`, `installMarker`.
 * @returns A {@link KeyStore} with persistence `"secure-store"`; pass it to `createClient`.
 * @throws {SignetError} `INVALID_ARGUMENT` for an unknown `accessible`; `KEY_STORAGE_UNAVAILABLE`
 * when the native module is missing. Its methods throw `KEY_STORAGE_UNAVAILABLE` when the store fails.
 * @example
 * ```ts
 * import { createSecureStoreKeyStore } from "@signet/core/expo-secure-store";
 * const client = createClient({ relayUrl, keyStore: createSecureStoreKeyStore() });
 * ```
 */
export function createSecureStoreKeyStore(options: SecureStoreKeyStoreOptions = {}): KeyStore {
  return secureStoreKeyStore(SecureStore, options, () =>
    Platform.OS === "ios" ? settingsMarker(Settings, SETTINGS_KEY) : undefined,
  );
}
