// Stands in for the parts of `react-native` the keychain and secure-store adapters import, in the Metro bundle (see
// ../../metro.ts): an iOS app that is never reinstalled across these runs, so its preferences hold
// the install marker.
export const Platform = { OS: "ios" };

const defaults = new Map<string, unknown>([
  ["signet.installed", "1"],
  ["signet.installed.expo-secure-store", "1"],
]);
export const Settings = {
  get: (key: string): unknown => defaults.get(key),
  set: (values: Record<string, unknown>): void => {
    for (const [key, value] of Object.entries(values)) defaults.set(key, value);
  },
};
