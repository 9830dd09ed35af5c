// Two tabs of one origin signing and refreshing at once, in real Chromium (one IndexedDB, Web
// Locks, BroadcastChannel): one network refresh for both, no stamp from a dead session, and a
// sign-out in one tab seen by the other.
import { expect, type Page, test } from "@playwright/test";
import { type E2eUser, startWalletServer, type WalletServer } from "./fixtures/walletServer.js";

let server: WalletServer;
test.beforeAll(async () => {
  server = await startWalletServer();
});
test.afterAll(async () => {
  await server?.close();
});

type Tab = {
  core: NonNullable<typeof window.signetCore>;
  client: ReturnType<NonNullable<typeof window.signetCore>["createClient"]>;
};
declare global {
  interface Window {
    tab?: Tab;
  }
}

async function openTab(page: Page, user: E2eUser) {
  await page.goto(server.origin);
  await page.waitForFunction(() => window.e2e !== undefined);
  await page.evaluate((user) => {
    window.tab = { core: window.signetCore!, client: window.e2e!.client(user) };
  }, user);
}

async function requests(path: string) {
  const log = (await (await fetch(`${server.emulator.url}/_emulator/requests`)).json()) as {
    data: { method: string; path: string; status: number }[];
  };
  return log.data.filter((r) => r.path.includes(path));
}

test("two tabs refreshing at once: one network refresh, both on the new session; a sign-out shows in both", async ({
  context,
}) => {
  const first = await context.newPage();
  const second = await context.newPage();
  await first.goto(server.origin);
  await first.waitForFunction(() => window.e2e !== undefined);
  const user = await first.evaluate(() => window.e2e!.signUp("tabs"));
  const { ids } = user;
  await openTab(first, user);
  await openTab(second, user);

  const session = await first.evaluate(async (credentialId) => {
    const { core, client } = window.tab!;
    const otp = await core.requestOtp(client, { credentialId });
    return core.verifyOtp(client, { ...otp, otpCode: "000000" });
  }, ids.emailCredentialId);
  // The second tab reads the same IndexedDB.
  await expect
    .poll(() =>
      second.evaluate(
        (accountId) =>
          window.tab!.core.getSession(window.tab!.client, { accountId }).then((s) => s?.id),
        ids.accountId,
      ),
    )
    .toBe(session.id);

  await fetch(`${server.emulator.url}/_emulator/requests`, { method: "DELETE" });
  const refresh = (page: Page) =>
    page.evaluate(
      (accountId) =>
        window.tab!.core.refreshSession(window.tab!.client, { accountId }).then((s) => s.id),
      ids.accountId,
    );
  const [a, b] = await Promise.all([refresh(first), refresh(second)]);
  // One refresh on the network (two legs: the 202 challenge and the 201), one new session for both.
  expect((await requests("/refresh")).map((r) => r.status)).toEqual([202, 201]);
  expect(a).toBe(b);
  expect(a).not.toBe(session.id);

  // Both tabs sign with the new session: no stamp from the ended one reaches the service.
  await fetch(`${server.emulator.url}/_emulator/requests`, { method: "DELETE" });
  const exports = await Promise.all(
    [first, second].map((page) =>
      page.evaluate(
        (accountId) =>
          window
            .tab!.core.exportWallet(window.tab!.client, { accountId })
            .then((m) => m.split(" ").length),
        ids.accountId,
      ),
    ),
  );
  expect(exports).toEqual([12, 12]);
  expect((await requests("/export")).filter((r) => r.status === 401)).toEqual([]);

  // A sign-out in the first tab: word of it reaches the second (BroadcastChannel, then a re-read
  // of the shared key store), which then finds no session and signs nothing.
  await first.evaluate(
    (accountId) => window.tab!.core.signOut(window.tab!.client, { accountId }),
    ids.accountId,
  );
  await expect
    .poll(() =>
      second.evaluate(
        (accountId) =>
          window.tab!.core.getSession(window.tab!.client, { accountId }).then((s) => s?.id ?? null),
        ids.accountId,
      ),
    )
    .toBeNull();
  const after = await second.evaluate(async (accountId) => {
    const { core, client } = window.tab!;
    const held = await core.getSession(client, { accountId });
    const error = await core.exportWallet(client, { accountId }).then(
      () => "exported",
      (e: { code?: string }) => e.code,
    );
    return { held: held?.id ?? null, error };
  }, ids.accountId);
  expect(after).toEqual({ held: null, error: "NO_SESSION" });
});
