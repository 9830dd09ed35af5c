/**
 * `@signet/core/expo-secure-store`: session keys in expo-secure-store (React Native, Expo or bare
 * with expo-modules). `expo-secure-store` is an optional peer dependency, imported only here, so
 * web bundles never see it.
 *
 * @module @signet/core/expo-secure-store
 */
import * as FileSystem from "expo-file-system";
import * as SecureStore from "expo-secure-store";
import type { KeyStore } from "../keys/key-store.js";
import type { InstallMarkerStore } from "../keys/string-store.js";
import { documentDirectoryMarker } from "./installMarkers.js";
import { type SecureStoreKeyStoreOptions, secureStoreKeyStore } from "./secureStore.js";

export type { InstallMarkerStore } from "../keys/string-store.js";
export type { DeviceOnlyAccessibility, SecureStoreKeyStoreOptions } from "./secureStore.js";

/**
 * The default install marker of {@link createSecureStoreKeyStore}: an empty file in the app's
 * document directory (`expo-file-system`, SDK 54 or later), which the system deletes with the app.
 *
 * @param name - The file name. Default `"signet-installed"`.
 * @returns An install marker to pass as `installMarker`.
 * @example
 * ```ts
 * createSecureStoreKeyStore({ installMarker: createDocumentDirectoryMarker("wallet-installed") });
 * ```
 */
export function createDocumentDirectoryMarker(name?: string): InstallMarkerStore {
  return documentDirectoryMarker(FileSystem, name);
}

/**
 * A {@link KeyStore} in expo-secure-store: each key record is one item, readable only by this app
 * on this device while it is unlocked (`WHEN_UNLOCKED_THIS_DEVICE_ONLY`, or the stricter
 * `WHEN_PASSCODE_SET_THIS_DEVICE_ONLY`); never in backups or iCloud Keychain. The keys are
 * software P-256 keys encrypted at rest by the platform, not keys inside the Secure Enclave.
 *
 * On the first launch after the app is reinstalled, the keys an earlier install left in the iOS
 * Keychain are cleared, each session reported as a session `lost` event; entries outside `prefix`
 * are never touched. The install marker is a file in the document directory
 * ({@link createDocumentDirectoryMarker}, needs `expo-file-system`); `clearAfterReinstall: false`
 * turns the check off.
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
  return secureStoreKeyStore(SecureStore, options, () => createDocumentDirectoryMarker());
}
