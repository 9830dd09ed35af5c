// Passkeys through the signer frame (packages/frame, README "Passkeys") in real Chromium with the
// CDP virtual authenticator, across the app's and the frame's origins on loopback: the passkey is
// created in the frame after the user's tap there, its add is signed after a second tap that shows
// the passkey's name and credential id, and a sign-in with it makes its session key in the frame
// and proves it by a refresh stamped with that key. A passkey the page made with its own WebAuthn
// is refused by the frame before any confirmation, and nothing is stamped without a tap. A card's
// delegated key is confirmed with one tap that shows the card and the key; its second signature
// (the policies) is bound to that key without a second tap.
import { expect, type Page, test } from "@playwright/test";
import { virtualAuthenticator } from "./fixtures/authenticator.js";
import { installHostileInPage, openFrameAppInPage, signInInPage } from "./fixtures/framePage.js";
import {
  pageMadePasskeyInPage,
  revokeDelegatedKeyInPage,
  type Settled,
  settledInPage,
  signInWithPasskeyInPage,
  startAddPasskeyInPage,
  startCreateDelegatedKeyInPage,
} from "./fixtures/framePasskeyPage.js";
import { type FrameServers, startFrameServers } from "./fixtures/frameServer.js";

let servers: FrameServers;
test.beforeAll(async () => {
  servers = await startFrameServers();
});
test.afterAll(async () => {
  await servers?.close();
});

async function openApp(page: Page) {
  await page.goto(servers.app);
  await page.waitForFunction(() => window.appReady === true);
  await page.evaluate(openFrameAppInPage, `${servers.frame}/`);
  await page.evaluate(signInInPage);
  await page.evaluate(installHostileInPage, servers.frame);
}

const stamps = (page: Page) =>
  page.evaluate(
    () =>
      (window.frameTest as never as { hostile: { tally: { stamps: number } } }).hostile.tally
        .stamps,
  );

/** Waits out the frame's visibility delay, then taps its Confirm. */
async function tapConfirm(page: Page) {
  const frame = page.frameLocator("iframe");
  await expect(frame.locator("#signet-confirm")).toBeVisible();
  await page.waitForTimeout(900);
  await frame.locator("#signet-confirm").click();
}

test("a passkey is created in the frame and added after the taps there, then signs in through the frame", async ({
  page,
}) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  await openApp(page);
  const frame = page.frameLocator("iframe");

  // The user cancels the ceremony's confirmation: no passkey is created, nothing is stamped.
  await page.evaluate(startAddPasskeyInPage, "Frame phone");
  await expect(frame.locator("h1")).toHaveText("Create a passkey");
  await expect(frame.locator("dd").nth(1)).toHaveText("localhost");
  // (a look first: Chromium drops a click made the moment the confirmation appears in a frame
  // allowed to create passkeys)
  await page.waitForTimeout(900);
  await frame.locator("#signet-cancel").click();
  expect(await page.evaluate(settledInPage, "added")).toEqual({
    ok: false,
    code: "FRAME_REFUSED",
    reason: "declined",
  });
  expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toEqual([]);

  // Then the user taps: the frame creates the passkey (its tap is the user activation), and the
  // add's confirmation shows the name and the credential id the payload names.
  await page.evaluate(startAddPasskeyInPage, "Frame phone");
  await expect(frame.locator("h1")).toHaveText("Create a passkey");
  await tapConfirm(page);
  await expect(frame.locator("h1")).toHaveText("Add a sign-in method");
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  const shown = await frame.locator("dd").allTextContents();
  expect(shown[0]).toBe("Add a sign-in method");
  expect(shown[2]).toBe("ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2");
  expect(shown[3]).toBe("Frame phone");
  const credentialId = Buffer.from(credentials[0]!.credentialId, "base64").toString("base64url");
  expect(shown[4]).toBe(credentialId);
  expect(await stamps(page)).toBe(0);
  await tapConfirm(page);
  const added = (await page.evaluate(settledInPage, "added")) as Settled<{
    id: string;
    type: string;
    credentialId?: string;
  }>;
  expect(added).toMatchObject({ ok: true, value: { type: "PASSKEY" } });
  if (!added.ok) return;

  // Sign-in with it: the assertion is the page's, the session key is made in the frame and proven
  // by a refresh it stamps (no tap: a sign-in needs none).
  const signedIn = await page.evaluate(signInWithPasskeyInPage, added.value.id);
  expect(signedIn).toMatchObject({ ok: true, value: { credentialId: added.value.id } });
  const { credentials: after } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(after[0]?.signCount).toBeGreaterThan(0);
});

test("a passkey the page made itself is refused by the frame before any confirmation", async ({
  page,
}) => {
  await virtualAuthenticator(page);
  await openApp(page);
  const refused = await page.evaluate(pageMadePasskeyInPage);
  expect(refused).toEqual({ ok: false, code: "FRAME_REFUSED", reason: "passkey" });
  await expect(page.frameLocator("iframe").locator("#signet-confirm")).toHaveCount(0);
  expect(await stamps(page)).toBe(0);
});

/** The emulator's platform API, as the app's backend calls it (Node side, Basic auth). */
async function platform<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${servers.emulator.url}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from("emulator:emulator").toString("base64")}`,
      "content-type": "application/json",
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as T;
}

test("a card's delegated key is created after one tap in the frame that shows the card and the key, and revoked", async ({
  page,
}) => {
  await openApp(page);
  const frame = page.frameLocator("iframe");
  const { customerId, accountId } = await page.evaluate(
    () => (window.frameTest as { ids: { customerId: string; accountId: string } }).ids,
  );
  // Its confirmation has seven rows: the app gives the frame the height to show them with the
  // button unscrolled (a button scrolled into view must be seen again before a tap counts).
  await page.evaluate(() => {
    document.querySelector("iframe")!.style.height = "560px";
  });
  const card = await platform<{ id: string }>("POST", "/cards", {
    cardholderId: customerId,
    fundingSources: [accountId],
    form: "VIRTUAL",
  });

  // The user cancels: nothing is stamped.
  await page.evaluate(startCreateDelegatedKeyInPage, card.id);
  await expect(frame.locator("h1")).toHaveText("Let a card spend from the wallet");
  await page.waitForTimeout(900);
  await frame.locator("#signet-cancel").click();
  expect(await page.evaluate(settledInPage, "delegated")).toEqual({
    ok: false,
    code: "FRAME_REFUSED",
    reason: "declined",
  });
  expect(await stamps(page)).toBe(0);

  // The user taps once: the confirmation names the card and the key the payload holds.
  await page.evaluate(startCreateDelegatedKeyInPage, card.id);
  await expect(frame.locator("h1")).toHaveText("Let a card spend from the wallet");
  const shown = await frame.locator("dd").allTextContents();
  expect(shown[0]).toBe("Let a card spend from the wallet");
  expect(shown[1]).toBe(accountId);
  expect(shown[2]).toBe("ACTIVITY_TYPE_CREATE_USERS_V3");
  expect(shown[3]).toBe(card.id);
  expect(shown[4]).toBe("Card key");
  expect(shown[5]).toMatch(/^0[23][0-9a-f]{64}$/);
  await tapConfirm(page);
  const created = (await page.evaluate(settledInPage, "delegated")) as Settled<{
    id: string;
    publicKey: string;
    status: string;
  }>;
  expect(created).toMatchObject({ ok: true, value: { status: "ACTIVE", publicKey: shown[5] } });
  // Two stamps: the identity after the tap, the policies bound to its key.
  expect(await stamps(page)).toBe(2);
  await expect(frame.locator("#signet-confirm")).toHaveCount(0);
  if (!created.ok) return;
  expect(await page.evaluate(revokeDelegatedKeyInPage, created.value.id)).toBe("REVOKED");
});
