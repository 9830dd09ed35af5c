/**
 * `@signet/core/react-native-keychain`: session keys in react-native-keychain (bare React Native).
 * `react-native-keychain` is an optional peer dependency, imported only here, so web bundles never
 * see it.
 *
 * @module @signet/core/react-native-keychain
 */
import { Platform, Settings } from "react-native";
import * as Keychain from "react-native-keychain";
import type { KeyStore } from "../keys/key-store.js";
import { settingsMarker } from "./installMarkers.js";
import { type KeychainKeyStoreOptions, keychainKeyStore } from "./keychain.js";

export type { InstallMarkerStore } from "../keys/string-store.js";
export type { KeychainKeyStoreOptions } from "./keychain.js";
export type { DeviceOnlyAccessibility } from "./secureStore.js";

/**
 * A {@link KeyStore} in react-native-keychain: each key record is one generic-password item
 * (service `signet.…`), readable only by this app on this device while it is unlocked
 * (`WHEN_UNLOCKED_THIS_DEVICE_ONLY`, or the stricter `WHEN_PASSCODE_SET_THIS_DEVICE_ONLY`), never
 * synchronised to iCloud. The keys are software P-256 keys encrypted at rest by the platform
 * (iOS Keychain, Android Keystore), not keys inside the Secure Enclave or StrongBox.
 *
 * On iOS, the first launch after the app is reinstalled clears the keys an earlier install left in
 * the Keychain, each session reported as a session `lost` event; entries outside `prefix` are
 * never touched. The install marker is a value in the app's preferences (React Native's
 * `Settings`, `NSUserDefaults`); on Android the items go with the app's data, so no marker is
 * kept unless `installMarker` is given. `clearAfterReinstall: false` turns the check off.
 *
 * @param options - `accessible`, `requireSecureHardware` (Android), `prefix`,
 * `clearAfterReinstall`, `installMarker`.
 * @returns A {@link KeyStore} with persistence `"secure-store"`; pass it to `createClient`.
 * @throws {SignetError} `INVALID_ARGUMENT` for an unknown `accessible`; `KEY_STORAGE_UNAVAILABLE`
 * when the native module is missing. Its methods throw `KEY_STORAGE_UNAVAILABLE` when the keychain fails.
 * @example
 * ```ts
 * import { createKeychainKeyStore } from "@signet/core/react-native-keychain";
 * const client = createClient({ relayUrl, keyStore: createKeychainKeyStore() });
 * ```
 */
export function createKeychainKeyStore(options: KeychainKeyStoreOptions = {}): KeyStore {
  return keychainKeyStore(Keychain, options, () =>
    Platform.OS === "ios" ? settingsMarker(Settings) : undefined,
  );
}
