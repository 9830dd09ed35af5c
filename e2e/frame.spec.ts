// The signer frame (packages/frame) in real Chromium, across three origins on loopback: the app,
// the frame, and a third page. The flows pass through the frame (sign-in by email code against
// the emulator, a session-signed refresh, an export whose phrase shows in the frame only); then a
// hostile script in the app's page tries every way it has to get a stamp or the phrase without the
// user's tap inside the frame, and each attempt is counted: 0 stamps, 0 phrases.
import { expect, type Page, test } from "@playwright/test";
import {
  exportResultInPage,
  hostileAttacksExpected,
  hostileAttacksInPage,
  hostileTallyInPage,
  openFrameAppInPage,
  overlayInPage,
  parentReadsInPage,
  refreshInPage,
  signInInPage,
  signOutInPage,
  startExportInPage,
  thirdPageInPage,
} from "./fixtures/framePage.js";
import { type FrameServers, startFrameServers } from "./fixtures/frameServer.js";

let servers: FrameServers;
test.beforeAll(async () => {
  servers = await startFrameServers();
});
test.afterAll(async () => {
  await servers?.close();
});

/** Opens the app, signs a customer up and makes a client whose keys live in the frame. */
async function openApp(page: Page) {
  await page.goto(servers.app);
  await page.waitForFunction(() => window.appReady === true);
  await page.evaluate(openFrameAppInPage, `${servers.frame}/`);
}

test("sign-in, a session-signed refresh, an export and sign-out pass through the frame", async ({
  page,
}) => {
  await openApp(page);
  const first = await page.evaluate(signInInPage);
  expect(first.sessionId).toMatch(/^Session:/);
  const refreshed = await page.evaluate(refreshInPage);
  expect(refreshed).not.toBe(first.sessionId);

  // The export waits for the tap inside the frame; the page gets `{ shownIn: "frame" }`.
  await page.evaluate(startExportInPage);
  const frame = page.frameLocator("iframe");
  await expect(frame.locator("#signet-confirm")).toBeVisible();
  await expect(frame.locator("dd").first()).toHaveText("exportWallet");
  await page.waitForTimeout(900);
  await frame.locator("#signet-confirm").click();
  const result = await page.evaluate(exportResultInPage);
  expect(result).toEqual({ shownIn: "frame" });
  await expect(frame.locator("#signet-phrase li")).toHaveCount(12);
  // The app's page cannot read the frame, and its own origin holds no key.
  const reads = await page.evaluate(parentReadsInPage);
  expect(reads.contentDocument).toBe(true);
  expect(reads.documentRead).toBe("SecurityError");
  expect(reads.databases).not.toContain("signet-frame");

  // Sign-out revokes through the frame, and the frame's store forgets the sessions' keys.
  expect(await page.evaluate(signOutInPage)).toEqual([]);
});

test("a hostile page gets no stamp and no phrase without the tap in the frame", async ({
  page,
  context,
}) => {
  await openApp(page);
  await page.evaluate(signInInPage);
  const frame = page.frameLocator("iframe");

  // The hostile script's raw access to the frame (e2e/fixtures/framePage.ts, shared with the
  // Firefox and WebKit suite): each forged, replayed or racing request is refused.
  const outcome = await page.evaluate(hostileAttacksInPage, servers.frame);
  expect(outcome).toEqual(hostileAttacksExpected);

  // Clickjacking: the page makes the frame nearly transparent under its own bait, then a real
  // click lands on the frame's button. The frame sees it obscured and refuses it.
  await expect(frame.locator("#signet-confirm")).toBeVisible();
  await page.evaluate(overlayInPage, { opacity: "0.05", bait: true });
  await page.waitForTimeout(900);
  await frame.locator("#signet-confirm").click({ force: true });
  await expect(frame.locator(".note")).toContainText("covered");
  // Opaque again but covered by a pointer-events:none overlay: still refused.
  await page.evaluate(overlayInPage, { opacity: "1", bait: true });
  await page.waitForTimeout(900);
  await frame.locator("#signet-confirm").click({ force: true });

  // A third origin: it frames the signer page under its own name (CSP frame-ancestors stops it)
  // and posts to the app's frame through a window it opened; nothing answers it.
  const third = await context.newPage();
  await third.goto(servers.third);
  const thirdTally = await third.evaluate(thirdPageInPage, {
    frameUrl: `${servers.frame}/`,
    appUrl: servers.app,
  });
  expect(thirdTally).toBe(0);
  // Opened alone, the frame page refuses to run.
  await third.goto(`${servers.frame}/?parent=${encodeURIComponent(servers.app)}`);
  await expect(third.locator("#signet-frame")).toHaveAttribute("data-state", "unframed");
  await third.close();

  // The user declines; nothing was signed, and no phrase crossed.
  await page.evaluate(overlayInPage, { opacity: "1", bait: false });
  await frame.locator("#signet-cancel").click();
  const tally = await page.evaluate(hostileTallyInPage);
  expect(tally).toEqual({ stamps: 0, phrases: 0, waited: "declined" });
});
