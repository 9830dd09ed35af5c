// The demo as a wallet people trust: no journey lost on reload, every message true, the phone
// first. It shows what the device is about to sign, read from the payload, and never signs a quote
// that no longer matches what the user typed or that has expired.
import type { Page } from "@playwright/test";
import type { DemoServer } from "../apps/demo/server/server.js";
import {
  checkScreen,
  expect,
  freshEmail,
  openScreen,
  signUp,
  startDemo,
  test,
  watchConsole,
} from "./demo/harness.js";

test.describe.configure({ timeout: 90_000 });

test("a quote for 10.00 is discarded when the user types 20.00; the new one shows what will be signed", async ({
  page,
  signUpAs,
}, testInfo) => {
  const problems = watchConsole(page);
  await signUpAs("stale");
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
  await expect(page.getByTestId("tx-status")).toHaveText("Completed", { timeout: 30_000 });
  await expect(page.getByTestId("balance")).toHaveText(/^\$?480\.00/);
  expect(problems).toEqual([]);
});

test("an expired quote cannot be signed; 'Get a new quote' replaces it", async ({ page }) => {
  // A server of its own: its emulator's clock moves five minutes, which would leave the shared
  // one's ahead of the other tests' real time (their OAuth tokens would look stale).
  const own = await startDemo();
  try {
    await expiredQuote(page, own);
  } finally {
    await own.close();
  }
});

async function expiredQuote(page: Page, demo: DemoServer) {
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
  await expect(page.getByTestId("tx-status")).toHaveText("Completed", { timeout: 30_000 });
}

async function funded(page: Page, demo: DemoServer, region = "US", tag = "trust") {
  await signUp(page, demo.url, freshEmail(tag), region);
  await page.getByRole("button", { name: "Add 500.00 test funds" }).click();
  await expect(page.getByTestId("balance")).toHaveText(/^\$?500\.00/);
}

test("a US payment reloaded mid-way is found again and followed to COMPLETED; Activity lists it", async ({
  page,
  demo,
}) => {
  await funded(page, demo, "US", "reload-us");
  await page.getByLabel(/Amount to send/).fill("30.00");
  await page.getByRole("button", { name: "Get quote" }).click();
  await page.getByRole("button", { name: "Sign and send" }).click();
  await expect(page.getByText("Settling with the bank…")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("resumed")).toContainText("$30.00");
  await expect(page.getByTestId("tx-status")).toHaveText("Completed", { timeout: 30_000 });
  await expect(page.getByTestId("balance")).toHaveText(/^\$?470\.00/);
  // Nothing is kept once it ended: another reload starts clean.
  await page.reload();
  await expect(page.getByTestId("balance")).toHaveText(/^\$?470\.00/);
  await expect(page.getByTestId("resumed")).toHaveCount(0);
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain("Quote:");
  await openScreen(page, "Activity");
  const items = page.getByTestId("activity-item");
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText("Sent to Demo Payee");
  await expect(items.first()).toContainText("Completed");
  // Its receipt opens from the row.
  await items
    .first()
    .getByRole("button", { name: /^Receipt/ })
    .click();
  await expect(items.first().getByTestId("receipt")).toContainText("Demo Payee");
  await expect(items.first()).toContainText("30.00");
});

test("phone: an EU payment reloaded at SCA step 1 resumes there, the code box in view and focused", async ({
  browser,
  demo,
}, testInfo) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await funded(page, demo, "DE", "reload-sca");
  await page.getByRole("button", { name: "Get quote" }).click();
  await page.getByRole("button", { name: "Sign and send" }).click();
  const code = page.getByLabel("Code sent by SMS (sandbox: 123456)");
  // The bank's login to payments first; it lasts, so the reload does not ask for it again.
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
  await code.fill("123456");
  const step1 = page.getByRole("heading", { name: "Step 1: Confirm the currency conversion" });
  await expect(step1).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("resumed")).toContainText("waits for your confirmation");
  await expect(step1).toBeVisible();
  await expect(code).toBeFocused();
  await expect(code).toBeInViewport();
  await checkScreen(page, testInfo, "trust-02-resumed-sca");
  await code.fill("123456");
  await expect(page.getByRole("heading", { name: "Step 2: Confirm the payout" })).toBeVisible();
  await code.fill("123456");
  await expect(page.getByTestId("tx-status")).toHaveText("Completed", { timeout: 30_000 });
  // Done: nothing says it waits any more.
  await expect(page.getByTestId("resumed")).toHaveCount(0);
  await context.close();
});

test("a quote above the balance cannot be signed; a failed execute keeps 'signed' true to what happened", async ({
  page,
  demo,
}) => {
  await funded(page, demo, "US", "over");
  await page.getByLabel(/Amount to send/).fill("999999");
  await page.getByRole("button", { name: "Get quote" }).click();
  await expect(page.getByTestId("over-balance")).toContainText("More than the wallet holds");
  await expect(page.getByRole("button", { name: "Sign and send" })).toBeDisabled();
  // The quote is the step that failed; nothing after it started.
  const progress = page.getByRole("list", { name: "Payment progress" });
  await expect(progress.locator(".step-failed")).toHaveCount(1);
  await expect(progress.locator(".step-failed")).toContainText("Quote");
});

test("decimal commas: 12,50 is 12.50", async ({ page, demo }) => {
  await funded(page, demo, "US", "comma");
  await page.getByLabel(/Amount to send/).fill("12,50");
  await page.getByRole("button", { name: "Get quote" }).click();
  await expect(page.getByTestId("signing-amount")).toHaveText(/12\.50/);
  await expect(page.getByRole("button", { name: "Sign and send" })).toBeEnabled();
  await page.getByLabel(/Amount to send/).fill("12,5x");
  await page.getByRole("button", { name: "Get quote" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Could not prepare" })).toContainText(
    "is not an amount",
  );
});

for (const [label, viewport] of [
  ["desktop 1280×800", { width: 1280, height: 800 }],
  ["phone 390×844", { width: 390, height: 844 }],
] as const)
  test(`${label}: the page never scrolls past its content, however long the event log`, async ({
    browser,
    demo,
  }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await funded(page, demo, "US", "scroll");
    // Many log lines: each screen visit adds some.
    for (let i = 0; i < 6; i++) {
      await openScreen(page, "Sessions");
      await openScreen(page, "Send money");
    }
    const { scroll, content } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollHeight,
      content: Math.ceil(
        (document.querySelector(".app") as HTMLElement).getBoundingClientRect().height,
      ),
    }));
    expect(scroll).toBeLessThanOrEqual(Math.max(content, viewport.height) + 1);
    if (viewport.width < 500) {
      // The header keeps the email whole (cut with an ellipsis, never broken mid-word).
      const who = page.locator(".who");
      expect(await who.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe("nowrap");
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    }
    await context.close();
  });

test("SMS: no phone, no 'Add SMS code'; a phone verified by code, then SMS unlocks the wallet", async ({
  page,
  signUpAs,
}) => {
  await signUpAs("sms");
  await openScreen(page, "Sign-in methods");
  await expect(page.getByRole("button", { name: "Add SMS code" })).toBeDisabled();
  await expect(page.getByText("SMS code needs a phone number")).toBeVisible();
  await openScreen(page, "Contact");
  await page.getByRole("radio", { name: "Phone" }).check();
  await page.getByLabel(/New phone number/).fill("+14155550123");
  await page.getByRole("button", { name: "Send a code" }).click();
  await page.getByLabel("Code sent to +14155550123").fill("000000");
  await expect(page.getByText("Saved and verified.")).toBeVisible();
  await openScreen(page, "Sign-in methods");
  await page.getByRole("button", { name: "Add SMS code" }).click();
  await expect(page.getByText("Added SMS code")).toBeVisible();
  // One note at a time.
  await expect(page.locator(".note-ok")).toHaveCount(1);
  await openScreen(page, "Sessions");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("button", { name: /^Text a code to/ }).click();
  await page.getByLabel("Code from the SMS").fill("000000");
  await expect(page.getByRole("navigation", { name: "Wallet" })).toBeVisible();
});

test("five wrong codes: the advice is a new code, which is confirmed and then works", async ({
  page,
  demo,
}) => {
  await page.goto(demo.url);
  await page.getByLabel("Email").fill(freshEmail("locked"));
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: /Email a code/ }).click();
  const field = page.getByLabel("6-digit code");
  const alert = page.getByRole("alert").filter({ hasText: "That code did not work" });
  for (const wrong of ["111111", "222222", "333333", "444444", "555555", "666666"]) {
    await field.fill(wrong);
    await expect(alert).toBeVisible();
  }
  await field.fill("000000");
  await expect(alert).toContainText("Send a new code");
  await expect(alert).not.toContainText("Wait a minute");
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expect(page.getByText(/A new code was sent to/)).toBeVisible();
  await page.getByLabel("6-digit code").fill("000000");
  await expect(page.getByRole("navigation", { name: "Wallet" })).toBeVisible();
});

test("a demo server that forgot the browser says so once, instead of retrying", async ({
  page,
  demo,
  signUpAs,
}) => {
  // The calls the wallet screens make as they open (the device's name, the balance, then the
  // activity) have all been answered before the server forgets: otherwise one of them would learn
  // it first and take the wallet's navigation away under the click below.
  const inFlight = new Set<unknown>();
  const answered = new Set<string>();
  page.on("request", (r) => {
    if (r.url().includes("/api/")) inFlight.add(r);
  });
  const done = (r: { url(): string }) => {
    inFlight.delete(r);
    answered.add(new URL(r.url()).pathname);
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  await signUpAs("forgot");
  await expect
    .poll(() => ["/api/demo/devices", "/api/grid/transactions"].every((p) => answered.has(p)))
    .toBe(true);
  await expect.poll(() => inFlight.size).toBe(0);
  const relay401: string[] = [];
  page.on("response", (r) => {
    if (r.url().includes("/api/grid/") && r.status() === 401) relay401.push(r.url());
  });
  // What a restart does: the server's session record is gone (here: ended behind the page).
  await page.request.post(`${demo.url}/api/demo/signout`, { data: {} });
  // The next relay call (the session list) gets 401: the page asks the demo server once, learns
  // it is forgotten, and says so instead of retrying.
  await page.getByRole("link", { name: "Sessions" }).click();
  await expect(page.getByText("You are signed out of the demo.")).toBeVisible();
  await page.waitForTimeout(3_000);
  expect(relay401.length).toBeLessThanOrEqual(3);
  await expect(page.getByLabel("Email")).toBeVisible();
});

test("a demo server that forgets the browser while the wallet screens open says so too", async ({
  page,
  demo,
  signUpAs,
}) => {
  // The activity's first fetch waits until the server has forgotten the browser: the page learns
  // it from that call, not from a click, and says so once.
  let forgot: () => void = () => undefined;
  const forgotten = new Promise<void>((resolve) => {
    forgot = resolve;
  });
  await page.route("**/api/grid/transactions*", async (route) => {
    await forgotten;
    await route.continue();
  });
  const relay401: string[] = [];
  page.on("response", (r) => {
    if (r.url().includes("/api/grid/") && r.status() === 401) relay401.push(r.url());
  });
  await signUpAs("forgot-early");
  await page.request.post(`${demo.url}/api/demo/signout`, { data: {} });
  forgot();
  await expect(page.getByText("You are signed out of the demo.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Wallet" })).toHaveCount(0);
  await page.waitForTimeout(3_000);
  expect(relay401.length).toBeLessThanOrEqual(3);
  await expect(page.getByLabel("Email")).toBeVisible();
});

test("a second tab's change shows in the first without a reload", async ({
  page,
  context,
  demo,
  signUpAs,
}) => {
  await signUpAs("fresh");
  await openScreen(page, "Sign-in methods");
  const list = page.getByRole("list", { name: "Sign-in methods" }).getByRole("listitem");
  await expect(list).toHaveCount(1);
  const second = await context.newPage();
  await second.goto(`${demo.url}/#credentials`);
  await second.getByRole("button", { name: "Add Google login (sandbox)" }).click();
  await expect(second.getByText("Added Google login.")).toBeVisible();
  await expect(list).toHaveCount(2);
  await expect(list.nth(1).or(list.nth(0)).filter({ hasText: "Google login" })).toHaveCount(1);
});
