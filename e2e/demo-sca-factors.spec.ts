// The demo's Security screen in Chromium, end to end against its relay and emulator: an EU
// customer adds an authenticator app from the QR code (the code typed is a real RFC 6238 code of
// the key the page shows), keeps the recovery codes, then resets the app after the liveness
// check and can set up a new one.
import { expect, test } from "@playwright/test";
import type { DemoServer } from "../apps/demo/server/server.js";
import { appCode } from "../test/support/totp.js";
import {
  checkScreen,
  freshEmail,
  openScreen,
  signUp,
  startDemo,
  watchConsole,
} from "./demo/harness.js";

let demo: DemoServer;
test.beforeAll(async () => {
  demo = await startDemo();
});
test.afterAll(async () => {
  await demo?.close();
});

test.describe.configure({ timeout: 90_000 });

test("an authenticator app is added from its QR code, then reset after the liveness check", async ({
  page,
}, testInfo) => {
  const problems = watchConsole(page);
  await signUp(page, demo.url, freshEmail("totp"), "DE");
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
