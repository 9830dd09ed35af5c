// One kept call, two tabs (docs/protocol.md §2.5): in real Chromium, two pages of one context share
// the kept call in IndexedDB (`signet-pending`) and the Web Lock named after its request id, so
// when both open at once only one re-sends it. A sign-out the emulator holds in PROCESSING is kept
// by a page that then closes; two pages open together, both resume on load, and the emulator's log
// shows one run of re-sends of that one request, no new challenge, one 204 and no re-send after it
// (which would meet the spent request id).
import { expect, type Page, test } from "@playwright/test";
import type { DemoServer } from "../apps/demo/server/server.js";
import { freshEmail, openScreen, signUp, startDemo, watchConsole } from "./demo/harness.js";

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
const revokes = async () => {
  const log = (await (await fetch(`${emulator()}/_emulator/requests`)).json()) as {
    data: Logged[];
  };
  return log.data.filter((r) => r.method === "DELETE" && r.path.includes("/auth/sessions/"));
};
const arm = async (count: number) => {
  const armed = await fetch(`${emulator()}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      match: { method: "DELETE", path: "/auth/sessions/" },
      count,
      kind: "processing",
    }),
  });
  expect(armed.status).toBe(201);
};

/** The kept calls of the origin, by action, as IndexedDB holds them. */
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

/** Waits until the emulator's log of revokes has not grown for 500 ms. */
async function quiet() {
  let seen = -1;
  for (;;) {
    const now = (await revokes()).length;
    if (now === seen) return;
    seen = now;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

test("two tabs opening with one kept call: one re-sends it, the other finds it done", async ({
  context,
}) => {
  const first = await context.newPage();
  await signUp(first, demo.url, freshEmail("pending-tabs"));
  await fetch(`${emulator()}/_emulator/requests`, { method: "DELETE" });
  await arm(1000);
  await openScreen(first, "Sessions");
  await first.getByRole("button", { name: "Sign out" }).click();
  await expect(first.getByTestId("pending")).toContainText("Still signing you out…");
  await expect.poll(() => keptActions(first)).toEqual(["signOut"]);
  // The tab goes (its lock with it); the copy stays for the next page. The send it had in
  // flight still lands on the armed fault before the faults change.
  await first.close();
  await quiet();
  const before = await revokes();
  expect(before[0]?.status).toBe(202);
  expect(before.slice(1).every((r) => r.fault === "processing")).toBe(true);
  await fetch(`${emulator()}/_emulator/faults`, { method: "DELETE" });
  await fetch(`${emulator()}/_emulator/requests`, { method: "DELETE" });
  // Still processing for three more answers: the tab that resumes holds the lock meanwhile.
  await arm(3);

  const tabs = [await context.newPage(), await context.newPage()];
  const problems = tabs.map((tab) => watchConsole(tab));
  await Promise.all(tabs.map((tab) => tab.goto(demo.url)));
  // Three PROCESSING answers under the default backoff, then the 204.
  await expect
    .poll(async () => (await revokes()).some((r) => r.status === 204), { timeout: 30_000 })
    .toBe(true);
  // Time for a second tab to re-send, were the lock not held across tabs.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await quiet();
  const after = await revokes();
  expect(after.map((r) => r.fault ?? r.status)).toEqual([
    "processing",
    "processing",
    "processing",
    204,
  ]);
  // Every re-send was of the one kept request: one session, no new challenge.
  expect(new Set(after.map((r) => r.path)).size).toBe(1);
  for (const tab of tabs) {
    await expect.poll(() => keptActions(tab)).toEqual([]);
    await expect(tab.getByTestId("pending")).toHaveCount(0, { timeout: 30_000 });
    await expect(tab.getByRole("navigation", { name: "Wallet" })).toHaveCount(0);
  }
  expect(problems.flat()).toEqual([]);
});
