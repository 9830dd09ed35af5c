// The demo's Security screen in Chromium, end to end against its relay and emulator: an EU
// customer adds an authenticator app from the QR code (the code typed is a real RFC 6238 code of
// the key the page shows), keeps the recovery codes, then resets the app after the liveness
// check and can set up a new one.
import { appCode } from "../test/support/totp.js";
import { checkScreen, expect, openScreen, test, watchConsole } from "./demo/harness.js";

test.describe.configure({ timeout: 90_000 });

test("an authenticator app is added from its QR code, then reset after the liveness check", async ({
  page,
  signUpAs,
}, testInfo) => {
  const problems = watchConsole(page);
  await signUpAs("totp", "DE");
  await openScreen(page, "Security");
  const totp = page.getByTestId("totp");
  await totp.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(totp.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const key = ((await totp.locator("code").first().textContent()) ?? "").replace(/\s/g, "");
  expect(key).toMatch(/^[A-Z2-7]{16,}$/);
  await checkScreen(page, testInfo, "security-01-qr");
  // What an authenticator app holding that key shows now.
  await totp.getByLabel("Code from the app").fill(appCode(`otpauth://totp/demo?secret=${key}`));
  await expect(page.getByTestId("recovery-codes")).toContainText("Authenticator app added");
  await expect(page.getByTestId("recovery-codes").locator("li")).not.toHaveCount(0);
  await expect(totp).toContainText("Set up.");

  const reset = page.getByTestId("factor-reset");
  await reset.getByRole("button", { name: "Reset my authenticator app" }).click();
  await expect(reset.getByRole("status")).toContainText("identity confirmed", { timeout: 20_000 });
  await reset.getByRole("button", { name: "Finish the reset" }).click();
  await expect(reset).toContainText("Reset complete");
  // The app is gone: a new one can be set up.
  await expect(totp.getByRole("button", { name: "Set up an authenticator app" })).toBeVisible();
  await checkScreen(page, testInfo, "security-02-reset");
  expect(problems).toEqual([]);
});

test("a trusted payee: after one payment confirmed by SMS, the next one to them needs no code", async ({
  page,
  signUpAs,
}, testInfo) => {
  const problems = watchConsole(page);
  await signUpAs("trust", "DE");
  await page.getByRole("button", { name: "Add 500.00 test funds" }).click();
  await expect(page.getByTestId("balance")).toHaveText(/^\$?500\.00/);
  const sms = page.getByLabel("Code sent by SMS (sandbox: 123456)");
  await page.getByLabel(/Amount to send/).fill("25.00");
  await page.getByRole("button", { name: "Get quote" }).click();
  await page.getByRole("button", { name: "Sign and send" }).click();
  // The SCA login, then the payment's two steps (a cross-currency send).
  for (let i = 0; i < 3; i++) {
    await sms.fill("123456");
    if (i < 2) await expect(sms).toHaveValue("");
  }
  await expect(page.getByTestId("tx-status")).toHaveText("Completed", { timeout: 30_000 });

  const trust = page.getByTestId("trust-payee");
  await trust.getByRole("button", { name: "Trust Demo Payee" }).click();
  await trust.getByLabel("Code sent by SMS", { exact: true }).fill("123456");
  await expect(trust.getByRole("status")).toContainText("Demo Payee is trusted");
  await checkScreen(page, testInfo, "security-03-trusted-payee");

  const authorizations: string[] = [];
  page.on("request", (r) => {
    if (/\/quotes\/[^/]+\/authorize$/.test(new URL(r.url()).pathname)) authorizations.push(r.url());
  });
  await page.getByRole("button", { name: "Send another payment" }).click();
  await page.getByLabel(/Amount to send/).fill("30.00");
  await page.getByRole("button", { name: "Get quote" }).click();
  await page.getByRole("button", { name: "Sign and send" }).click();
  await expect(page.getByTestId("tx-status")).toHaveText("Completed", { timeout: 30_000 });
  await expect(page.getByTestId("balance")).toHaveText(/^\$?445\.00/);
  // No code was asked for this one: the payment went through at execute, with no authorization.
  expect(authorizations).toEqual([]);
  expect(problems).toEqual([]);
});
