// Core's step-up in the demo (createClient's `stepUp`, docs/security.md "Step-up"), in Chromium: the
// page's clock moves past the demo's five minutes after the sign-in, so an export asks "Confirm it
// is you" and goes on once the user has verified again (a code, or a passkey), without signing out.
// A fresh sign-in exports without asking. No waiting: Playwright's clock jumps.
import { expect, type Page, test } from "@playwright/test";
import type { DemoServer } from "../apps/demo/server/server.js";
import {
  addAuthenticator,
  checkScreen,
  freshEmail,
  openScreen,
  signUp,
  startDemo,
  watchConsole,
} from "./demo/harness.js";

/** The demo client's `stepUp.maxAgeMs` (apps/demo/src/StepUp.tsx). */
const STEP_UP_MAX_AGE_MS = 5 * 60_000;

let demo: DemoServer;
test.beforeAll(async () => {
  demo = await startDemo();
});
test.afterAll(async () => {
  await demo?.close();
});

test.describe.configure({ timeout: 90_000 });

const words = (page: Page) =>
  page.getByRole("list", { name: "Recovery phrase" }).getByRole("listitem");

/** Ticks "I am alone", reveals the phrase and sees its twelve words. */
async function reveal(page: Page) {
  await page.getByLabel("I am alone and nobody can see my screen").check();
  await page.getByRole("button", { name: "Reveal recovery phrase" }).click();
  await expect(words(page)).toHaveCount(12);
}

test("a fresh sign-in exports without being asked", async ({ page }) => {
  const problems = watchConsole(page);
  await signUp(page, demo.url, freshEmail("fresh"));
  await openScreen(page, "Export");
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toHaveCount(0);
  await reveal(page);
  expect(problems).toEqual([]);
});

test("a stale sign-in is asked to confirm it is you before the export; a code confirms it, and the user stays signed in", async ({
  page,
}, testInfo) => {
  const problems = watchConsole(page);
  await page.clock.install();
  await signUp(page, demo.url, freshEmail("stale"));
  await page.clock.fastForward(STEP_UP_MAX_AGE_MS + 1_000);
  await openScreen(page, "Export");
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reveal recovery phrase" })).toHaveCount(0);
  await checkScreen(page, testInfo, "step-up-01-confirm");
  // A wrong code is refused and nothing is revealed; the right one confirms it.
  await page.getByRole("button", { name: /^Email a code to/ }).click();
  await page.getByLabel("Code to confirm it is you").fill("111111");
  await expect(page.getByRole("alert").filter({ hasText: "did not confirm it" })).toBeVisible();
  await expect(words(page)).toHaveCount(0);
  await page.getByRole("button", { name: /^Email a code to/ }).click();
  await page.getByLabel("Code to confirm it is you").fill("000000");
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toHaveCount(0);
  await reveal(page);
  // Still signed in: the wallet's navigation stays, and Sessions lists this device's session.
  await openScreen(page, "Sessions");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("while the Export screen is open the sign-in goes stale: the prompt comes by itself, and a passkey confirms it", async ({
  page,
}) => {
  const problems = watchConsole(page);
  await addAuthenticator(page);
  await page.clock.install();
  await signUp(page, demo.url, freshEmail("passkey"));
  await openScreen(page, "Sign-in methods");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByText("Passkey added.")).toBeVisible();
  await openScreen(page, "Export");
  await expect(page.getByRole("button", { name: "Reveal recovery phrase" })).toBeVisible();
  await page.clock.fastForward(STEP_UP_MAX_AGE_MS + 1_000);
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
  await page.getByRole("button", { name: "Confirm with your passkey" }).click();
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toHaveCount(0);
  await reveal(page);
  expect(problems).toEqual([]);
});
