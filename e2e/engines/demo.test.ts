// The demo app in Firefox and WebKit, as `npm run demo` serves it (built app, relay, demo
// endpoints, emulator in process, on http://localhost:<free port>): email OTP sign-up, a payment
// signed on the device and settled to COMPLETED, the recovery phrase exported; passkeys where the
// engine's automation offers a virtual authenticator (e2e/demo.spec.ts does all of it in Chromium).
// And the demo with the signer frame on (`DEMO_FRAME=1`), as e2e/demo-frame.spec.ts runs it in
// Chromium: the keys in the frame's origin, the export confirmed by a trusted tap in the signer's
// confirmation window (these engines' answer to clickjacking), the phrase in the frame only.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type DemoServer, startDemoServer } from "../../apps/demo/server/server.js";
import {
  ENGINES,
  type Engine,
  type EnginePage,
  launchEngine,
  waitUntil,
  xpathLiteral,
} from "./engines.js";
import { answerInWindow, frameShows, pause, pointOf, SEEN_MS } from "./signerFrame.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

let demo: DemoServer;
// The same demo with the signer frame on: its page on a second localhost origin.
let framed: DemoServer;
beforeAll(async () => {
  const appDir = join(root, "apps/demo/dist/app");
  [demo, framed] = await Promise.all([
    startDemoServer({ appDir, port: 0, settlementDelayMs: 1_500 }),
    startDemoServer({ appDir, port: 0, frame: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([demo?.close(), framed?.close()]);
});

const freshEmail = (tag: string) =>
  `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

// XPath locators for what the Chromium suite finds by role and label.
const button = (name: string) => `//button[starts-with(normalize-space(.), ${xpathLiteral(name)})]`;
const field = (label: string) =>
  `//*[@id=//label[starts-with(normalize-space(.), ${xpathLiteral(label)})]/@for]`;
const heading = (name: string) => `//h1[normalize-space(.)=${xpathLiteral(name)}]`;
const nav = "//nav[@aria-label='Wallet']";
const navLink = (name: string) => `${nav}//a[normalize-space(.)=${xpathLiteral(name)}]`;
const testId = (id: string) => `//*[@data-testid=${xpathLiteral(id)}]`;
const listItems = (label: string) => `//*[@aria-label=${xpathLiteral(label)}]/li`;
// Elements with a text node of their own that contains `text`.
const containing = (text: string) => `//*[text()[contains(., ${xpathLiteral(text)})]]`;

/** Text of every node at `xpath`, read in the page. */
function texts(page: EnginePage, xpath: string): Promise<string[]> {
  return page.evaluate((path) => {
    const found = document.evaluate(path, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE);
    const out: string[] = [];
    for (let i = 0; i < found.snapshotLength; i++)
      out.push((found.snapshotItem(i)?.textContent ?? "").trim());
    return out;
  }, xpath);
}

async function waitForText(page: EnginePage, xpath: string, pattern: RegExp, timeoutMs?: number) {
  return waitUntil(
    async () => (await texts(page, xpath)).find((text) => pattern.test(text)),
    `${pattern} at ${xpath}`,
    timeoutMs,
  );
}

const waitForCount = (page: EnginePage, xpath: string, count: number) =>
  waitUntil(async () => (await texts(page, xpath)).length === count, `${count} of ${xpath}`);

async function signUp(page: EnginePage, email: string, url = demo.url): Promise<void> {
  await page.goto(url);
  await page.fill(field("Email"), email);
  await page.select(field("Where you live"), "US");
  await page.click(button("Continue"));
  await page.click(button("Email a code"));
  // The sixth digit submits the code: no button press.
  await page.fill(field("6-digit code"), "000000");
  await waitForCount(page, nav, 1);
}

async function openScreen(page: EnginePage, name: string): Promise<void> {
  await page.click(navLink(name));
  await waitForCount(page, "//h1", 1);
}

/** Signet's IndexedDB records as the page sees them: type, extractable, what exportKey says. */
function storedKeys(page: EnginePage) {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("signet");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    if (!db.objectStoreNames.contains("keys")) return [];
    const records = await new Promise<unknown[]>((resolve, reject) => {
      const request = db.transaction("keys").objectStore("keys").getAll();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    const out = [];
    for (const record of records as { type: string; privateKey: CryptoKey }[]) {
      const exported = await crypto.subtle.exportKey("pkcs8", record.privateKey).then(
        () => "exported",
        (error: Error) => error.name,
      );
      out.push({ type: record.type, extractable: record.privateKey.extractable, exported });
    }
    return out;
  }, null);
}

/** The demo's signer frame (the iframe of @signet/frame, with the frame on). */
const SIGNER_FRAME = "//iframe[contains(@class, 'signer-frame')]";

declare global {
  interface Window {
    parentSeen?: string[];
  }
}

/**
 * From now on, records every text and attribute value the demo's own page holds (not the frame's:
 * another document), so that a phrase shown for an instant and removed again is caught too.
 */
function recordParentText(page: EnginePage): Promise<void> {
  return page.evaluate(() => {
    const seen: string[] = [document.documentElement.outerHTML];
    window.parentSeen = seen;
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        if (mutation.type === "characterData") seen.push(mutation.target.textContent ?? "");
        else if (mutation.type === "attributes" && mutation.target instanceof Element)
          seen.push(mutation.target.getAttribute(mutation.attributeName ?? "") ?? "");
        else
          for (const node of mutation.addedNodes) {
            seen.push(node.textContent ?? "");
            if (node instanceof Element)
              for (const element of [node, ...node.querySelectorAll("*")])
                for (const attribute of element.attributes) seen.push(attribute.value);
          }
      }
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  }, null);
}

/** What the demo's page held since `recordParentText`, holds now, and keeps in its storage. */
function parentHeld(page: EnginePage) {
  return page.evaluate(
    () => ({
      seen: (window.parentSeen ?? []).join("\n"),
      html: document.documentElement.outerHTML,
      storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    }),
    null,
  );
}

/** A trusted tap on `selector` in the signer frame, once it has been in sight long enough. */
async function tapInFrame(page: EnginePage, selector: string): Promise<void> {
  await page.evaluate((path) => {
    const found = document.evaluate(path, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE);
    (found.singleNodeValue as Element).scrollIntoView({ block: "center" });
  }, SIGNER_FRAME);
  await pause(SEEN_MS);
  const point = await waitUntil(() => pointOf(page, SIGNER_FRAME, selector), selector);
  await page.clickAt(point.x, point.y);
}

describe.each(ENGINES)("the demo in %s", (name) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await launchEngine(name);
  });
  afterAll(async () => {
    await engine?.close();
  });

  test("email OTP sign-up, fund, quote, sign and send to COMPLETED, export the recovery phrase", async () => {
    const page = await engine.open();
    try {
      await signUp(page, freshEmail(`${name}-pay`));
      // The session key: one non-extractable CryptoKey in IndexedDB.
      expect(await storedKeys(page)).toEqual([
        { type: "webcrypto", extractable: false, exported: "InvalidAccessError" },
      ]);
      await openScreen(page, "Sessions");
      await waitForText(page, "//div", /^Keys kept in IndexedDB \(non-extractable\)$/);

      await openScreen(page, "Send money");
      await waitForText(page, testId("balance"), /^\$?0\.00/);
      await page.click(button("Add 500.00 test funds"));
      await waitForText(page, testId("balance"), /^\$?500\.00/);
      await page.fill(field("Amount to send"), "25.00");
      await page.click(button("Get quote"));
      await waitForText(page, "//section[@aria-label='Quote']", /25\.00/);
      await page.click(button("Sign and send"));
      await waitForText(page, testId("tx-status"), /^Completed$/, 30_000);
      await waitForCount(
        page,
        "//*[@aria-label='Payment progress']//*[contains(@class, 'step-done')]",
        5,
      );
      const log = await texts(page, "//*[@aria-label='HTTP legs, newest first']");
      expect(log.join("\n")).toMatch(
        /POST \/api\/grid\/quotes\/Quote:[^ ]+\/execute → 200 · signed/,
      );
      expect(log.join("\n")).not.toContain("000000");

      await openScreen(page, "Export");
      // Signed in a moment ago: the demo's step-up (five minutes) asks for nothing more.
      await page.click(field("I am alone and nobody can see my screen"));
      await page.click(button("Reveal recovery phrase"));
      await waitForCount(page, listItems("Recovery phrase"), 12);
      const words = await texts(page, listItems("Recovery phrase"));
      expect(words.every((word) => /^[a-z]+$/.test(word))).toBe(true);
      await page.click(button("Hide now"));
      await waitForCount(page, listItems("Recovery phrase"), 0);
    } finally {
      await page.close();
    }
  });
  test("the signer frame on: email code sign-in, the wallet, the export confirmed in the signer's window, the phrase in the frame only, sign-out", async () => {
    const page = await engine.open();
    try {
      await signUp(page, freshEmail(`${name}-frame`), framed.url);
      expect(
        await page.evaluateInFrame(
          SIGNER_FRAME,
          () => document.getElementById("signet-frame")?.dataset.state,
          null,
        ),
      ).toBe("ready");
      // The demo's own origin holds no key: they are in the frame's.
      expect(await storedKeys(page)).toEqual([]);
      await waitForText(page, testId("balance"), /^\$?0\.00/);
      await page.click(button("Add 500.00 test funds"));
      await waitForText(page, testId("balance"), /^\$?500\.00/);
      await openScreen(page, "Sessions");
      await waitForText(page, "//div", /^Keys kept in the signer frame/);

      await openScreen(page, "Export");
      await recordParentText(page);
      await page.click(field("I am alone and nobody can see my screen"));
      await page.click(button("Reveal recovery phrase"));
      await waitForCount(page, button("Confirm in the signer frame above…"), 1);
      await waitUntil(async () => (await frameShows(page, SIGNER_FRAME)).confirming, "Confirm");
      expect((await frameShows(page, SIGNER_FRAME)).rows[0]).toBe("Show the recovery phrase");
      // The frame cannot see whether it is covered here: its Confirm opens the signer's window,
      // and the tap there is the one that counts.
      await tapInFrame(page, "#signet-confirm");
      expect((await answerInWindow(page, SIGNER_FRAME, "confirm"))[0]).toBe(
        "Show the recovery phrase",
      );
      await waitForCount(page, testId("phrase-in-frame"), 1);
      const phrase = await waitUntil(async () => {
        const { words } = await frameShows(page, SIGNER_FRAME);
        return words.length === 12 ? words : undefined;
      }, "the phrase in the frame");
      expect(phrase.every((word) => /^[a-z]+$/.test(word))).toBe(true);
      expect(await texts(page, listItems("Recovery phrase"))).toEqual([]);
      // Never in the demo's page: not in any text or attribute it held, nor in its storage.
      const parent = await parentHeld(page);
      expect(parent.seen.length).toBeGreaterThan(1000);
      const runs = phrase.slice(0, -2).map((_, i) => phrase.slice(i, i + 3).join(" "));
      for (const where of [parent.seen, parent.html, parent.storage])
        for (const run of runs) expect(where).not.toContain(run);
      await tapInFrame(page, "#signet-done");
      await waitUntil(
        async () => (await frameShows(page, SIGNER_FRAME)).words.length === 0,
        "the phrase to leave the frame",
      );

      await openScreen(page, "Sessions");
      await page.click(button("Sign out"));
      await waitForCount(page, heading("Unlock your wallet"), 1);
    } finally {
      await page.close();
    }
  });
  if (name === "firefox") {
    // Firefox's WebDriver BiDi has no WebAuthn commands; its Marionette (WebDriver classic) has
    // the WebAuthn extension commands, and answers them while Puppeteer's BiDi session is open.
    test("passkey: add one, a cancelled prompt, sign out, reload, sign in with the passkey alone", async () => {
      const page = await engine.open();
      try {
        const authenticator = await engine.addVirtualAuthenticator(page);
        await signUp(page, freshEmail("firefox-passkey"));
        await openScreen(page, "Sign-in methods");
        await page.click(button("Add a passkey"));
        await waitForCount(page, containing("Passkey added."), 1);
        await waitForCount(page, listItems("Sign-in methods"), 2);

        await openScreen(page, "Sessions");
        await page.click(button("Sign out"));
        await waitForCount(page, heading("Unlock your wallet"), 1);
        // The user dismisses the prompt: no user verification, reported as NotAllowedError.
        await authenticator.setUserVerified(false);
        await page.click(button("Sign in with passkey"));
        await waitForText(
          page,
          "//*[@role='alert']",
          /Passkey sign-in did not finish.*Try again and confirm on your device/s,
        );
        await authenticator.setUserVerified(true);

        await page.reload();
        // Autofill (conditional UI) may sign in by itself; otherwise the button does it.
        await waitUntil(
          async () => (await texts(page, `${nav} | ${button("Sign in with passkey")}`)).length > 0,
          "the wallet or the passkey button",
        );
        if ((await texts(page, nav)).length === 0)
          await page.click(button("Sign in with passkey")).catch(() => undefined);
        await waitForCount(page, nav, 1);
        await openScreen(page, "Sign-in methods");
        await waitForCount(page, listItems("Sign-in methods"), 2);
      } finally {
        await page.close();
      }
    });
  } else {
    // WebKitGTK builds without Web Authentication (no navigator.credentials), and WebKitWebDriver
    // has no WebAuthn extension commands: the passkey proof stays with Chromium and Firefox.
    test("no passkeys in WebKitGTK: no virtual authenticator, no navigator.credentials; the demo says to use the email code", async () => {
      const page = await engine.open();
      try {
        await expect(engine.addVirtualAuthenticator(page)).rejects.toThrow(/unknown command/);
        await signUp(page, freshEmail("webkit-passkey"));
        expect(
          await page.evaluate(
            () => ({
              credentials: typeof navigator.credentials,
              publicKeyCredential: typeof window.PublicKeyCredential,
            }),
            null,
          ),
        ).toEqual({ credentials: "undefined", publicKeyCredential: "undefined" });
        await openScreen(page, "Sign-in methods");
        await page.click(button("Add a passkey"));
        await waitForText(
          page,
          "//*[@role='alert']",
          /This browser cannot use passkeys\. Use the email code instead\./,
        );
        await waitForCount(page, listItems("Sign-in methods"), 1);
      } finally {
        await page.close();
      }
    });
  }
});
