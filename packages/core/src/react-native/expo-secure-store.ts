/**
 * `@signet/core/expo-secure-store`: session keys in expo-secure-store (React Native, Expo or bare
 * with expo-modules). `expo-secure-store` is an optional peer dependency, imported only here, so
 * web bundles never see it.
 *
 * @module @signet/core/expo-secure-store
 */
import * as SecureStore from "expo-secure-store";
import type { KeyStore } from "../keys/key-store.js";
import { type SecureStoreKeyStoreOptions, secureStoreKeyStore } from "./secureStore.js";

export type { DeviceOnlyAccessibility, SecureStoreKeyStoreOptions } from "./secureStore.js";

/**
 * A {@link KeyStore} in expo-secure-store: each key record is one item, readable only by this app
 * on this device while it is unlocked (`WHEN_UNLOCKED_THIS_DEVICE_ONLY`, or the stricter
 * `WHEN_PASSCODE_SET_THIS_DEVICE_ONLY`); never in backups or iCloud Keychain. The keys are
 * software P-256 keys encrypted at rest by the platform, not keys inside the Secure Enclave.
 *
 * @param options - `accessible`, `keychainService`, `requireAuthentication`, `prefix`.
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
  return secureStoreKeyStore(SecureStore, options);
}
