// Key hygiene in real Chromium: session keys are non-extractable CryptoKeys in IndexedDB, and leave
// it on sign-out, on revoke and on expiry; no OTP code, mnemonic or stamp reaches an event, an
// error or the console; no known scalar is in a dump of the origin's storage (the same in-page
// count as Firefox and WebKit run in e2e/engines/key-hygiene.test.ts); an IndexedDB that refuses
// keys is reported as `persistence: "memory"`.
import { expect, type Page, test } from "@playwright/test";
import { keyHygieneExpected, keyHygieneInPage } from "./fixtures/keyHygienePage.js";
import { startWalletServer, type WalletServer } from "./fixtures/walletServer.js";

let server: WalletServer;
test.beforeAll(async () => {
  server = await startWalletServer();
});
test.afterAll(async () => {
  await server?.close();
});

/** What the page can see of the key store: every record in Signet's IndexedDB database. */
async function storedKeys(page: Page) {
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
  });
}

async function openPage(page: Page) {
  await page.goto(server.origin);
  await page.waitForFunction(() => window.signetCore !== undefined);
  // One client for the test, its events kept as JSON text for the scan at the end.
  await page.evaluate(async () => {
    const core = window.signetCore!;
    const user = await window.e2e!.signUp("hygiene");
    const { ids } = user;
    const events: string[] = [];
    const client = window.e2e!.client(user, {
      onEvent: (event) => events.push(JSON.stringify(event)),
    });
    Object.assign(window, { hygiene: { core, client, ids, events } });
  });
}

type Hygiene = {
  core: NonNullable<typeof window.signetCore>;
  client: ReturnType<NonNullable<typeof window.signetCore>["createClient"]>;
  ids: { customerId: string; accountId: string; emailCredentialId: string };
  events: string[];
};
declare global {
  interface Window {
    hygiene?: Hygiene;
  }
}

const signIn = (page: Page) =>
  page.evaluate(async () => {
    const { core, client, ids } = window.hygiene!;
    const otp = await core.requestOtp(client, { credentialId: ids.emailCredentialId });
    return (await core.verifyOtp(client, { ...otp, otpCode: "000000" })).id;
  });

test("session keys: non-extractable in IndexedDB, gone after sign-out, revoke and expiry; no secret in events, errors or the console", async ({
  page,
}) => {
  const consoleLines: string[] = [];
  page.on("console", (message) => consoleLines.push(message.text()));
  const stamps: string[] = [];
  page.on("request", (request) => {
    const stamp = request.headers()["grid-wallet-signature"];
    if (stamp) stamps.push(stamp);
  });
  await openPage(page);

  // Sign in: one record, a CryptoKey that script cannot export.
  await signIn(page);
  expect(await storedKeys(page)).toEqual([
    { type: "webcrypto", extractable: false, exported: "InvalidAccessError" },
  ]);

  // Sign out: the record is gone.
  await page.evaluate(() =>
    window.hygiene!.core.signOut(window.hygiene!.client, {
      accountId: window.hygiene!.ids.accountId,
    }),
  );
  expect(await storedKeys(page)).toEqual([]);

  // Revoke: of two sessions, the revoked one's key is deleted, the other stays.
  const first = await signIn(page);
  await signIn(page);
  expect(await storedKeys(page)).toHaveLength(2);
  await page.evaluate(
    (sessionId) =>
      window.hygiene!.core.revokeSession(window.hygiene!.client, {
        accountId: window.hygiene!.ids.accountId,
        sessionId,
      }),
    first,
  );
  expect(await storedKeys(page)).toHaveLength(1);

  // Expiry: the service's clock moves past the session's end; the client learns the time from the
  // next answer and drops the expired session with its key.
  await fetch(`${server.emulator.url}/_emulator/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ advanceMs: 16 * 60_000 }),
  });
  const afterExpiry = await page.evaluate(async () => {
    const { core, client, ids } = window.hygiene!;
    await core.listCredentials(client, { accountId: ids.accountId });
    return core.getSession(client, { accountId: ids.accountId });
  });
  expect(afterExpiry).toBeUndefined();
  expect(await storedKeys(page)).toEqual([]);

  // Secrets a run handles: a wrong OTP typed by the user, the mnemonic, every stamp sent.
  await signIn(page);
  const { mnemonic, wrongOtpError } = await page.evaluate(async () => {
    const { core, client, ids } = window.hygiene!;
    const otp = await core.requestOtp(client, { credentialId: ids.emailCredentialId });
    const wrongOtpError = await core.verifyOtp(client, { ...otp, otpCode: "482913" }).then(
      () => "accepted",
      (error: Error) =>
        `${error.name} ${error.message} ${JSON.stringify(error)} ${String((error as { cause?: unknown }).cause)}`,
    );
    const mnemonic = await core.exportWallet(client, { accountId: ids.accountId });
    return { mnemonic, wrongOtpError };
  });
  expect(mnemonic.split(" ")).toHaveLength(12);
  expect(wrongOtpError).toMatch(/SignetError/);
  const events = await page.evaluate(() => window.hygiene!.events);
  expect(events.length).toBeGreaterThan(10);
  expect(stamps.length).toBeGreaterThan(3);
  const haystacks = {
    events: events.join("\n"),
    error: wrongOtpError,
    console: consoleLines.join("\n"),
  };
  const secrets = {
    "the wrong OTP code": "482913",
    "the mnemonic": mnemonic,
    ...Object.fromEntries(stamps.map((s, i) => [`stamp ${i}`, s])),
  };
  for (const [where, text] of Object.entries(haystacks)) {
    for (const [what, secret] of Object.entries(secrets)) {
      expect(text.includes(secret), `${what} appears in ${where}`).toBe(false);
    }
    // Mnemonic words in order, even when split differently.
    expect(
      text.includes(mnemonic.split(" ").slice(0, 3).join(" ")),
      `mnemonic words in ${where}`,
    ).toBe(false);
  }
});

test("the engines' count (e2e/engines/key-hygiene.test.ts): no exportable key, no known scalar in a dump of IndexedDB and Web Storage, only the revoked key goes, nothing left after sign-out", async ({
  page,
}) => {
  await page.goto(server.origin);
  await page.waitForFunction(() => window.signetCore !== undefined && window.e2e !== undefined);
  const counts = await page.evaluate(keyHygieneInPage, { rounds: 3 });
  console.info(`key hygiene in chromium: ${JSON.stringify(counts)}`);
  expect(counts).toEqual(keyHygieneExpected(3));
});

test('an IndexedDB that refuses keys is reported as persistence "memory", and sign-in still works', async ({
  page,
}) => {
  // Safari private browsing and Lockdown Mode refuse to store a CryptoKey (DataCloneError).
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (value: unknown, key?: IDBValidKey) {
      const holdsKey =
        typeof value === "object" &&
        value !== null &&
        Object.values(value).some((v) => v instanceof CryptoKey);
      if (value instanceof CryptoKey || holdsKey)
        throw new DOMException("CryptoKey cannot be cloned", "DataCloneError");
      return put.call(this, value, key);
    };
  });
  await openPage(page);
  const persistence = await page.evaluate(() => window.hygiene!.client.persistence());
  expect(persistence).toBe("memory");
  await signIn(page);
  const session = await page.evaluate(() =>
    window.hygiene!.core.getSession(window.hygiene!.client, {
      accountId: window.hygiene!.ids.accountId,
    }),
  );
  expect(session?.id).toMatch(/^Session:/);
  expect(await storedKeys(page)).toEqual([]);
});
