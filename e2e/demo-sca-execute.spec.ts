// An EU payment against a service that refuses the execute itself without the customer's SCA
// login (409 SCA_SESSION_REQUIRED, the emulator's `requireScaSessionAtExecute`): the demo's own
// login first satisfies it; when the login the browser noted has ended on the service's side, the
// execute asks for it (useExecuteQuote's pendingChallenge, the same prompt as the payment's steps)
// and the payment goes on, once. Every prompt shows the payment it confirms.
import type { Page } from "@playwright/test";
import { expect, test, watchConsole } from "./demo/harness.js";

test.use({
  demoOptions: {
    // The wallet session outlives the SCA login here, so the emulator's clock can end the one
    // and keep the other.
    emulator: { requireScaSessionAtExecute: true, sessionTtlMs: 60 * 60_000 },
  },
});

test.describe.configure({ timeout: 120_000 });

const codeField = (page: Page) => page.getByLabel("Code sent by SMS (sandbox: 123456)");

/** The SCA box names the payment it confirms: the amount sent and the payee's account. */
async function expectPaymentBeside(page: Page, amount: RegExp): Promise<void> {
  const shown = page.getByTestId("sca-payment");
  await expect(shown).toContainText(amount);
  await expect(shown).toContainText(/ExternalAccount:/);
}

/** The payment's own two steps (a cross-currency send), each with the payment beside it. */
async function confirmSteps(page: Page, amount: RegExp): Promise<void> {
  await expect(
    page.getByRole("heading", { name: "Step 1: Confirm the currency conversion" }),
  ).toBeVisible();
  await expectPaymentBeside(page, amount);
  await codeField(page).fill("123456");
  await expect(page.getByRole("heading", { name: "Step 2: Confirm the payout" })).toBeVisible();
  await expectPaymentBeside(page, amount);
  await codeField(page).fill("123456");
  await expect(page.getByTestId("tx-status")).toHaveText("Completed", { timeout: 30_000 });
}

test("EU payment where execute needs the SCA login: logged in first, then again at execute once the login ended, each paid once", async ({
  page,
  demo,
  signUpAs,
}) => {
  const problems = watchConsole(page);
  const executes: number[] = [];
  page.on("response", (r) => {
    if (/\/api\/grid\/quotes\/[^/]+\/execute$/.test(new URL(r.url()).pathname))
      executes.push(r.status());
  });
  await signUpAs("eu-exec", "DE");
  await page.getByRole("button", { name: "Add 500.00 test funds" }).click();
  await expect(page.getByTestId("balance")).toHaveText(/^\$?500\.00/);

  // First payment: the demo logs in to SCA before it executes, so execute is taken at once.
  await page.getByLabel(/Amount to send/).fill("25.00");
  await page.getByRole("button", { name: "Get quote" }).click();
  await page.getByRole("button", { name: "Sign and send" }).click();
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
  await expectPaymentBeside(page, /25\.00/);
  await codeField(page).fill("123456");
  await confirmSteps(page, /25\.00/);
  expect(executes).toEqual([200]);
  await expect(page.getByTestId("balance")).toHaveText(/^\$?475\.00/);

  // The service's SCA session ends (16 minutes pass on its clock; the wallet session lasts an
  // hour). This browser still believes in its login, so the next payment goes straight to
  // execute, which the service refuses for want of the login: the execute asks for it.
  const moved = await fetch(`${demo.emulator!.url}/_emulator/clock`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ advanceMs: 16 * 60_000 }),
  });
  expect(moved.status).toBe(200);
  await page.getByRole("button", { name: "Send another payment" }).click();
  await page.getByLabel(/Amount to send/).fill("30.00");
  await page.getByRole("button", { name: "Get quote" }).click();
  await page.getByRole("button", { name: "Sign and send" }).click();
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
  await expectPaymentBeside(page, /30\.00/);
  expect(executes).toEqual([200, 409]);
  await codeField(page).fill("123456");
  await confirmSteps(page, /30\.00/);
  // The refused execute moved nothing; the one after the login moved the money once.
  expect(executes).toEqual([200, 409, 200]);
  await expect(page.getByTestId("balance")).toHaveText(/^\$?445\.00/);
  const log = page.getByRole("list", { name: "HTTP legs, newest first" });
  await expect(log).toContainText(/POST \/api\/grid\/quotes\/Quote:[^ ]+\/execute → 409/);
  await expect(log).not.toContainText("123456");
  expect(problems).toEqual([]);
});
