// The app's screens, driven with @testing-library/react-native under jest-expo against the web
// demo's server (relay + emulator) over real HTTP (./server.mjs), as a person would: by the
// names the screens give their controls. Replaced: only what has no JavaScript: the secure
// store's native storage (in memory), the platform passkey UI (the emulator's software
// authenticator answers instead), the screen-capture switch (recorded) and the safe-area insets
// the phone's native side measures (the library's own Jest stand-in: no notch); core's Jest
// preset ("@signet/core/jest") gives Node's fetch with the cookie store of React Native's native
// networking, and the iOS preferences in memory.
import { useSession } from "@signet/react";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react-native";
import { useState } from "react";
import { demoApi } from "../src/demoApi";
import { SignInScreen } from "../src/SignInScreen";
import { useWallet, WalletRoot } from "../src/WalletRoot";
import { WalletScreen } from "../src/WalletScreen";
import { rememberScaSession } from "../src/wallet/scaLogin";

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
jest.mock(
  "react-native-safe-area-context",
  () => jest.requireActual("react-native-safe-area-context/jest/mock").default,
);
jest.mock("react-native-passkeys", () => jest.requireActual("./support/platform").passkeys());

/** What app/index.tsx and app/wallet.tsx do: unlock, skipped while a session is live. */
function Journey() {
  const { profile } = useWallet();
  const { status } = useSession(profile ? { accountId: profile.accountId } : {});
  const [unlocked, setUnlocked] = useState(false);
  if (profile && status === "loading") return null;
  return (unlocked || status === "signedIn") && profile ? (
    <WalletScreen onSignedOut={() => setUnlocked(false)} />
  ) : (
    <SignInScreen onSignedIn={() => setUnlocked(true)} />
  );
}

// Each journey starts signed out of the demo (the cookie jar is shared by the file's tests).
beforeEach(async () => {
  await demoApi.signOut().catch(() => undefined);
});

const secureItems = (): Map<string, string> => jest.requireMock("expo-secure-store").__items;
const captureCalls = (): string[] => jest.requireMock("expo-screen-capture").__calls;
const slow = { timeout: 20_000 };
// A disabled button ignores a press, as a finger's would: wait until it can be pressed.
const press = async (name: string | RegExp) => {
  await screen.findByRole("button", { name }, slow);
  await waitFor(() => expect(screen.getByRole("button", { name })).toBeEnabled(), slow);
  fireEvent.press(screen.getByRole("button", { name }));
};
const tab = async (name: string) => fireEvent.press(await screen.findByRole("tab", { name }, slow));

async function logIn(email: string, region: string) {
  fireEvent.changeText(await screen.findByLabelText("Email", {}, slow), email);
  fireEvent.press(screen.getByRole("radio", { name: region }));
  await press("Continue");
}

/** Email code sign-in, the code pasted with a space (all six digits stay, the sixth sends it). */
async function unlockByEmail() {
  await press(/^Email a code to/);
  fireEvent.changeText(await screen.findByLabelText("Email code", {}, slow), "000 000");
  await screen.findByRole("tab", { name: "Pay" }, slow);
}

async function answerSms(step: RegExp) {
  await waitFor(() => expect(screen.getByTestId("sca-step")).toHaveTextContent(step), slow);
  fireEvent.changeText(screen.getByLabelText("SMS code (sandbox: 123456)"), "123 456");
}

it("a US customer: region picker, a pasted code, the balance, no silent funding, a quote's fees and countdown, a receipt, every screen, Google and 'Not you?'", async () => {
  const email = `us-${Date.now()}@example.com`;
  render(
    <WalletRoot>
      <Journey />
    </WalletRoot>,
  );
  await logIn(email, "United States");
  await unlockByEmail();
  expect([...secureItems().keys()].some((key) => key.startsWith("signet.k."))).toBe(true);
  await waitFor(() => expect(screen.getByTestId("balance")).toHaveTextContent(/0\.00/), slow);

  // A quote funds nothing: over the balance, it says so and cannot be sent.
  await press("Get a quote");
  expect(await screen.findByTestId("over-balance", {}, slow)).toBeTruthy();
  expect(screen.getByRole("button", { name: "Sign and send" })).toBeDisabled();
  expect(screen.getByTestId("balance")).toHaveTextContent(/0\.00/);
  await press("Add 500.00 test funds");
  await waitFor(() => expect(screen.getByTestId("balance")).toHaveTextContent(/500\.00/), slow);
  await press("Get a quote");
  const quote = await screen.findByTestId("quote", {}, slow);
  expect(quote).toHaveTextContent(/Fees \$?0\.00/);
  expect(screen.getByTestId("quote-left")).toHaveTextContent(/Quote valid for (300|29\d) s/);
  expect(screen.getByTestId("signing")).toHaveTextContent(
    /This phone will sign: a transfer of \$?25\.00/,
  );
  await press("Sign and send");
  await waitFor(
    () => expect(screen.getByTestId("payment-settled")).toHaveTextContent("Completed"),
    slow,
  );
  expect(screen.getByTestId("receipt")).toHaveTextContent(/You sent \$?25\.00 USDB to Demo Payee/);

  await tab("Activity");
  const rows = await screen.findAllByTestId("activity-item", {}, slow);
  expect(rows[0]).toHaveTextContent(/Sent to Demo Payee/);
  fireEvent.press(within(rows[0]!).getByRole("button", { name: "Receipt" }));
  expect(await screen.findByTestId("activity-receipt")).toHaveTextContent(
    /Transaction Transaction:/,
  );

  await tab("Receive");
  expect(await screen.findByTestId("qr", {}, slow)).toBeTruthy();
  expect(screen.getByText(/Kind: Spark wallet/)).toBeTruthy();
  expect(screen.queryByText(/SPARK_WALLET|assetType/)).toBeNull();

  await tab("Sessions");
  const session = await screen.findByTestId("session", {}, slow);
  await waitFor(
    () => expect(session).toHaveTextContent(/Signet Wallet on iOS \(this phone\)/),
    slow,
  );
  expect(session).toHaveTextContent(/Signed in today .* with an email code/);

  await tab("Sign-in methods");
  await press("Add Google login (sandbox)");
  await waitFor(() => expect(screen.getAllByTestId("method")).toHaveLength(2), slow);

  await tab("Recovery");
  await press("Reveal recovery phrase");
  const phrase = await screen.findByLabelText("Recovery phrase", {}, slow);
  const words = String(phrase.props.children).split(" ");
  expect(words).toHaveLength(12);
  expect(captureCalls()).toContain("signet-recovery-phrase");
  expect(screen.getByTestId("hide-countdown")).toHaveTextContent(/Hidden again in (60|59|58) s/);
  await press("I wrote it down");
  expect(screen.queryByLabelText("Recovery phrase")).toBeNull();
  for (const field of screen.getAllByLabelText(/^Word \d+$/)) {
    const n = Number(String(field.props.accessibilityLabel).replace(/\D/g, ""));
    fireEvent.changeText(field, words[n - 1]);
  }
  await press("Check");
  expect(await screen.findByText("Your written copy checks out.")).toBeTruthy();

  await tab("Contact");
  const next = `us-moved-${Date.now()}@example.com`;
  fireEvent.changeText(await screen.findByLabelText("New email"), next);
  await press("Send a code");
  fireEvent.changeText(await screen.findByLabelText(`Code sent to ${next}`, {}, slow), "000 000");
  expect(await screen.findByText("Saved and verified.", {}, slow)).toBeTruthy();

  // Signed out: the unlock screen offers Google, and "Not you?" starts over.
  await press("Sign out");
  await press("Continue with Google (sandbox token)");
  await screen.findByRole("tab", { name: "Pay" }, slow);
  await press("Sign out");
  await press("Not you?");
  expect(await screen.findByText("Sign in to your wallet", {}, slow)).toBeTruthy();
});

it("an EU customer: the SCA login first, then each step by SMS; killed mid-payment, the app skips the unlock and resumes it; SMS sign-in; a passkey confirms the next payment in two taps", async () => {
  const email = `eu-${Date.now()}@example.com`;
  const first = render(
    <WalletRoot>
      <Journey />
    </WalletRoot>,
  );
  await logIn(email, "Germany");
  await unlockByEmail();
  await press("Add 500.00 test funds");
  await waitFor(() => expect(screen.getByTestId("balance")).toHaveTextContent(/500\.00/), slow);
  await press("Get a quote");
  await screen.findByTestId("quote", {}, slow);
  await press("Sign and send");
  await answerSms(/^Confirm it is you$/);
  await waitFor(
    () =>
      expect(screen.getByTestId("sca-step")).toHaveTextContent(
        "Step 1: Confirm the currency conversion",
      ),
    slow,
  );
  // The app is killed here, then opened again: the session is live, the payment is found.
  first.unmount();
  render(
    <WalletRoot>
      <Journey />
    </WalletRoot>,
  );
  expect(await screen.findByTestId("resumed", {}, slow)).toHaveTextContent(
    /waits for your confirmation/,
  );
  const confirm = screen.queryByRole("button", { name: "Confirm the payment" });
  if (confirm) fireEvent.press(confirm);
  await answerSms(/^Step 1: Confirm the currency conversion$/);
  await answerSms(/^Step 2: Confirm the payout$/);
  await waitFor(
    () => expect(screen.getByTestId("payment-settled")).toHaveTextContent("Completed"),
    slow,
  );

  // The sign-up phone signs in too.
  await tab("Sign-in methods");
  await press(/^Add SMS code for \+49/);
  await waitFor(() => expect(screen.getAllByTestId("method")).toHaveLength(2), slow);
  await press("Sign out");
  await press(/^Text a code to \+49/);
  fireEvent.changeText(await screen.findByLabelText("SMS code", {}, slow), "000000");
  await screen.findByRole("tab", { name: "Pay" }, slow);

  // A passkey set up for payments confirms each step; the SCA login of the first payment still
  // lasts, so this one asks only its two steps: two taps.
  await press("Set up a passkey for payments");
  await waitFor(() => expect(screen.getByRole("radio", { name: "Passkey" })).toBeChecked(), slow);
  await press("Get a quote");
  await screen.findByTestId("quote", {}, slow);
  await act(async () => fireEvent.press(screen.getByRole("button", { name: "Sign and send" })));
  for (const step of [/^Step 1:/, /^Step 2:/]) {
    await waitFor(() => expect(screen.getByTestId("sca-step")).toHaveTextContent(step), slow);
    fireEvent.press(screen.getByRole("button", { name: "Confirm with your passkey" }));
  }
  await waitFor(
    () => expect(screen.getByTestId("payment-settled")).toHaveTextContent("Completed"),
    slow,
  );
});

it("an EU customer whose SCA login ended on the service's side: the execute asks for it, with the payment beside every prompt, and pays once", async () => {
  // Every execute the app sends, with the service's answer.
  const executes: number[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const response = await realFetch(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (/\/quotes\/[^/]+\/execute$/.test(new URL(url).pathname)) executes.push(response.status);
    return response;
  };
  try {
    render(
      <WalletRoot>
        <Journey />
      </WalletRoot>,
    );
    await logIn(`eu-exec-${Date.now()}@example.com`, "Germany");
    await unlockByEmail();
    await press("Add 500.00 test funds");
    await waitFor(() => expect(screen.getByTestId("balance")).toHaveTextContent(/500\.00/), slow);
    // The app noted an SCA login earlier in this run that the service has since ended (its
    // clock, or a login revoked there): the app goes straight to execute, which the service
    // refuses with 409 SCA_SESSION_REQUIRED, moving nothing.
    const profile = await demoApi.me();
    if (!profile) throw new Error("signed in, yet the demo server knows no profile");
    rememberScaSession(profile.customerId, new Date(Date.now() + 10 * 60_000).toISOString());
    await press("Get a quote");
    await screen.findByTestId("quote", {}, slow);
    await press("Sign and send");
    // The execute's own SCA login, in the same prompt as the payment's steps; each prompt shows
    // the payment it confirms (the quote confirmed), then is answered.
    for (const step of [
      /^Confirm it is you$/,
      /^Step 1: Confirm the currency conversion$/,
      /^Step 2: Confirm the payout$/,
    ]) {
      await waitFor(() => expect(screen.getByTestId("sca-step")).toHaveTextContent(step), slow);
      if (executes.length === 1) expect(executes).toEqual([409]);
      const shown = screen.getByTestId("sca-payment");
      expect(shown).toHaveTextContent(/Amount \$?25\.00/);
      expect(shown).toHaveTextContent(/To ExternalAccount:/);
      fireEvent.changeText(screen.getByLabelText("SMS code (sandbox: 123456)"), "123456");
    }
    await waitFor(
      () => expect(screen.getByTestId("payment-settled")).toHaveTextContent("Completed"),
      slow,
    );
    // The refused execute moved nothing; the one after the login moved the money once.
    expect(executes).toEqual([409, 200]);
    await waitFor(() => expect(screen.getByTestId("balance")).toHaveTextContent(/475\.00/), slow);
  } finally {
    globalThis.fetch = realFetch;
  }
});
