// The signer frame (packages/frame) in real Chromium, across three origins on loopback: the app,
// the frame, and a third page. The flows pass through the frame (sign-in by email code against
// the emulator, a session-signed refresh, an export whose phrase shows in the frame only, a
// payment confirmed in the frame with its amount and payee, a credential added and removed); then a
// hostile script in the app's page tries every way it has to get a stamp or the phrase without the
// user's tap inside the frame, and each attempt is counted: 0 stamps, 0 phrases.
import { expect, type Page, test } from "@playwright/test";
import {
  type Entry,
  exportResultInPage,
  hostileAttacksExpected,
  hostileAttacksInPage,
  hostileTallyInPage,
  installHostileInPage,
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
  await expect(frame.locator("dd").first()).toHaveText("Show the recovery phrase");
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
  await page.evaluate(installHostileInPage, servers.frame);
  const outcome = await page.evaluate(hostileAttacksInPage);
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

test("a payment signs after the tap in the frame, showing its amount and payee; the hostile page gets no stamp of it", async ({
  page,
}) => {
  await openApp(page);
  await page.evaluate(signInInPage);
  const { customerId, accountId } = await page.evaluate(
    () => (window.frameTest as { ids: { customerId: string; accountId: string } }).ids,
  );
  // The backend funds the wallet, adds a bank account and makes a quote from the wallet.
  await platform("POST", `/sandbox/internal-accounts/${accountId}/fund`, { amount: 5_000_000 });
  const bank = await platform<{ id: string }>("POST", "/customers/external-accounts", {
    customerId,
    currency: "USD",
    accountInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber: "000123456789",
      routingNumber: "021000021",
      bankAccountType: "CHECKING",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace" },
    },
  });
  const { id: quoteId } = await platform<{ id: string }>("POST", "/quotes", {
    source: { sourceType: "ACCOUNT", accountId },
    destination: { destinationType: "ACCOUNT", accountId: bank.id },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: 1_000_000,
  });
  await page.evaluate(installHostileInPage, servers.frame);
  const frame = page.frameLocator("iframe");

  // The hostile page reads the quote (a read needs no key) and asks the frame to stamp its
  // payload with the session's key: the frame checks it, then waits for the user's tap.
  const asked = await page.evaluate(async (id) => {
    type Answer = { ok: boolean; result?: unknown; error?: { details?: { reason?: string } } };
    const { core, client, hostile } = window.frameTest as never as {
      core: Entry;
      client: ReturnType<Entry["createClient"]>;
      hostile: { ask(message: Record<string, unknown>): Promise<Answer> };
    };
    const quote = await core.getQuote(client, { quoteId: id });
    const payload = quote.paymentInstructions!.find(
      (entry) => entry.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
    )!.accountOrWalletInfo.payloadToSign!;
    const { result: listed } = await hostile.ask({ kind: "list" });
    const storeId = (listed as { storeIds: string[] }).storeIds.find((s) =>
      s.startsWith("signet.session|"),
    )!;
    const { result: got } = await hostile.ask({ kind: "get", storeId });
    const handle = (got as { handle: string }).handle;
    const stamp = (path: string) =>
      hostile.ask({
        kind: "stamp",
        handle,
        payload,
        operation: "executeQuote",
        method: "POST",
        path,
      });
    // The payload under another quote's path: core's check refuses it before any confirmation.
    const elsewhere = await stamp("/quotes/Quote:00000000-0000-4000-8000-000000000000/execute");
    window.frameTest!.waiting = stamp(`/quotes/${id}/execute`);
    return { elsewhere: elsewhere.error?.details?.reason };
  }, quoteId);
  expect(asked.elsewhere).toBe("check");
  // The confirmation shows the operation, the account, and the amount and payee the signed
  // transaction names (the emulator's is readable; the service's is not, and the frame says so).
  await expect(frame.locator("#signet-confirm")).toBeVisible();
  await expect(frame.locator("h1")).toHaveText("Send a payment");
  const shown = await frame.locator("dd").allTextContents();
  expect(shown[0]).toBe("Send a payment");
  expect(shown[1]).toBe(accountId);
  expect(shown).toContain(quoteId);
  expect(shown).toContain(bank.id);
  expect(shown.some((value) => /^1000000\b/.test(value))).toBe(true);
  // Nobody taps: the user cancels, and nothing was stamped. (A look first: Chromium drops a click
  // made the moment the confirmation appears in the frame, which may create passkeys: its iframe
  // carries `allow="publickey-credentials-create"`.)
  await page.waitForTimeout(900);
  await frame.locator("#signet-cancel").click();
  const withoutTap = await page.evaluate(async () => {
    const { hostile } = window.frameTest as never as { hostile: { tally: { stamps: number } } };
    const waited = await (window.frameTest!.waiting as Promise<{
      error?: { details?: { reason?: string } };
    }>);
    return { stamps: hostile.tally.stamps, reason: waited.error?.details?.reason };
  });
  expect(withoutTap).toEqual({ stamps: 0, reason: "declined" });

  // The app's own execute: the user taps Confirm in the frame, and the payment is sent.
  await page.evaluate((id) => {
    const { core, client } = window.frameTest as never as {
      core: Entry;
      client: ReturnType<Entry["createClient"]>;
    };
    window.frameTest!.executed = core
      .getQuote(client, { quoteId: id })
      .then((quote) => core.executeQuote(client, { quote }));
  }, quoteId);
  await expect(frame.locator("#signet-confirm")).toBeVisible();
  await page.waitForTimeout(900);
  await frame.locator("#signet-confirm").click();
  const executed = await page.evaluate(
    () => window.frameTest!.executed as Promise<{ id: string; status: string }>,
  );
  expect(executed.id).toBe(quoteId);
  expect(executed.status).not.toBe("PENDING_AUTHORIZATION");
});

test("adding and removing a sign-in method sign only after the tap in the frame, which shows the contact", async ({
  page,
}) => {
  await openApp(page);
  await page.evaluate(signInInPage);
  await page.evaluate(installHostileInPage, servers.frame);
  const frame = page.frameLocator("iframe");
  const phoneNumber = `+4915${String(Date.now()).slice(-9)}`;
  // The backend records the customer's phone number: an SMS credential uses the customer's own.
  const { customerId } = await page.evaluate(
    () => (window.frameTest as { ids: { customerId: string } }).ids,
  );
  await platform("PATCH", `/customers/${customerId}`, { customerType: "INDIVIDUAL", phoneNumber });
  const start = () =>
    page.evaluate((phone) => {
      const { core, client, ids } = window.frameTest as never as {
        core: Entry;
        client: ReturnType<Entry["createClient"]>;
        ids: { accountId: string };
      };
      window.frameTest!.added = core
        .addCredential(client, { accountId: ids.accountId, type: "SMS_OTP", phoneNumber: phone })
        .catch((error: { code: string; details?: { reason?: string } }) => ({
          refused: `${error.code} ${error.details?.reason}`,
        }));
    }, phoneNumber);

  // First the user cancels: nothing is stamped, and the call fails as declined.
  await start();
  await expect(frame.locator("h1")).toHaveText("Add a sign-in method");
  await expect(frame.locator("dd").last()).toHaveText(phoneNumber);
  // (A look first: see the payment's cancel.)
  await page.waitForTimeout(900);
  await frame.locator("#signet-cancel").click();
  const declined = await page.evaluate(async () => ({
    result: await (window.frameTest!.added as Promise<unknown>),
    stamps: (window.frameTest as never as { hostile: { tally: { stamps: number } } }).hostile.tally
      .stamps,
  }));
  expect(declined).toEqual({ result: { refused: "FRAME_REFUSED declined" }, stamps: 0 });

  // Then the user taps Confirm: the credential is added.
  await start();
  await expect(frame.locator("#signet-confirm")).toBeVisible();
  await page.waitForTimeout(900);
  await frame.locator("#signet-confirm").click();
  const added = await page.evaluate(
    () => window.frameTest!.added as Promise<{ id: string; type: string }>,
  );
  expect(added.type).toBe("SMS_OTP");

  // Removing it asks again, names it, and signs after the tap.
  await page.evaluate((credentialId) => {
    const { core, client, ids } = window.frameTest as never as {
      core: Entry;
      client: ReturnType<Entry["createClient"]>;
      ids: { accountId: string };
    };
    window.frameTest!.removed = core
      .revokeCredential(client, { accountId: ids.accountId, credentialId, type: "SMS_OTP" })
      .then(() => "removed");
  }, added.id);
  await expect(frame.locator("h1")).toHaveText("Remove a sign-in method");
  await expect(frame.locator("dd").nth(3)).toHaveText(added.id);
  await page.waitForTimeout(900);
  await frame.locator("#signet-confirm").click();
  expect(await page.evaluate(() => window.frameTest!.removed as Promise<string>)).toBe("removed");
});

test("account changes: the hostile page gets no stamp of a privacy or contact change without the tap; the frame shows the contact the payload sets", async ({
  page,
}) => {
  await openApp(page);
  await page.evaluate(signInInPage);
  await page.evaluate(installHostileInPage, servers.frame);
  const frame = page.frameLocator("iframe");
  const reasons = await page.evaluate(async () => {
    type Answer = { ok: boolean; error?: { details?: { reason?: string } } };
    const { ids, hostile } = window.frameTest as never as {
      ids: { customerId: string; accountId: string };
      hostile: { ask(message: Record<string, unknown>): Promise<Answer> };
    };
    const { result: listed } = (await hostile.ask({ kind: "list" })) as { result?: unknown };
    const storeId = (listed as { storeIds: string[] }).storeIds.find((s) =>
      s.startsWith("signet.session|"),
    )!;
    const { result: got } = (await hostile.ask({ kind: "get", storeId })) as { result?: unknown };
    const handle = (got as { handle: string }).handle;
    const activity = (type: string, parameters: Record<string, unknown>) =>
      JSON.stringify({
        organizationId: "org",
        parameters,
        timestampMs: String(Date.now()),
        type: `ACTIVITY_TYPE_${type}`,
      });
    const stamp = (
      operation: string,
      method: string,
      path: string,
      payload: string,
      body?: unknown,
    ) =>
      ({
        kind: "stamp",
        handle,
        payload,
        operation,
        method,
        path,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }) as Record<string, unknown>;
    const reasonOf = async (message: Record<string, unknown>) => {
      const answer = await hostile.ask(message);
      return answer.ok ? "signed" : answer.error?.details?.reason;
    };
    const thief = activity("UPDATE_USER_EMAIL", { userEmail: "thief@example.com" });
    const submit = `/customers/${ids.customerId}/contact-changes/ContactChange:1/submit`;
    const found = {
      // The privacy of a wallet whose session does not stamp: refused before any payload is read.
      otherWallet: await reasonOf(
        stamp("updateWalletPrivacy", "PATCH", "/internal-accounts/InternalAccount:other", "{}", {
          privateEnabled: true,
        }),
      ),
      // A PATCH whose payload sets another email than its body sends: core's contact check.
      otherContact: await reasonOf(
        stamp("updateCustomerContact", "PATCH", `/customers/${ids.customerId}`, thief, {
          customerType: "INDIVIDUAL",
          email: "me@example.com",
        }),
      ),
      // A submit whose payload is no contact change (an export to the thief's key).
      notAChange: await reasonOf(
        stamp(
          "changeContact",
          "POST",
          submit,
          activity("EXPORT_WALLET", { targetPublicKey: `04${"11".repeat(64)}`, walletId: "w" }),
        ),
      ),
    };
    // A submit setting the thief's email passes core's check (the submit carries no body to
    // compare): it waits for the user's tap, and the frame shows the thief's email.
    window.frameTest!.waiting = hostile.ask(stamp("changeContact", "POST", submit, thief));
    return found;
  });
  expect(reasons).toEqual({ otherWallet: "key", otherContact: "check", notAChange: "check" });
  await expect(frame.locator("h1")).toHaveText("Change your email or phone number");
  expect(await frame.locator("dd").allTextContents()).toContain("thief@example.com");
  // The user reads it and cancels: nothing was stamped.
  await page.waitForTimeout(900);
  await frame.locator("#signet-cancel").click();
  expect(await page.evaluate(hostileTallyInPage)).toEqual({
    stamps: 0,
    phrases: 0,
    waited: "declined",
  });
});
