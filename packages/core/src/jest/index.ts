/**
 * `@signet/core/jest`: what a React Native app's own Jest tests use beside the preset
 * (`"preset": "@signet/core/jest"`, see the README's "Testing with jest-expo"): a `fetch` that
 * keeps cookies as React Native's native networking does, and an in-memory `expo-secure-store`.
 * Test code only: nothing here is imported by the app, and nothing in the app's bundle imports it.
 *
 * @module @signet/core/jest
 */

/** The packages an app's Jest must transform: Signet and the ES-module-only libraries it uses. */
export const SIGNET_PACKAGES: readonly string[] = [
  "@signet",
  "@noble",
  "@hpke",
  "@simplewebauthn",
  "idb-keyval",
];

/**
 * A `fetch` that keeps the cookies servers set, per host, and sends them back, as React Native's
 * native networking (and a browser) does: a backend's sign-in cookie then reaches its relay.
 * Kept: `name=value` pairs by host; a cookie set with `Max-Age=0` or a past `Expires` is removed.
 * Not modelled: `Domain`, `Path` and `Secure` scoping (a test talks to one local server).
 *
 * @param fetchImpl - The `fetch` to wrap. Default: the current `globalThis.fetch`, which the
 * preset makes Node's own before each test file.
 * @returns A `fetch` with its own cookie jar; create one per simulated device.
 * @example
 * ```ts
 * import { createCookieFetch } from "@signet/core/jest";
 * globalThis.fetch = createCookieFetch();
 * ```
 */
export function createCookieFetch(fetchImpl: typeof fetch = globalThis.fetch): typeof fetch {
  const jar = new Map<string, Map<string, string>>();
  return async (input, init = {}) => {
    const url = new URL(typeof input === "object" && "url" in input ? input.url : String(input));
    const cookies = jar.get(url.host);
    const headers = new Headers(init.headers);
    if (cookies && cookies.size > 0 && !headers.has("cookie")) {
      headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    const response = await fetchImpl(input, { ...init, headers });
    for (const line of setCookies(response.headers)) keep(jar, url.host, line);
    return response;
  };
}

function setCookies(headers: Headers): string[] {
  const all = (headers as Headers & { getSetCookie?: () => string[] }).getSetCookie?.();
  if (all) return all;
  const one = headers.get("set-cookie");
  return one ? [one] : [];
}

function keep(jar: Map<string, Map<string, string>>, host: string, line: string): void {
  const [pair = "", ...attributes] = line.split(";");
  const equals = pair.indexOf("=");
  if (equals <= 0) return;
  const name = pair.slice(0, equals).trim();
  const value = pair.slice(equals + 1).trim();
  const cookies = jar.get(host) ?? new Map<string, string>();
  jar.set(host, cookies);
  const expired = attributes.some((attribute) => {
    const [key = "", raw = ""] = attribute.split("=").map((part) => part.trim());
    if (key.toLowerCase() === "max-age") return Number(raw) <= 0;
    if (key.toLowerCase() === "expires") return Date.parse(raw) <= Date.now();
    return false;
  });
  if (expired) cookies.delete(name);
  else cookies.set(name, value);
}

/** The calls of `expo-secure-store` that {@link createMemorySecureStore} keeps in memory. */
export type MemorySecureStore = {
  getItemAsync(key: string, options?: { keychainService?: string }): Promise<string | null>;
  setItemAsync(key: string, value: string, options?: { keychainService?: string }): Promise<void>;
  deleteItemAsync(key: string, options?: { keychainService?: string }): Promise<void>;
  getItem(key: string, options?: { keychainService?: string }): string | null;
  setItem(key: string, value: string, options?: { keychainService?: string }): void;
  isAvailableAsync(): Promise<boolean>;
  /** Every item, by `keychainService` and key: what a test reads to check what was stored. */
  readonly items: Map<string, string>;
};

/**
 * `expo-secure-store`'s item calls over a `Map`, for tests: the native keychain and keystore
 * have no JavaScript to run under Jest, and jest-expo's automatic mock answers `undefined`. The
 * preset installs one per test file when the app has `expo-secure-store`; spread it over the real
 * module's constants in your own `jest.mock` to start one afresh.
 *
 * @returns The item calls, items kept apart by `keychainService` as the native store does.
 * @example
 * ```ts
 * jest.mock("expo-secure-store", () => ({
 *   ...jest.requireActual("expo-secure-store"),
 *   ...jest.requireActual("@signet/core/jest").createMemorySecureStore(),
 * }));
 * ```
 */
export function createMemorySecureStore(): MemorySecureStore {
  const items = new Map<string, string>();
  const at = (key: string, options?: { keychainService?: string }) =>
    `${options?.keychainService ?? ""}\u0000${key}`;
  return {
    getItemAsync: async (key, options) => items.get(at(key, options)) ?? null,
    setItemAsync: async (key, value, options) => {
      items.set(at(key, options), value);
    },
    deleteItemAsync: async (key, options) => {
      items.delete(at(key, options));
    },
    getItem: (key, options) => items.get(at(key, options)) ?? null,
    setItem: (key, value, options) => {
      items.set(at(key, options), value);
    },
    isAvailableAsync: async () => true,
    items,
  };
}

/**
 * React Native's `SettingsManager` (iOS `NSUserDefaults`, behind `Settings`) over a `Map`: React
 * Native's own Jest preset has no stand-in for it, and the key-store adapters keep their install
 * marker there. The preset installs one per test file.
 *
 * @returns The native module's calls, and its values as `values`.
 */
export function createMemorySettingsManager(): {
  getConstants(): { settings: Record<string, unknown> };
  setValues(values: Record<string, unknown>): void;
  deleteValues(keys: string[]): void;
  readonly values: Record<string, unknown>;
} {
  const values: Record<string, unknown> = {};
  return {
    getConstants: () => ({ settings: { ...values } }),
    setValues: (next) => {
      Object.assign(values, next);
    },
    deleteValues: (keys) => {
      for (const key of keys) delete values[key];
    },
    values,
  };
}
