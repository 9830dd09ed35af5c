// The app's journeys, driven through its screens with @testing-library/react-native under
// jest-expo, against the web demo's server (relay + emulator) over real HTTP (./server.mjs).
// Replaced: only what has no JavaScript: the secure store's native storage (in memory), the
// platform passkey UI (the emulator's software authenticator answers instead) and the
// screen-capture switch (recorded); core's Jest preset ("@signet/core/jest") gives Node's fetch
// with the cookie store of React Native's native networking, and the iOS preferences in memory.
import { fireEvent, render, screen, waitFor } from "@testing-library/react-native";
import { useState } from "react";
import { SignInScreen } from "../src/SignInScreen";
import { WalletRoot } from "../src/WalletRoot";
import { WalletScreen } from "../src/WalletScreen";

jest.mock("expo-secure-store", () => jest.requireActual("./support/nativeStores").secureStore());

jest.mock("expo-screen-capture", () => {
  const calls: string[] = [];
  return {
    usePreventScreenCapture: (key: string) => {
      calls.push(key);
    },
    __calls: calls,
  };
});

// The platform passkey UI (the emulator's software authenticator) and the cookie store of React
// Native's networking (./support/platform.ts).
jest.mock("react-native-passkeys", () => jest.requireActual("./support/platform").passkeys());

function Journey() {
  const [screenName, setScreen] = useState<"signIn" | "wallet">("signIn");
  return screenName === "signIn" ? (
    <SignInScreen onSignedIn={() => setScreen("wallet")} />
  ) : (
    <WalletScreen onSignedOut={() => setScreen("signIn")} />
  );
}

const secureItems = (): Map<string, string> => jest.requireMock("expo-secure-store").__items;
const captureCalls = (): string[] => jest.requireMock("expo-screen-capture").__calls;

it("an EU customer: email code sign-in, sessions, a passkey, the phrase behind screenshot protection, sign-out, then a passkey sign-in", async () => {
  const email = `ada-${Date.now()}@example.com`;
  render(
    <WalletRoot>
      <Journey />
    </WalletRoot>,
  );
  // The demo's own login, then a wallet session by email code.
  fireEvent.changeText(await screen.findByLabelText("Email"), email);
  fireEvent.changeText(screen.getByLabelText("Region"), "DE");
  fireEvent.press(screen.getByRole("button", { name: "Continue" }));
  fireEvent.press(await screen.findByRole("button", { name: "Email me a code" }));
  fireEvent.changeText(await screen.findByLabelText("Code"), "000000");
  fireEvent.press(screen.getByRole("button", { name: "Verify" }));
  await waitFor(() =>
    expect(screen.getByTestId("this-session")).toHaveTextContent(
      /Signed in on this device until .*; keys in the secure store/,
    ),
  );
  // The session key is in expo-secure-store, under Signet's prefix, and the install is marked.
  const keys = [...secureItems().keys()];
  expect(keys.some((key) => key.startsWith("signet.k."))).toBe(true);
  expect(keys).toContain("signet.installed");
  expect(await screen.findByText(/\(this device\)/)).toBeTruthy();

  // A passkey, made by the (software) authenticator.
  fireEvent.press(screen.getByRole("button", { name: "Add a passkey" }));
  expect(await screen.findByText("Passkey added.")).toBeTruthy();

  // A payment in the wallet currency's units, signed on the device, then strong customer
  // authentication by SMS: the conversion, the bank's login to payments, the payout.
  fireEvent.press(screen.getByRole("button", { name: "Get a quote" }));
  expect(await screen.findByTestId("quote", {}, { timeout: 15_000 })).toHaveTextContent(
    /Quote: 5\.00/,
  );
  fireEvent.press(screen.getByRole("button", { name: "Sign and send" }));
  for (const step of [/CURRENCY_CONVERSION/, /Confirm it is you/, /PAYOUT/]) {
    await waitFor(() => expect(screen.getByTestId("sca-step")).toHaveTextContent(step), {
      timeout: 15_000,
    });
    fireEvent.changeText(screen.getByLabelText("SCA code"), "123456");
    fireEvent.press(screen.getByRole("button", { name: "Confirm" }));
  }
  expect(await screen.findByTestId("payment-done", {}, { timeout: 15_000 })).toHaveTextContent(
    /Payment sent \((PROCESSING|COMPLETED)\)/,
  );
  // Then followed until the transfer settles.
  expect(await screen.findByTestId("payment-settled", {}, { timeout: 15_000 })).toHaveTextContent(
    "Payment settled.",
  );

  // The recovery phrase, shown with screen capture prevented.
  fireEvent.press(screen.getByRole("button", { name: "Reveal recovery phrase" }));
  const phrase = await screen.findByLabelText("Recovery phrase", {}, { timeout: 15_000 });
  expect(String(phrase.props.children).split(" ").length).toBeGreaterThanOrEqual(12);
  expect(captureCalls()).toContain("signet-recovery-phrase");
  fireEvent.press(screen.getByRole("button", { name: "Hide" }));

  // Sign out: the session and its key go.
  fireEvent.press(screen.getByRole("button", { name: "Sign out" }));
  expect(await screen.findByText("Sign in to your wallet")).toBeTruthy();
  expect([...secureItems().keys()].some((key) => key.startsWith("signet.k."))).toBe(false);

  // Back with the passkey.
  fireEvent.changeText(screen.getByLabelText("Email"), email);
  fireEvent.changeText(screen.getByLabelText("Region"), "DE");
  fireEvent.press(screen.getByRole("button", { name: "Continue" }));
  fireEvent.press(await screen.findByRole("button", { name: "Sign in with a passkey" }));
  expect(await screen.findByText(/Signed in on this device until/)).toBeTruthy();
});
