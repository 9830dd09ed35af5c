// The demo shows what the device is about to sign, read from the payload, and never signs a quote
// that no longer matches what the user typed or that has expired.
import { expect, test } from "@playwright/test";
import type { DemoServer } from "../apps/demo/server/server.js";
import { checkScreen, freshEmail, signUp, startDemo, watchConsole } from "./demo/harness.js";

let demo: DemoServer;
test.beforeAll(async () => {
  demo = await startDemo();
});
test.afterAll(async () => {
  await demo?.close();
});

test.describe.configure({ timeout: 90_000 });

test("a quote for 10.00 is discarded when the user types 20.00; the new one shows what will be signed", async ({
  page,
}, testInfo) => {
  const problems = watchConsole(page);
  await signUp(page, demo.url, freshEmail("stale"));
  await page.getByRole("button", { name: "Add 500.00 test funds" }).click();
  await expect(page.getByTestId("balance")).toHaveText(/^\$?500\.00/);
  const amount = page.getByLabel(/Amount to send/);
  await amount.fill("10.00");
  await page.getByRole("button", { name: "Get quote" }).click();
  const signing = page.getByTestId("signing");
  await expect(signing).toContainText("Sign a transfer");
  await expect(page.getByTestId("signing-amount")).toHaveText(/10\.00/);
  await expect(signing).toContainText(/ExternalAccount:/);
  await checkScreen(page, testInfo, "trust-01-what-will-be-signed");

  // Typing another amount takes the old quote off the screen: it can never be signed.
  await amount.fill("20.00");
  await expect(page.getByLabel("Quote")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Sign and send" })).toHaveCount(0);

  await page.getByRole("button", { name: "Get quote" }).click();
  await expect(page.getByTestId("signing-amount")).toHaveText(/20\.00/);
  await page.getByRole("button", { name: "Sign and send" }).click();
  await expect(page.getByTestId("tx-status")).toHaveText("COMPLETED", { timeout: 30_000 });
  await expect(page.getByTestId("balance")).toHaveText(/^\$?480\.00/);
  expect(problems).toEqual([]);
});

test("an expired quote cannot be signed; 'Get a new quote' replaces it", async ({ page }) => {
  await page.clock.install();
  await signUp(page, demo.url, freshEmail("expired"));
  await page.getByRole("button", { name: "Add 500.00 test funds" }).click();
  await expect(page.getByTestId("balance")).toHaveText(/^\$?500\.00/);
  await page.getByLabel(/Amount to send/).fill("5.00");
  await page.getByRole("button", { name: "Get quote" }).click();
  await expect(page.getByTestId("signing-amount")).toHaveText(/5\.00/);
  const first = await page.getByTestId("signing").textContent();

  // Five minutes pass for both the page and the service (the emulator's quotes live five).
  const advanceMs = 5 * 60_000 + 2_000;
  const moved = await fetch(`${demo.emulator!.url}/_emulator/clock`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ advanceMs }),
  });
  expect(moved.status).toBe(200);
  await page.clock.fastForward(advanceMs);

  const quote = page.getByLabel("Quote");
  await expect(quote).toContainText("expired");
  await expect(quote).toContainText("Nothing was signed");
  await expect(page.getByRole("button", { name: "Sign and send" })).toHaveCount(0);
  await page.getByRole("button", { name: "Get a new quote" }).click();
  await expect(page.getByRole("button", { name: "Sign and send" })).toBeEnabled();
  expect(await page.getByTestId("signing").textContent()).not.toBe(first);
  await page.getByRole("button", { name: "Sign and send" }).click();
  await expect(page.getByTestId("tx-status")).toHaveText("COMPLETED", { timeout: 30_000 });
});
