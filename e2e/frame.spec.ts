// The signer frame (packages/frame) in real Chromium, across three origins on loopback: the app,
// the frame, and a third page. The flows pass through the frame (sign-in by email code against
// the emulator, a session-signed refresh, an export whose phrase shows in the frame only, a
// payment confirmed in the frame with its amount and payee, a credential added and removed); then a
// hostile script in the app's page tries every way it has to get a stamp or the phrase without the
// user's tap inside the frame, and each attempt is counted: 0 stamps, 0 phrases.
import { expect, type Page, test } from "@playwright/test";
import type * as FrameEntry from "./fixtures/frameEntry.js";
import { type FrameServers, startFrameServers } from "./fixtures/frameServer.js";

declare global {
  interface Window {
    appReady?: boolean;
    frameTest?: Record<string, unknown>;
  }
}
type Entry = typeof FrameEntry;

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
  await page.evaluate(async (frameUrl) => {
    const core = (window as unknown as { signetCore: Entry }).signetCore;
    const email = `frame-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    const ids = await (
      await fetch("/api/test/signup", { method: "POST", body: JSON.stringify({ email }) })
    ).json();
    const keys = await (await fetch("/api/test/keys")).json();
    const refused: string[] = [];
    const signer = core.frameSigner({
      url: frameUrl,
      container: document.getElementById("frame-slot")!,
      onRefused: (error) => refused.push(String((error.details as { reason?: string }).reason)),
    });
    signer.element.style.cssText = "width:420px;height:320px;border:0";
    const client = core.createClient({
      relayUrl: "/api/grid",
      headers: { "x-test-customer": ids.customerId },
      trustedKeys: {
        otpTargetBundle: [keys.attestationPublicKey],
        exportBundle: [keys.signerPublicKey],
      },
      crypto: signer.crypto,
      keyStore: signer.keyStore,
    });
    window.frameTest = { core, client, ids, signer, refused };
  }, `${servers.frame}/`);
}

/** Signs in by email code through the frame. */
async function signIn(page: Page) {
  return page.evaluate(async () => {
    const { core, client, ids } = window.frameTest as {
      core: Entry;
      client: ReturnType<Entry["createClient"]>;
      ids: { emailCredentialId: string; accountId: string };
    };
    const otp = await core.requestOtp(client, { credentialId: ids.emailCredentialId });
    const session = await core.verifyOtp(client, { ...otp, otpCode: "000000" });
    return { sessionId: session.id, publicKey: session.publicKey };
  });
}

test("sign-in, a session-signed refresh, an export and sign-out pass through the frame", async ({
  page,
}) => {
  await openApp(page);
  const first = await signIn(page);
  expect(first.sessionId).toMatch(/^Session:/);
  const refreshed = await page.evaluate(async () => {
    const { core, client, ids } = window.frameTest as never as {
      core: Entry;
      client: ReturnType<Entry["createClient"]>;
      ids: { accountId: string };
    };
    const session = await core.refreshSession(client, { accountId: ids.accountId });
    return session.id;
  });
  expect(refreshed).not.toBe(first.sessionId);

  // The export waits for the tap inside the frame; the page gets `{ shownIn: "frame" }`.
  await page.evaluate(() => {
    const { core, client, ids } = window.frameTest as never as {
      core: Entry;
      client: ReturnType<Entry["createClient"]>;
      ids: { accountId: string };
    };
    window.frameTest!.exported = core.exportWallet(client, { accountId: ids.accountId });
  });
  const frame = page.frameLocator("iframe");
  await expect(frame.locator("#signet-confirm")).toBeVisible();
  await expect(frame.locator("dd").first()).toHaveText("exportWallet");
  await page.waitForTimeout(900);
  await frame.locator("#signet-confirm").click();
  const result = await page.evaluate(() => window.frameTest!.exported);
  expect(result).toEqual({ shownIn: "frame" });
  await expect(frame.locator("#signet-phrase li")).toHaveCount(12);
  // The app's page cannot read the frame, and its own origin holds no key.
  const reads = await page.evaluate(async () => {
    const iframe = document.querySelector("iframe")!;
    let documentRead = "none";
    try {
      documentRead = iframe.contentWindow!.document.body.textContent;
    } catch (error) {
      documentRead = (error as Error).name;
    }
    const databases = (await indexedDB.databases()).map((db) => db.name);
    return { contentDocument: iframe.contentDocument === null, documentRead, databases };
  });
  expect(reads.contentDocument).toBe(true);
  expect(reads.documentRead).toBe("SecurityError");
  expect(reads.databases).not.toContain("signet-frame");

  // Sign-out revokes through the frame, and the frame's store forgets the sessions' keys.
  const left = await page.evaluate(async () => {
    const { core, client, ids } = window.frameTest as never as {
      core: Entry;
      client: ReturnType<Entry["createClient"]>;
      ids: { accountId: string };
    };
    await core.signOut(client, { accountId: ids.accountId });
    return (await (await client.keyStore()).list()).filter((id) =>
      id.startsWith("signet.session|"),
    );
  });
  expect(left).toEqual([]);
});

/** The hostile script's raw access to the frame: requests as the page could forge them. */
async function installHostile(page: Page) {
  await page.evaluate((frameOrigin) => {
    const iframe = document.querySelector("iframe")!;
    const tally = { stamps: 0, phrases: 0, answers: new Map<string, number>() };
    const words = /\b[a-z]{3,8}(?: [a-z]{3,8}){11}\b/;
    addEventListener("message", (event) => {
      if (event.origin !== frameOrigin) return;
      const text = JSON.stringify(event.data);
      if (words.test(text)) tally.phrases += 1;
      const data = event.data as { id?: string; ok?: boolean; result?: { stamp?: string } };
      if (data?.result?.stamp) tally.stamps += 1;
      if (data?.id) tally.answers.set(data.id, (tally.answers.get(data.id) ?? 0) + 1);
    });
    const id = () =>
      Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
        b.toString(16).padStart(2, "0"),
      ).join("");
    const post = (message: Record<string, unknown>) =>
      iframe.contentWindow!.postMessage({ channel: "signet-frame", v: 1, ...message }, frameOrigin);
    const ask = (message: Record<string, unknown>) =>
      new Promise<{
        ok: boolean;
        result?: unknown;
        error?: { code: string; details?: { reason?: string } };
      }>((resolve) => {
        const requestId = (message.id as string | undefined) ?? id();
        const listen = (event: MessageEvent) => {
          if (event.origin === frameOrigin && event.data?.id === requestId) {
            removeEventListener("message", listen);
            resolve(event.data);
          }
        };
        addEventListener("message", listen);
        post({ ...message, id: requestId });
      });
    window.frameTest!.hostile = { tally, id, post, ask };
  }, servers.frame);
}

test("a hostile page gets no stamp and no phrase without the tap in the frame", async ({
  page,
  context,
}) => {
  await openApp(page);
  await signIn(page);
  await installHostile(page);
  const frame = page.frameLocator("iframe");

  const outcome = await page.evaluate(async () => {
    type Hostile = {
      tally: { stamps: number; phrases: number; answers: Map<string, number> };
      id(): string;
      post(message: Record<string, unknown>): void;
      ask(message: Record<string, unknown>): Promise<{
        ok: boolean;
        result?: unknown;
        error?: { code: string; details?: { reason?: string } };
      }>;
    };
    const { hostile, ids } = window.frameTest as never as {
      hostile: Hostile;
      ids: { accountId: string };
    };
    const reasons: Record<string, string | undefined> = {};
    const reasonOf = async (message: Record<string, unknown>) => {
      const answer = await hostile.ask(message);
      return answer.ok ? "signed" : answer.error?.details?.reason;
    };
    // The page may list the frame's keys and get handles: they are not secrets.
    const { result: listed } = await hostile.ask({ kind: "list" });
    const storeId = (listed as { storeIds: string[] }).storeIds.find((s) =>
      s.startsWith("signet.session|"),
    )!;
    const { result: got } = await hostile.ask({ kind: "get", storeId });
    const handle = (got as { handle: string }).handle;
    const exportPayload = (targetPublicKey: string) =>
      JSON.stringify({
        organizationId: "org",
        parameters: { targetPublicKey, walletId: "w" },
        timestampMs: String(Date.now()),
        type: "ACTIVITY_TYPE_EXPORT_WALLET",
      });
    const attacker = `04${"11".repeat(64)}`;
    const exportPath = `/internal-accounts/${ids.accountId}/export`;
    // A forged export to the attacker's key: the frame made no such key.
    reasons.forgedExport = await reasonOf({
      kind: "stamp",
      handle,
      payload: exportPayload(attacker),
      operation: "exportWallet",
      method: "POST",
      path: exportPath,
      body: JSON.stringify({ clientPublicKey: attacker }),
    });
    // A payload of another operation sent as a refresh: core's refresh check refuses it.
    reasons.wrongOperation = await reasonOf({
      kind: "stamp",
      handle,
      payload: exportPayload(attacker),
      operation: "refreshSession",
      method: "POST",
      path: "/auth/sessions/Session:x/refresh",
      body: JSON.stringify({ clientPublicKey: attacker }),
    });
    // A payment whose payload is no transfer of this quote: core's execute check refuses it.
    reasons.payment = await reasonOf({
      kind: "stamp",
      handle,
      payload: "{}",
      operation: "executeQuote",
      method: "POST",
      path: "/quotes/Quote:1/execute",
    });
    // A raw signature through the adapter's key: the key signs nothing itself.
    reasons.unexpected = await reasonOf({ kind: "sign", handle, payload: "x" });
    reasons.badVersion = (await hostile.ask({ kind: "list", v: 2 })).error?.details?.reason;
    // Replay: an id answered once is never answered again.
    const replayed = hostile.id();
    await hostile.ask({ kind: "list", id: replayed });
    hostile.post({ kind: "list", id: replayed });
    hostile.post({ kind: "generate", id: replayed });
    // An export to the frame's own key waits for the tap; a second one races it and is refused.
    const { result: exportKey } = await hostile.ask({ kind: "exportKey" });
    const own = (exportKey as { publicKeyUncompressed: string }).publicKeyUncompressed;
    const waiting = hostile.ask({
      kind: "stamp",
      handle,
      payload: exportPayload(own),
      operation: "exportWallet",
      method: "POST",
      path: exportPath,
      body: JSON.stringify({ clientPublicKey: own }),
    });
    window.frameTest!.waiting = waiting;
    await new Promise((resolve) => setTimeout(resolve, 300));
    reasons.race = await reasonOf({
      kind: "stamp",
      handle,
      payload: exportPayload(own),
      operation: "exportWallet",
      method: "POST",
      path: exportPath,
      body: JSON.stringify({ clientPublicKey: own }),
    });
    // Opening an export nobody confirmed: refused.
    reasons.showUnconfirmed = await reasonOf({
      kind: "showExport",
      handle: own,
      bundle: "x",
      allowUnsigned: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { reasons, replayAnswers: hostile.tally.answers.get(replayed) };
  });
  expect(outcome.reasons).toEqual({
    forgedExport: "key",
    wrongOperation: "key",
    payment: "check",
    unexpected: "unexpected",
    badVersion: "unexpected",
    race: "busy",
    showUnconfirmed: "key",
  });
  expect(outcome.replayAnswers).toBe(1);

  // Clickjacking: the page makes the frame nearly transparent under its own bait, then a real
  // click lands on the frame's button. The frame sees it obscured and refuses it.
  await expect(frame.locator("#signet-confirm")).toBeVisible();
  await page.evaluate(() => {
    const iframe = document.querySelector("iframe")!;
    iframe.style.opacity = "0.05";
    const bait = document.createElement("div");
    bait.textContent = "Click to win";
    bait.style.cssText =
      "position:absolute;left:0;top:0;width:420px;height:320px;pointer-events:none;background:#fc0";
    document.body.append(bait);
  });
  await page.waitForTimeout(900);
  await frame.locator("#signet-confirm").click({ force: true });
  await expect(frame.locator(".note")).toContainText("covered");
  // Opaque again but covered by a pointer-events:none overlay: still refused.
  await page.evaluate(() => {
    document.querySelector("iframe")!.style.opacity = "1";
  });
  await page.waitForTimeout(900);
  await frame.locator("#signet-confirm").click({ force: true });

  // A third origin: it frames the signer page under its own name (CSP frame-ancestors stops it)
  // and posts to the app's frame through a window it opened; nothing answers it.
  const third = await context.newPage();
  await third.goto(servers.third);
  const thirdTally = await third.evaluate(
    async ({ frameUrl, appUrl }) => {
      let heard = 0;
      addEventListener("message", () => {
        heard += 1;
      });
      const iframe = document.createElement("iframe");
      iframe.src = `${frameUrl}?parent=${encodeURIComponent(location.origin)}`;
      document.body.append(iframe);
      const popup = window.open(appUrl)!;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      // Chromium may refuse the indexed read of a cross-origin window: then only the frame this
      // page made itself is reachable.
      const targets = [iframe.contentWindow];
      try {
        targets.push(popup.frames[0] ?? null);
      } catch {
        // Unreachable: nothing to post to.
      }
      for (const target of targets)
        target?.postMessage(
          { channel: "signet-frame", v: 1, id: "a".repeat(32), kind: "generate" },
          "*",
        );
      await new Promise((resolve) => setTimeout(resolve, 800));
      popup.close();
      return heard;
    },
    { frameUrl: `${servers.frame}/`, appUrl: servers.app },
  );
  expect(thirdTally).toBe(0);
  // Opened alone, the frame page refuses to run.
  await third.goto(`${servers.frame}/?parent=${encodeURIComponent(servers.app)}`);
  await expect(third.locator("#signet-frame")).toHaveAttribute("data-state", "unframed");
  await third.close();

  // The user declines; nothing was signed, and no phrase crossed.
  await page.evaluate(() => document.querySelector("div[style*='fc0']")?.remove());
  await frame.locator("#signet-cancel").click();
  const tally = await page.evaluate(async () => {
    const { hostile } = window.frameTest as never as {
      hostile: { tally: { stamps: number; phrases: number } };
    };
    const waited = await (window.frameTest!.waiting as Promise<{
      ok: boolean;
      error?: { details?: { reason?: string } };
    }>);
    return { ...hostile.tally, answers: undefined, declined: waited.error?.details?.reason };
  });
  expect(tally).toEqual({ stamps: 0, phrases: 0, answers: undefined, declined: "declined" });
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
  await signIn(page);
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
  await installHostile(page);
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
  expect(shown[0]).toBe("executeQuote");
  expect(shown[1]).toBe(accountId);
  expect(shown).toContain(quoteId);
  expect(shown).toContain(bank.id);
  expect(shown.some((value) => /^1000000\b/.test(value))).toBe(true);
  // Nobody taps: the user cancels, and nothing was stamped.
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
  await signIn(page);
  await installHostile(page);
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
