// Install markers: somewhere the operating system deletes together with the app, unlike the iOS
// Keychain. A missing marker is the first launch after an install (see keys/string-store.ts).
import type { InstallMarkerStore } from "../keys/string-store.js";

/** The parts of `expo-file-system` (SDK 54 and later: `File`, `Paths`) the marker uses. */
export type ExpoFileSystemModule = {
  readonly Paths: { readonly document: unknown };
  readonly File: new (
    directory: unknown,
    name: string,
  ) => { readonly exists: boolean; create(options?: { overwrite?: boolean }): void };
};

/** The parts of React Native's `Settings` (iOS `NSUserDefaults`) the marker uses. */
export type SettingsModule = {
  get(key: string): unknown;
  set(settings: Record<string, unknown>): void;
};

/** The default marker file's name, in the app's document directory. */
export const MARKER_NAME = "signet-installed";

/**
 * An install marker as an empty file in the app's document directory (deleted with the app on
 * iOS and Android), over `expo-file-system`'s `File` and `Paths`.
 */
export function documentDirectoryMarker(
  fileSystem: ExpoFileSystemModule,
  name: string = MARKER_NAME,
): InstallMarkerStore {
  const file = () => new fileSystem.File(fileSystem.Paths.document, name);
  return {
    exists: () => file().exists,
    create: () => {
      const marker = file();
      if (!marker.exists) marker.create();
    },
  };
}

/**
 * An install marker as a value in the app's preferences (iOS `NSUserDefaults` through React
 * Native's `Settings`; deleted with the app).
 */
export function settingsMarker(
  settings: SettingsModule,
  key: string = "signet.installed",
): InstallMarkerStore {
  return {
    exists: () => settings.get(key) !== undefined && settings.get(key) !== null,
    create: () => settings.set({ [key]: "1" }),
  };
}
