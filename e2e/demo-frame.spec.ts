// The demo with the signer frame on (`DEMO_FRAME=1`, @signet/frame), in Chromium: the frame's page
// on a second localhost origin, framable by the demo alone; the client's keys in it. The journeys
// the frame signs today pass through it (sign-in by email code, the wallet screen, a refresh, an
// export confirmed by a tap inside the frame, sign-out), the recovery phrase shows in the frame
// and never in the demo's page, and what the frame does not sign yet fails in words, not a crash.
// The same journeys with the frame off are the other demo specs.
import type { Page, TestInfo } from "@playwright/test";
import { CREDENTIAL_ADD } from "../packages/core/src/actions/addPasskey.js";
import { QUOTE_EXECUTE } from "../packages/core/src/actions/executeQuote.js";
import { ruleFor } from "../packages/frame/src/page/rules.js";
import { checkScreen, expect, openScreen, test, watchConsole } from "./demo/harness.js";

test.use({ demoOptions: { frame: true } });
test.describe.configure({ timeout: 60_000 });

declare global {
  interface Window {
    parentSeen?: string[];
  }
}

/**
 * Records, from before the first script runs, every text and attribute value the demo's own page
 * ever holds (not the frame's: another document), so that a phrase shown for an instant and
 * removed again is caught too.
 */
async function recordParentText(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (window.top !== window) return;
    const seen: string[] = [];
    window.parentSeen = seen;
    const record = (node: Node) => {
      seen.push(node.textContent ?? "");
      if (node instanceof Element)
        for (const element of [node, ...node.querySelectorAll("*")])
          for (const attribute of element.attributes) seen.push(attribute.value);
    };
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        if (mutation.type === "characterData") seen.push(mutation.target.textContent ?? "");
        else if (mutation.type === "attributes" && mutation.target instanceof Element)
          seen.push(mutation.target.getAttribute(mutation.attributeName ?? "") ?? "");
        else for (const node of mutation.addedNodes) record(node);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const frameOf = (page: Page) => page.frameLocator(".signer-frame");

test("the frame's origin: framable by the demo only, trusting the emulator's export signer", async ({
  page,
  demo,
  request,
}) => {
  expect(demo.frameUrl).toBeDefined();
  const frameUrl = demo.frameUrl ?? "";
  expect(new URL(frameUrl).origin).not.toBe(new URL(demo.url).origin);
  const app = await request.get(demo.url);
  expect(app.headers()["content-security-policy"]).toContain(
    `frame-src ${new URL(frameUrl).origin}`,
  );
  const framePage = await request.get(frameUrl);
  expect(framePage.headers()["content-security-policy"]).toContain(`frame-ancestors ${demo.url}`);
  const keys = (await (await request.get(`${demo.emulator?.url}/_emulator/keys`)).json()) as {
    signerPublicKey: string;
  };
  expect(await framePage.text()).toContain(
    `<meta name="signet-trusted-export-signers" content="${keys.signerPublicKey}" />`,
  );
  // Nothing else of the folder or the disk is served from the frame's origin.
  expect((await request.get(`${frameUrl}package.json`)).status()).toBe(404);
  // Framed by the demo, it runs; its navigation carried the demo's origin as the referrer (the
  // demo's page sends none otherwise), for browsers that check the parent by it.
  await page.goto(demo.url);
  await expect(frameOf(page).locator("#signet-frame")).toHaveAttribute("data-state", "ready");
  const framed = page.frames().find((f) => f.url().startsWith(new URL(frameUrl).origin));
  expect(await framed?.evaluate(() => document.referrer)).toBe(`${demo.url}/`);
  // Opened alone, the frame page does nothing.
  await page.goto(`${frameUrl}?parent=${encodeURIComponent(demo.url)}`);
  await expect(page.locator("#signet-frame")).toHaveAttribute("data-state", "unframed");
});

/** The export with the frame on: a tap inside the frame, the words there and never in the page. */
async function exportInFrame(page: Page, testInfo: TestInfo): Promise<void> {
  await expect(
    page.getByRole("button", { name: "Confirm in the signer frame above…" }),
  ).toBeVisible();
  const confirm = frameOf(page).locator("#signet-confirm");
  await expect(confirm).toBeVisible();
  await expect(frameOf(page).locator("dd").first()).toHaveText("Show the recovery phrase");
  await checkScreen(page, testInfo, "14-signer-frame");
  // The frame counts a tap only once its button has been in sight, unobscured, for 600 ms.
  await confirm.scrollIntoViewIfNeeded();
  await page.waitForTimeout(900);
  await confirm.click();
  await expect(page.getByTestId("phrase-in-frame")).toBeVisible();
  await expect(page.getByRole("list", { name: "Recovery phrase" })).toHaveCount(0);
  const words = frameOf(page).locator("#signet-phrase li");
  await expect(words).toHaveCount(12);
  const phrase = (await words.allTextContents()).map((word) => word.trim());

  // Never in the demo's page: not on screen, not in any text or attribute it ever held, not in
  // its storage.
  const parent = await page.evaluate(() => ({
    seen: (window.parentSeen ?? []).join("\n"),
    html: document.documentElement.outerHTML,
    storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
  }));
  const runs = phrase.slice(0, -2).map((_, i) => phrase.slice(i, i + 3).join(" "));
  for (const where of [parent.seen, parent.html, parent.storage])
    for (const run of runs) expect(where).not.toContain(run);
  expect(parent.seen.length).toBeGreaterThan(1000);
  await frameOf(page).locator("#signet-done").click();
  await expect(words).toHaveCount(0);
}

// The same journey both ways: with the frame off (keys in the page, as `npm run demo` runs by
// default) and on.
for (const frame of [false, true])
  test.describe(`the frame ${frame ? "on" : "off"}`, () => {
    test.use({ demoOptions: { frame } });

    test("sign-in by email code, the wallet, a refresh, the export, sign-out", async ({
      page,
      signUpAs,
    }, testInfo) => {
      const problems = watchConsole(page);
      await recordParentText(page);
      await signUpAs(frame ? "frame-on" : "frame-off");
      await expect(page.getByRole("region", { name: "Signer frame" })).toHaveCount(frame ? 1 : 0);
      // The wallet screen: funding is the demo server's, the balance a read.
      await page.getByRole("button", { name: "Add 500.00 test funds" }).click();
      await expect(page.getByTestId("balance")).toHaveText(/^\$?500\.00/);

      await openScreen(page, "Sessions");
      await expect(
        page.getByText(
          frame ? "Keys kept in the signer frame" : "Keys kept in IndexedDB (non-extractable)",
        ),
      ).toBeVisible();
      await page.getByRole("button", { name: "Refresh session" }).click();
      await expect(page.getByText("Session refreshed: a new key, a new expiry.")).toBeVisible();

      await openScreen(page, "Export");
      await page.getByLabel("I am alone and nobody can see my screen").check();
      await page.getByRole("button", { name: "Reveal recovery phrase" }).click();
      if (frame) await exportInFrame(page, testInfo);
      else
        await expect(
          page.getByRole("list", { name: "Recovery phrase" }).getByRole("listitem"),
        ).toHaveCount(12);

      await openScreen(page, "Sessions");
      await page.getByRole("button", { name: "Sign out" }).click();
      await expect(page.getByRole("heading", { name: "Unlock your wallet" })).toBeVisible();
      expect(problems).toEqual([]);
    });
  });

/**
 * Taps the frame's Confirm once it has been in sight, unobscured, long enough to count. The demo
 * itself brings the frame into view when it asks (the adapter's `onConfirm`): nothing scrolls here.
 */
async function tapInFrame(page: Page): Promise<void> {
  const confirm = frameOf(page).locator("#signet-confirm");
  await expect(confirm).toBeVisible();
  await expect(page.locator(".signer-frame")).toBeInViewport({ ratio: 1 });
  await page.waitForTimeout(900);
  await confirm.click();
}

/** The frame's "not yet" in the demo's words: no code, nothing signed, the screen still works. */
async function refusedInWords(page: Page): Promise<void> {
  const refusal = page.locator('[role="alert"][data-code="FRAME_REFUSED"]');
  await expect(refusal).toHaveAttribute("data-reason", "unsupported");
  await expect(refusal).toContainText(
    "The signer frame does not sign this kind of request yet: it signed nothing, and nothing was done.",
  );
  await expect(refusal).not.toContainText("FRAME_REFUSED");
  await expect(frameOf(page).locator("#signet-confirm")).toHaveCount(0);
}

// What the frame does not sign yet. Each case asks the frame's own rule table
// (packages/frame/src/page/rules.ts) whether it signs the route today: until it does, the demo
// says so in words and nothing happens; from the day it does, the same screen asks for the tap
// in the frame and goes through, with no change to the demo.
const signs = (route: { method: string; path: string }) =>
  ruleFor(route.method, route.path) !== undefined;
const framePays = signs(QUOTE_EXECUTE);
const frameAddsCredentials = signs(CREDENTIAL_ADD);

test("a payment and a sign-in method: through the frame where it has their rule, else refused in words with nothing done", async ({
  page,
  signUpAs,
}) => {
  const problems = watchConsole(page);
  await signUpAs("frame-pay");
  await page.getByRole("button", { name: "Add 500.00 test funds" }).click();
  await expect(page.getByTestId("balance")).toHaveText(/^\$?500\.00/);
  await page.getByLabel(/Amount to send/).fill("25.00");
  await page.getByRole("button", { name: "Get quote" }).click();
  await expect(page.getByLabel("Quote")).toContainText(/25\.00/);
  await page.getByRole("button", { name: "Sign and send" }).click();
  if (framePays) {
    await tapInFrame(page);
    await expect(page.getByTestId("tx-status")).toHaveText("Completed", { timeout: 30_000 });
  } else {
    await refusedInWords(page);
    await expect(page.getByTestId("tx-status")).toHaveCount(0);
    await expect(page.getByTestId("balance")).toHaveText(/^\$?500\.00/);
    // The screen still works: another screen opens, and back.
    await openScreen(page, "Activity");
    await openScreen(page, "Send");
  }

  // A sign-in method added with the session's key: the same either way.
  await openScreen(page, "Sign-in methods");
  await page.getByRole("button", { name: "Add Google login (sandbox)" }).click();
  const methods = page.getByRole("list", { name: "Sign-in methods" });
  if (frameAddsCredentials) {
    await tapInFrame(page);
    await expect(page.getByText("Added Google login.")).toBeVisible();
  } else {
    await refusedInWords(page);
    await expect(methods.getByRole("listitem")).toHaveCount(1);
    await expect(methods).not.toContainText("Google login");
  }
  expect(problems).toEqual([]);
});
