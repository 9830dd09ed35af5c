/// <reference types="node" />
// Run by Jest after the preset's own setup files, in each test file's runtime (transformed by
// babel-jest like the app's code): Node's fetch back as the global one, with a cookie jar as React
// Native's native networking keeps; stand-ins for the native parts Signet's adapters use, which
// have no JavaScript under Jest: in-memory stores (jest-expo's automatic mock of expo-secure-store
// answers undefined, and React Native's preset has no SettingsManager), and no passkeys.
import { createCookieFetch } from "./index.js";

declare const jest: {
  mock(name: string, factory: () => unknown): void;
  requireActual<T>(name: string): T;
};

const nodeFetch = (globalThis as { __signetNodeFetch?: typeof fetch }).__signetNodeFetch;
if (nodeFetch) globalThis.fetch = createCookieFetch(nodeFetch);

if (installed("expo-secure-store")) {
  jest.mock("expo-secure-store", () => ({
    ...jest.requireActual<object>("expo-secure-store"),
    ...jest.requireActual<typeof import("./index.js")>("./index.js").createMemorySecureStore(),
  }));
}

// No platform authenticator under Jest: passkey calls end in WEBAUTHN_UNSUPPORTED, as on a
// phone without passkeys. A test that signs in with a passkey mocks the module with its own
// authenticator (e.g. @signet/emulator's software one).
if (installed("react-native-passkeys")) {
  jest.mock("react-native-passkeys", () => {
    const none = async () => {
      throw Object.assign(new Error("no platform authenticator under Jest"), {
        code: "ERR_NOT_SUPPORTED",
      });
    };
    return { isSupported: () => false, create: none, get: none };
  });
}

if (installed("react-native/Libraries/Settings/NativeSettingsManager")) {
  jest.mock("react-native/Libraries/Settings/NativeSettingsManager", () => ({
    __esModule: true,
    default: jest
      .requireActual<typeof import("./index.js")>("./index.js")
      .createMemorySettingsManager(),
  }));
}

function installed(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}
