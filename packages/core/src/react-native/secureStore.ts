// A KeyStore over expo-secure-store (iOS Keychain; Android Keystore-encrypted preferences), with
// every item readable only by this app on this device while it is unlocked.
import { SignetError } from "../errors/errors.js";
import type { KeyStore } from "../keys/key-store.js";
import { createStringKeyStore, type InstallMarkerStore } from "../keys/string-store.js";

/** The parts of `expo-secure-store` the adapter calls, as that library documents them. */
export type SecureStoreModule = {
  readonly WHEN_UNLOCKED_THIS_DEVICE_ONLY: number;
  readonly WHEN_PASSCODE_SET_THIS_DEVICE_ONLY: number;
  getItemAsync(key: string, options?: SecureStoreCallOptions): Promise<string | null>;
  setItemAsync(key: string, value: string, options?: SecureStoreCallOptions): Promise<void>;
  deleteItemAsync(key: string, options?: SecureStoreCallOptions): Promise<void>;
};

/** The options object passed to every `expo-secure-store` call. */
export type SecureStoreCallOptions = {
  keychainService?: string;
  keychainAccessible: number;
  requireAuthentication?: boolean;
  authenticationPrompt?: string;
};

/** When an item may be read. Both never leave the device (no backup, no iCloud Keychain). */
export type DeviceOnlyAccessibility =
  | "whenUnlockedThisDeviceOnly"
  | "whenPasscodeSetThisDeviceOnly";

/** Options of `createSecureStoreKeyStore`. */
export type SecureStoreKeyStoreOptions = {
  /**
   * iOS keychain accessibility of every item. Default `"whenUnlockedThisDeviceOnly"`;
   * `"whenPasscodeSetThisDeviceOnly"` is stricter (items are deleted if the passcode is removed).
   * Weaker classes (`AFTER_FIRST_UNLOCK`, `ALWAYS`, migrating ones) are not offered.
   */
  accessible?: DeviceOnlyAccessibility | undefined;
  /** Keychain service (iOS) / preferences name (Android) the items live under. */
  keychainService?: string | undefined;
  /**
   * Ask for biometrics or the passcode on every read and write (`requireAuthentication`).
   * A session key is read once per app start, when the session is restored.
   */
  requireAuthentication?: boolean | undefined;
  /** The prompt shown when `requireAuthentication` is on. */
  authenticationPrompt?: string | undefined;
  /** Prefix of every storage key (see `createStringKeyStore`). Default `"signet."`. */
  prefix?: string | undefined;
  /**
   * Clear what an earlier install of the app left in the store, on the first launch after a
   * reinstall (the iOS Keychain keeps an app's items after the app is deleted): its session keys
   * are reported as session `lost` events, then removed. Default true; needs an install marker.
   */
  clearAfterReinstall?: boolean | undefined;
  /**
   * Where the install marker lives: somewhere deleted with the app. Default: on iOS a value in
   * the app's preferences through React Native's `Settings`; on Android none (the items go with
   * the app's data). `createDocumentDirectoryMarker(FileSystem)` keeps it as a file instead.
   */
  installMarker?: InstallMarkerStore | undefined;
};

/**
 * The key store behind `@signet/core/expo-secure-store`, over the module it is given.
 * @throws {SignetError} `INVALID_ARGUMENT` for an unknown `accessible` or a module without the
 * documented functions.
 */
export function secureStoreKeyStore(
  module: SecureStoreModule,
  options: SecureStoreKeyStoreOptions = {},
  defaultMarker?: () => InstallMarkerStore | undefined,
): KeyStore {
  if (
    typeof module?.getItemAsync !== "function" ||
    typeof module.setItemAsync !== "function" ||
    typeof module.deleteItemAsync !== "function"
  ) {
    throw new SignetError(
      "KEY_STORAGE_UNAVAILABLE",
      "expo-secure-store is not available: install it and rebuild the app",
    );
  }
  const accessible = options.accessible ?? "whenUnlockedThisDeviceOnly";
  if (
    accessible !== "whenUnlockedThisDeviceOnly" &&
    accessible !== "whenPasscodeSetThisDeviceOnly"
  ) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"accessible" expected "whenUnlockedThisDeviceOnly" or "whenPasscodeSetThisDeviceOnly"`,
    );
  }
  const keychainAccessible =
    accessible === "whenUnlockedThisDeviceOnly"
      ? module.WHEN_UNLOCKED_THIS_DEVICE_ONLY
      : module.WHEN_PASSCODE_SET_THIS_DEVICE_ONLY;
  // Without the constant the library would fall back to its default, WHEN_UNLOCKED (which
  // migrates to other devices): refuse rather than store keys weaker than asked.
  if (typeof keychainAccessible !== "number") {
    throw new SignetError(
      "KEY_STORAGE_UNAVAILABLE",
      "expo-secure-store does not export its keychain accessibility constants",
    );
  }
  // The same options on every call: expo-secure-store keys items by service and, on Android,
  // encrypts authenticated items with a different key.
  const callOptions: SecureStoreCallOptions = {
    keychainAccessible,
    ...(options.keychainService === undefined ? {} : { keychainService: options.keychainService }),
    ...(options.requireAuthentication ? { requireAuthentication: true } : {}),
    ...(options.authenticationPrompt === undefined
      ? {}
      : { authenticationPrompt: options.authenticationPrompt }),
  };
  return createStringKeyStore({
    prefix: options.prefix,
    installMarker: installMarker(options, defaultMarker),
    getItem: (key) => module.getItemAsync(key, callOptions),
    setItem: (key, value) => module.setItemAsync(key, value, callOptions),
    removeItem: (key) => module.deleteItemAsync(key, callOptions),
  });
}

/** The marker an adapter uses: none when turned off, else the one given or the default. */
export function installMarker(
  options: {
    clearAfterReinstall?: boolean | undefined;
    installMarker?: InstallMarkerStore | undefined;
  },
  defaultMarker?: () => InstallMarkerStore | undefined,
): InstallMarkerStore | undefined {
  if (options.clearAfterReinstall === false) return undefined;
  return options.installMarker ?? defaultMarker?.();
}
