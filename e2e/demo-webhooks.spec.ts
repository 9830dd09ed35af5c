// Webhooks pushed to the waiting tab (issue #37 item 2), in Chromium with the demo: its server
// hosts the relay (with the webhook receiver) and the emulator (DEMO_WEBHOOKS=1), which signs and
// sends the service's wallet-operation webhooks (#802). An export the service answers PROCESSING
// ends on the push: the tab's one re-send follows the relay's push, not its (20 s) fallback poll.
import { expect, test } from "@playwright/test";
import type { DemoServer } from "../apps/demo/server/server.js";
import { freshEmail, openScreen, signUp, startDemo, watchConsole } from "./demo/harness.js";

let demo: DemoServer;
test.beforeAll(async () => {
  demo = await startDemo({ webhooks: true });
});
test.afterAll(async () => {
  await demo?.close();
});

test("a PROCESSING export ends when the webhook reaches the waiting tab", async ({ page }) => {
  const problems = watchConsole(page);
  const seen: string[] = [];
  page.on("response", (r) => {
    const path = new URL(r.url()).pathname;
    if (/\/api\/grid\/internal-accounts\/[^/]+\/export$/.test(path))
      seen.push(`export ${r.status()}`);
    if (path.includes("/api/grid/wallet-operations/")) seen.push(`push ${r.status()}`);
  });
  await signUp(page, demo.url, freshEmail("push"));
  await openScreen(page, "Export");
  // Signed in a moment ago: the demo's step-up (five minutes) asks for nothing more.
  await page.getByLabel("I am alone and nobody can see my screen").check();
  const armed = await fetch(`${demo.emulator!.url}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      kind: "processing",
      match: { method: "POST", path: "/internal-accounts" },
    }),
  });
  expect(armed.status).toBe(201);
  await page.getByRole("button", { name: "Reveal recovery phrase" }).click();
  await expect(
    page.getByRole("list", { name: "Recovery phrase" }).getByRole("listitem"),
  ).toHaveCount(12);
  // The push came back before the one re-send that collected the phrase; a wait ended by the
  // fallback poll would have stopped the tab's listener instead (no answer to record).
  expect(seen).toEqual(["export 202", "export 200", "push 200", "export 200"]);
  // The emulator's delivery was taken by the relay at its first attempt.
  const deliveries = (await (await fetch(`${demo.emulator!.url}/_emulator/webhooks`)).json()) as {
    data: { type: string; status: number }[];
  };
  expect(deliveries.data.map((d) => [d.type, d.status])).toContainEqual([
    "WALLET_OPERATION.COMPLETED",
    200,
  ]);
  expect(problems).toEqual([]);
});
