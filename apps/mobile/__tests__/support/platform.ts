// Stand-ins for the platform parts the app's tests need beside its storages (./nativeStores.ts):
// the passkey UI, played by the emulator's software authenticator, and the cookie store of React
// Native's native networking. A `jest.mock` factory takes the first:
//   jest.mock("react-native-passkeys", () => jest.requireActual("./support/platform").passkeys());

/** react-native-passkeys over the emulator's software authenticator for the test server's origin. */
export function passkeys() {
  const { createSoftAuthenticator } = jest.requireActual("@signet/emulator/testing");
  const authenticator = createSoftAuthenticator({
    rpId: "localhost",
    origin: process.env.SIGNET_TEST_ORIGIN,
  });
  return {
    isSupported: () => true,
    create: (request: object) => authenticator.createCredential(request),
    get: (request: object) => authenticator.getAssertion(request),
  };
}

/**
 * React Native's networking keeps the demo's sign-in cookie like a browser; Node's fetch (kept
 * aside by ../environment.js as `__nodeFetch`) does not. Installs a `fetch` that does.
 */
export function keepCookies(): void {
  const realFetch = (globalThis as unknown as { __nodeFetch: typeof fetch }).__nodeFetch;
  let cookie: string | undefined;
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookie) headers.set("cookie", cookie);
    const response = await realFetch(input, { ...init, headers });
    const set = response.headers.getSetCookie?.()[0];
    if (set) cookie = set.split(";")[0];
    return response;
  }) as typeof fetch;
}
