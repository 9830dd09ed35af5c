// A call the service still answers PROCESSING for (docs/protocol.md §2.5, the service's #850),
// carried to its end across a reload in Chromium: the demo signs out while the emulator holds the
// session revoke in PROCESSING, the page says so, the page reloads, and the new page re-sends the
// same stamped request (no new challenge) until the revoke settles. A sign-in by code held in
// PROCESSING is carried on the same way, and the reloaded page ends signed in; so is a sign-in by
// passkey (the CDP virtual authenticator's assertion), whose kept verify goes unsigned.
import { expect, type Page, test } from "@playwright/test";
import type { DemoServer } from "../apps/demo/server/server.js";
import {
  addAuthenticator,
  freshEmail,
  openScreen,
  signUp,
  startDemo,
  watchConsole,
} from "./demo/harness.js";

let demo: DemoServer;
test.beforeAll(async () => {
  demo = await startDemo();
});
test.afterAll(async () => {
  await demo?.close();
});

test.describe.configure({ timeout: 90_000 });

type Logged = { method: string; path: string; status: number; fault?: string };

const emulator = () => demo.emulator!.url;
const logged = async () =>
  ((await (await fetch(`${emulator()}/_emulator/requests`)).json()) as { data: Logged[] }).data;
const revokes = async () =>
  (await logged()).filter((r) => r.method === "DELETE" && r.path.includes("/auth/sessions/"));

/** The actions of the calls kept in the page's IndexedDB (`signet-pending`). */
const keptActions = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open("signet-pending");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("calls")) return resolve([]);
          const all = db.transaction("calls").objectStore("calls").getAll();
          all.onsuccess = () =>
            resolve((all.result as { action: string }[]).map((call) => call.action));
        };
      }),
  );

test("a sign-out still processing survives a reload and finishes after it", async ({ page }) => {
  const problems = watchConsole(page);
  await signUp(page, demo.url, freshEmail("pending"));
  await fetch(`${emulator()}/_emulator/requests`, { method: "DELETE" });
  // The service holds every session revoke in PROCESSING until told otherwise.
  const armed = await fetch(`${emulator()}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      match: { method: "DELETE", path: "/auth/sessions/" },
      count: 1000,
      kind: "processing",
    }),
  });
  expect(armed.status).toBe(201);

  await openScreen(page, "Sessions");
  await page.getByRole("button", { name: "Sign out" }).click();
  const pending = page.getByTestId("pending");
  await expect(pending).toContainText("Still signing you out…");
  // Kept for the next page: the stamped request in IndexedDB, never a private key.
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<string[]>((resolve, reject) => {
            const open = indexedDB.open("signet-pending");
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains("calls")) return resolve([]);
              const all = db.transaction("calls").objectStore("calls").getAll();
              all.onsuccess = () =>
                resolve((all.result as { action: string }[]).map((call) => call.action));
            };
          }),
      ),
    )
    .toEqual(["signOut"]);
  const before = await revokes();
  expect(before[0]?.status).toBe(202);
  expect(before.slice(1).every((r) => r.fault === "processing")).toBe(true);

  await page.reload();
  // The new page carries the call on, still held in PROCESSING.
  await expect(pending).toContainText("Still signing you out… (carried on after a reload)");
  const heldAt = (await revokes()).length;
  await expect.poll(async () => (await revokes()).length).toBeGreaterThan(heldAt);

  // The service settles it: the next re-send gets its 204, and the page is signed out.
  await fetch(`${emulator()}/_emulator/faults`, { method: "DELETE" });
  await expect(pending).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByRole("navigation", { name: "Wallet" })).toHaveCount(0);
  const after = await revokes();
  expect(after.at(-1)?.status).toBe(204);
  // One challenge in all: the reload re-sent the stamped request, it never started over.
  expect(after.filter((r) => r.status === 202)).toHaveLength(1);
  expect(after.filter((r) => r.status === 204)).toHaveLength(1);
  expect(
    await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const open = indexedDB.open("signet-pending");
          open.onsuccess = () => {
            const all = open.result.transaction("calls").objectStore("calls").count();
            all.onsuccess = () => resolve(all.result);
          };
        }),
    ),
  ).toBe(0);
  expect(problems).toEqual([]);
});

test("a sign-in by code still processing survives a reload: the new page ends signed in", async ({
  page,
}) => {
  const problems = watchConsole(page);
  await signUp(page, demo.url, freshEmail("pendingsignin"));
  const wallet = page.getByRole("navigation", { name: "Wallet" });
  await openScreen(page, "Sessions");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(wallet).toHaveCount(0);
  await fetch(`${emulator()}/_emulator/requests`, { method: "DELETE" });
  await page.getByRole("button", { name: /Email a code/ }).click();
  // The code went out: the verify's path is the challenged credential's.
  await expect
    .poll(async () => (await logged()).some((r) => r.path.endsWith("/challenge")))
    .toBe(true);
  const challenge = (await logged()).find((r) => r.path.endsWith("/challenge"))!;
  const verifyPath = challenge.path.replace(/\/challenge$/, "/verify");
  // The service holds the verify in PROCESSING until told otherwise.
  const armed = await fetch(`${emulator()}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      match: { method: "POST", path: verifyPath },
      count: 1000,
      kind: "processing",
    }),
  });
  expect(armed.status).toBe(201);
  await page.getByLabel("6-digit code").fill("000000");
  const pending = page.getByTestId("pending");
  await expect(pending).toContainText("Still signing you in…");
  // Kept for the next page: the stamped verify, its key's public key only.
  await expect.poll(() => keptActions(page)).toEqual(["verifyOtp"]);
  const verifies = async () => (await logged()).filter((r) => r.path === verifyPath);
  expect((await verifies())[0]?.status).toBe(202);

  await page.reload();
  await expect(pending).toContainText("Still signing you in… (carried on after a reload)");
  const heldAt = (await verifies()).length;
  await expect.poll(async () => (await verifies()).length).toBeGreaterThan(heldAt);

  // The service settles it: the next re-send gets the session, and the reloaded page holds it.
  await fetch(`${emulator()}/_emulator/faults`, { method: "DELETE" });
  await expect(wallet).toBeVisible({ timeout: 30_000 });
  await expect(pending).toHaveCount(0);
  const after = await verifies();
  // One challenge in all: the reload re-sent the stamped verify, it never started over.
  expect(after.filter((r) => r.status === 202)).toHaveLength(1);
  expect(after.at(-1)).toMatchObject({ status: 200 });
  expect(after.at(-1)?.fault).toBeUndefined();
  expect(await keptActions(page)).toEqual([]);
  // The session signs: the Sessions screen lists it, read with it.
  await openScreen(page, "Sessions");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("a sign-in by passkey still processing survives a reload: the new page ends signed in", async ({
  page,
}) => {
  const problems = watchConsole(page);
  await addAuthenticator(page);
  await signUp(page, demo.url, freshEmail("pendingpasskey"));
  const wallet = page.getByRole("navigation", { name: "Wallet" });
  await openScreen(page, "Sign-in methods");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByText("Passkey added.")).toBeVisible();
  await openScreen(page, "Sessions");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(wallet).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Unlock your wallet" })).toBeVisible();
  await fetch(`${emulator()}/_emulator/requests`, { method: "DELETE" });
  // The service holds the passkey's verify in PROCESSING until told otherwise: armed as the
  // page's first verify leaves (its path names the passkey's credential).
  let verifyPath: string | undefined;
  await page.route(/\/auth\/credentials\/[^/]+\/verify$/, async (route) => {
    if (verifyPath === undefined) {
      verifyPath = new URL(route.request().url()).pathname.replace(/^.*(?=\/auth\/)/, "");
      const armed = await fetch(`${emulator()}/_emulator/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          match: { method: "POST", path: verifyPath },
          count: 1000,
          kind: "processing",
        }),
      });
      expect(armed.status).toBe(201);
    }
    await route.continue();
  });
  await page.getByRole("button", { name: "Sign in with passkey" }).click();
  const pending = page.getByTestId("pending");
  await expect(pending).toContainText("Still signing you in…");
  // Kept for the next page: the unsigned verify, its key's public key only.
  await expect.poll(() => keptActions(page)).toEqual(["signInWithPasskey"]);
  const verifies = async () => (await logged()).filter((r) => r.path === verifyPath);
  expect((await verifies())[0]?.fault).toBe("processing");

  await page.unroute(/\/auth\/credentials\/[^/]+\/verify$/);
  await page.reload();
  await expect(pending).toContainText("Still signing you in… (carried on after a reload)");
  const heldAt = (await verifies()).length;
  await expect.poll(async () => (await verifies()).length).toBeGreaterThan(heldAt);

  // The service settles it: the next re-send gets the session, proven and held by the new page.
  await fetch(`${emulator()}/_emulator/faults`, { method: "DELETE" });
  await expect(wallet).toBeVisible({ timeout: 30_000 });
  await expect(pending).toHaveCount(0);
  const log = await logged();
  // One challenge in all: the reload re-sent the verify, it never asked the passkey again.
  const challengePath = verifyPath!.replace(/\/verify$/, "/challenge");
  expect(log.filter((r) => r.path === challengePath)).toHaveLength(1);
  expect((await verifies()).at(-1)).toMatchObject({ status: 200 });
  expect(
    log.some((r) => /\/auth\/sessions\/[^/]+\/refresh$/.test(r.path) && r.status === 201),
  ).toBe(true);
  expect(await keptActions(page)).toEqual([]);
  await openScreen(page, "Sessions");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  expect(problems).toEqual([]);
});
