// A phone that slept: the app's client (src/signet.ts with src/appState.ts, as src/WalletRoot.tsx
// makes it) checks its held session again when React Native's AppState says "active", so a session
// that expired while the phone slept is dropped on resume, before any call finds it. Signed in over
// real HTTP against the web demo's server (./server.mjs). Replaced: the secure store's native
// storage (in memory), the platform passkey UI, and AppState (React Native's Jest mock; its
// listener is called as the phone would); core's Jest preset keeps the cookies of React Native's
// networking and the iOS preferences in memory.
import type { SignetEvent } from "@signet/core";
import { AppState, type AppStateStatus } from "react-native";
import { reactNativeAppState } from "../src/appState";
import { loadWallet, logIn, sendEmailCode, verifyEmailCode, walletCalls } from "../src/journeys";
import { createWalletClient } from "../src/signet";

jest.mock("expo-secure-store", () => jest.requireActual("./support/nativeStores").secureStore());

// The platform passkey UI: the emulator's software authenticator (./support/platform.ts).
jest.mock("react-native-passkeys", () => jest.requireActual("./support/platform").passkeys());

const secureItems = (): Map<string, string> => jest.requireMock("expo-secure-store").__items;
const sessionKeys = () => [...secureItems().keys()].filter((key) => key.startsWith("signet.k."));

const addListener = AppState.addEventListener as unknown as jest.Mock<
  { remove: jest.Mock },
  [string, (state: AppStateStatus) => void]
>;

/** Lets the client's timers and promises run (real time: the client talks over real HTTP). */
const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => jest.restoreAllMocks());

it("the app's AppState source calls back on each return to active, and stops when asked", () => {
  addListener.mockClear();
  const onActive = jest.fn();
  const stop = reactNativeAppState(onActive);
  expect(addListener).toHaveBeenCalledTimes(1);
  const [type, listener] = addListener.mock.calls[0]!;
  expect(type).toBe("change");
  for (const state of ["inactive", "background", "active", "background", "active"] as const) {
    listener(state);
  }
  expect(onActive).toHaveBeenCalledTimes(2);
  stop();
  expect(addListener.mock.results[0]!.value.remove).toHaveBeenCalledTimes(1);
});

it("a session that expired while the phone slept is dropped when the app comes back", async () => {
  addListener.mockClear();
  const events: SignetEvent[] = [];
  const { demo } = await loadWallet();
  const profile = await logIn({ email: `sleeper-${Date.now()}@example.com`, region: "US" });
  const client = createWalletClient(demo, {
    appState: reactNativeAppState,
    onEvent: (event) => events.push(event),
  });
  try {
    const calls = walletCalls(client, {
      onChallenge: () => {
        throw new Error("no SCA during sign-in");
      },
    });
    const session = await verifyEmailCode(calls, await sendEmailCode(calls, profile), "000000");
    expect(sessionKeys()).toHaveLength(1);
    // The client listens to AppState once it holds a session.
    await settle();
    expect(addListener.mock.calls.map(([type]) => type)).toEqual(["change"]);
    const [, listener] = addListener.mock.calls[0]!;

    // The phone sleeps past the session's end (15 minutes): no timer ran meanwhile.
    const asleepAt = Date.now();
    jest.spyOn(Date, "now").mockImplementation(() => asleepAt + 16 * 60_000);
    listener("background");
    await settle();
    expect(client.sessions.getSnapshot()[profile.accountId]).toHaveLength(1);

    // Unlocked: the app is active again and the expired session goes, key and all.
    listener("active");
    for (let i = 0; i < 20 && sessionKeys().length > 0; i += 1) await settle(50);
    expect(client.sessions.getSnapshot()).toEqual({});
    expect(sessionKeys()).toEqual([]);
    expect(events).toContainEqual({
      type: "session",
      action: "expired",
      accountId: profile.accountId,
      sessionId: session.id,
    });
    // Nothing held: the client stops listening to AppState.
    expect(addListener.mock.results[0]!.value.remove).toHaveBeenCalledTimes(1);
  } finally {
    client.destroy();
  }
});
