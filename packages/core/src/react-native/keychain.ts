// A KeyStore over react-native-keychain's generic passwords (iOS Keychain; Android Keystore-backed
// encryption), one keychain item per storage key, readable only by this app on this device.
import { SignetError } from "../errors/errors.js";
import type { KeyStore } from "../keys/key-store.js";
import { createStringKeyStore, type InstallMarkerStore } from "../keys/string-store.js";
import { type DeviceOnlyAccessibility, installMarker } from "./secureStore.js";

/** The options object passed to every `react-native-keychain` call. */
export type KeychainCallOptions = {
  service: string;
  accessible?: string;
  cloudSync?: false;
  securityLevel?: string;
};

/** The parts of `react-native-keychain` the adapter calls, as that library documents them. */
export type KeychainModule = {
  readonly ACCESSIBLE: {
    readonly WHEN_UNLOCKED_THIS_DEVICE_ONLY: string;
    readonly WHEN_PASSCODE_SET_THIS_DEVICE_ONLY: string;
  };
  readonly SECURITY_LEVEL?: { readonly SECURE_HARDWARE?: string } | undefined;
  setGenericPassword(
    username: string,
    password: string,
    options?: KeychainCallOptions,
  ): Promise<false | { service: string; storage: string }>;
  getGenericPassword(
    options?: KeychainCallOptions,
  ): Promise<false | { username: string; password: string; service: string; storage: string }>;
  resetGenericPassword(options?: KeychainCallOptions): Promise<boolean>;
};

/** Options of `createKeychainKeyStore`. */
export type KeychainKeyStoreOptions = {
  /**
   * iOS keychain accessibility of every item. Default `"whenUnlockedThisDeviceOnly"`;
   * `"whenPasscodeSetThisDeviceOnly"` is stricter. Weaker classes are not offered.
   */
  accessible?: DeviceOnlyAccessibility | undefined;
  /**
   * Android: refuse to store unless the Keystore key that encrypts the items is in secure
   * hardware (TEE or StrongBox), `SECURITY_LEVEL.SECURE_HARDWARE`. Default false (best available).
   */
  requireSecureHardware?: boolean | undefined;
  /** Prefix of every keychain service name (see `createStringKeyStore`). Default `"signet."`. */
  prefix?: string | undefined;
  /**
   * Clear what an earlier install of the app left in the store, on the first launch after a
   * reinstall (the iOS Keychain keeps an app's items after the app is deleted): its session keys
   * are reported as session `lost` events, then removed. Default true; needs an install marker.
   */
  clearAfterReinstall?: boolean | undefined;
  /**
   * Where the install marker lives: somewhere deleted with the app. Default: on iOS a value in the app's
   * preferences (`NSUserDefaults`, through React Native's `Settings`); on Android none (the
   * items are deleted with the app's data), so pass one there to check anyway.
   */
  installMarker?: InstallMarkerStore | undefined;
};

/** The username of every item: the keychain needs one; the service name is the key. */
const USERNAME = "signet";

/**
 * The key store behind `@signet/core/react-native-keychain`, over the module it is given.
 * @throws {SignetError} `INVALID_ARGUMENT` for an unknown `accessible`; `KEY_STORAGE_UNAVAILABLE`
 * when the module lacks the documented functions or constants.
 */
export function keychainKeyStore(
  module: KeychainModule,
  options: KeychainKeyStoreOptions = {},
  defaultMarker?: () => InstallMarkerStore | undefined,
): KeyStore {
  if (
    typeof module?.getGenericPassword !== "function" ||
    typeof module.setGenericPassword !== "function" ||
    typeof module.resetGenericPassword !== "function"
  ) {
    throw new SignetError(
      "KEY_STORAGE_UNAVAILABLE",
      "react-native-keychain is not available: install it and rebuild the app",
    );
  }
  const accessibleName = options.accessible ?? "whenUnlockedThisDeviceOnly";
  if (
    accessibleName !== "whenUnlockedThisDeviceOnly" &&
    accessibleName !== "whenPasscodeSetThisDeviceOnly"
  ) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"accessible" expected "whenUnlockedThisDeviceOnly" or "whenPasscodeSetThisDeviceOnly"`,
    );
  }
  const accessible =
    accessibleName === "whenUnlockedThisDeviceOnly"
      ? module.ACCESSIBLE?.WHEN_UNLOCKED_THIS_DEVICE_ONLY
      : module.ACCESSIBLE?.WHEN_PASSCODE_SET_THIS_DEVICE_ONLY;
  // Without it the library would use its default, AFTER_FIRST_UNLOCK (readable while locked).
  if (typeof accessible !== "string") {
    throw new SignetError(
      "KEY_STORAGE_UNAVAILABLE",
      "react-native-keychain does not export its ACCESSIBLE constants",
    );
  }
  const securityLevel = options.requireSecureHardware
    ? module.SECURITY_LEVEL?.SECURE_HARDWARE
    : undefined;
  if (options.requireSecureHardware && typeof securityLevel !== "string") {
    throw new SignetError(
      "KEY_STORAGE_UNAVAILABLE",
      "react-native-keychain does not export SECURITY_LEVEL.SECURE_HARDWARE",
    );
  }
  const writeOptions = (service: string): KeychainCallOptions => ({
    service,
    accessible,
    cloudSync: false,
    ...(securityLevel === undefined ? {} : { securityLevel }),
  });
  return createStringKeyStore({
    prefix: options.prefix,
    installMarker: installMarker(options, defaultMarker),
    getItem: async (key) => {
      const found = await module.getGenericPassword({ service: key });
      return found === false || found === null || found === undefined ? null : found.password;
    },
    setItem: async (key, value) => {
      const stored = await module.setGenericPassword(USERNAME, value, writeOptions(key));
      if (stored === false) {
        throw new SignetError("KEY_STORAGE_UNAVAILABLE", "the keychain refused to store the key");
      }
    },
    removeItem: async (key) => {
      await module.resetGenericPassword({ service: key });
    },
  });
}
