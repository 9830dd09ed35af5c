// An in-memory stand-in for the native storage the app's key store uses (expo-secure-store's
// keychain or keystore), which has no JavaScript to run under Jest (the install marker, in React
// Native's Settings, is core's Jest preset's). Each test file gets a fresh one from its own
// `jest.mock` factory:
//   jest.mock("expo-secure-store", () => jest.requireActual("./support/nativeStores").secureStore());

/** expo-secure-store over a Map, exposed as `__items` for the tests to read. */
export function secureStore() {
  const items = new Map<string, string>();
  return {
    WHEN_UNLOCKED_THIS_DEVICE_ONLY: 6,
    WHEN_PASSCODE_SET_THIS_DEVICE_ONLY: 4,
    getItemAsync: async (key: string) => items.get(key) ?? null,
    setItemAsync: async (key: string, value: string) => {
      items.set(key, value);
    },
    deleteItemAsync: async (key: string) => {
      items.delete(key);
    },
    __items: items,
  };
}
