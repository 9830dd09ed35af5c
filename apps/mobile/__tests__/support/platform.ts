// Stand-ins for the platform parts the app's tests need beside its storages (./nativeStores.ts):
// the passkey UI, played by the emulator's software authenticator (core's Jest preset keeps the
// cookies of React Native's native networking). A `jest.mock` factory takes it:
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
