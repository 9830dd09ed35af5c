// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
// docs/migrating.md's App Router EU payment, the "after" code: the note shows exactly
// test/migrating/euPayment.tsx, which runs here against the emulator through the relay over real
// HTTP, as is and under Strict Mode: the SCA login first, then the payment's two challenges, with
// no 409 SCA_SESSION_REQUIRED on the way.
import { readFileSync } from "node:fs";
import { executeQuote, getQuote } from "@signet/core";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { StrictMode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "../../../test/support/signIn.js";
import { type Stack, startStack } from "../../../test/support/stack.js";
import { SignetProvider } from "../src/index.js";
import { ConfirmPayment, ScaLoginFirst } from "./migrating/euPayment.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ settlementDelayMs: 50 });
});
afterAll(() => stack?.close());
afterEach(cleanup);

let phones = 0;
async function euPayer(region: string) {
  const phoneNumber = `+3361${String(Date.now() % 1e5).padStart(5, "0")}${String(++phones).padStart(3, "0")}`;
  const user = await stack.signUp(undefined, { region, phoneNumber });
  const { quoteId } = await stack.walletQuote(user, 250_000);
  const { client } = stack.client(user.customerId);
  await signInWithEmail(client, user.emailCredentialId);
  return { client, quoteId };
}

const type = (code: string, button: string) => {
  fireEvent.change(screen.getByRole("textbox"), { target: { value: code } });
  fireEvent.click(screen.getByRole("button", { name: button }));
};

describe("docs/migrating.md: the App Router EU payment after the SCA login step", () => {
  it("the note's code is test/migrating/euPayment.tsx, as it is", () => {
    // Paths from the repository's root, where vitest runs (happy-dom's import.meta.url is no file).
    const doc = readFileSync("docs/migrating.md", "utf8");
    const file = readFileSync("packages/react/test/migrating/euPayment.tsx", "utf8");
    // The file's own header says where it is shown; the note shows the code after it.
    const code = file.replace(/^("use client";\n)(\/\/.*\n)+/, "$1");
    const blocks = [...doc.matchAll(/```tsx\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toContain(code);
  });

  it.each([
    ["", false],
    [" (Strict Mode)", true],
  ])("logs in first, then confirms both steps, with no 409 on the way%s", async (_m, strict) => {
    const { client, quoteId } = await euPayer(strict ? "FR" : "DE");
    const executed = await executeQuote(client, { quote: await getQuote(client, { quoteId }) });
    expect(executed.status).toBe("PENDING_AUTHORIZATION");
    await stack.clearRequests();
    const tree = (
      <SignetProvider client={client}>
        <ScaLoginFirst>
          <ConfirmPayment executed={executed} />
        </ScaLoginFirst>
      </SignetProvider>
    );
    render(strict ? <StrictMode>{tree}</StrictMode> : tree);
    await screen.findByRole("heading", { name: "Confirm it is you" }, { timeout: 10_000 });
    type("123456", "Log in");
    await screen.findByRole("heading", { name: "CURRENCY_CONVERSION" }, { timeout: 10_000 });
    type("123456", "Confirm");
    await screen.findByRole("heading", { name: "PAYOUT" }, { timeout: 10_000 });
    type("123456", "Confirm");
    await screen.findByText(/^Payment /, undefined, { timeout: 10_000 });
    const log = await stack.requests();
    expect(log.filter((r) => r.code === "SCA_SESSION_REQUIRED")).toEqual([]);
    expect(log.filter((r) => r.path.endsWith("/authorize") && r.status === 200)).toHaveLength(2);
  });
});
