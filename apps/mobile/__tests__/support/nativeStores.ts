// In-memory stand-ins for the two native storages the app's key store uses (expo-secure-store's
// keychain or keystore, and the file in the document directory that marks an install), which have
// no JavaScript to run under Jest. Each test file gets fresh ones from its own `jest.mock` factory:
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

/** expo-file-system's `File` over a Set of paths, exposed as `__files`. */
export function fileSystem() {
  const files = new Set<string>();
  return {
    Paths: { document: "file:///document" },
    File: class {
      private readonly path: string;
      constructor(directory: string, name: string) {
        this.path = `${directory}/${name}`;
      }
      get exists() {
        return files.has(this.path);
      }
      create() {
        files.add(this.path);
      }
    },
    __files: files,
  };
}
