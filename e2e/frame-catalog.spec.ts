// Every action of core's catalog (packages/core/src/catalog/actionTable.ts) through a client whose
// keys live in the signer frame, in real Chromium, against the emulator over real HTTP (app →
// relay → emulator on loopback; e2e/fixtures/frameServer.ts). The list of actions is the
// catalog's: an action without a runner in e2e/fixtures/frameFlows.ts fails here, so a new action
// cannot skip the frame; those another branch brings (`pendingElsewhere`) are reported, not run.
// Where the frame asks for the user's tap, the test checks what the frame shows (read from the
// checked payload inside the frame) and taps, or cancels, as the runner says.
import { expect, type Page, test } from "@playwright/test";
import { actionTable } from "../packages/core/src/catalog/actionTable.js";
import {
  type CatalogIds,
  type FlowArgument,
  frameFlows,
  openCatalogAppInPage,
  type Platform,
  pendingElsewhere,
  signUpCatalogCustomer,
} from "./fixtures/frameFlows.js";
import { type FrameServers, startFrameServers } from "./fixtures/frameServer.js";

const ACTIONS = Object.keys(actionTable);

let servers: FrameServers;
test.beforeAll(async () => {
  // Short settlement and liveness reviews, so that the flows that wait for them end quickly.
  servers = await startFrameServers({ settlementDelayMs: 200, livenessDelayMs: 300 });
});
test.afterAll(async () => {
  await servers?.close();
});

/** The emulator's platform API, as the app's backend calls it (Node side, Basic auth). */
const platform: Platform = async (method, path, body) => {
  const response = await fetch(`${servers.emulator.url}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from("emulator:emulator").toString("base64")}`,
      "content-type": "application/json",
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await response.json();
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
};

/** Chromium's virtual authenticator (CDP), for the runners that run a WebAuthn ceremony. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

test("the catalog's every action has a runner, or is listed as pending elsewhere", () => {
  const missing = ACTIONS.filter((name) => !frameFlows[name] && !pendingElsewhere.has(name));
  expect(missing, "actions of the catalog with no runner through the frame").toEqual([]);
  // A runner for an action that is no longer in the catalog, or one both run and pending.
  expect(Object.keys(frameFlows).filter((name) => !ACTIONS.includes(name))).toEqual([]);
  expect([...pendingElsewhere.keys()].filter((name) => frameFlows[name])).toEqual([]);
  expect([...pendingElsewhere.keys()].filter((name) => !ACTIONS.includes(name))).toEqual([]);
  for (const [name, why] of pendingElsewhere)
    test.info().annotations.push({ type: "pending elsewhere", description: `${name}: ${why}` });
  console.log(
    `through the frame: ${Object.keys(frameFlows).length} of ${ACTIONS.length} actions run; pending elsewhere: ${[
      ...pendingElsewhere.keys(),
    ].join(", ")}`,
  );
});

for (const name of ACTIONS) {
  test(`${name} through the frame`, async ({ page }) => {
    const flow = frameFlows[name];
    test.skip(
      !flow && pendingElsewhere.has(name),
      `pending elsewhere: ${pendingElsewhere.get(name)}`,
    );
    if (!flow) throw new Error(`${name} has no runner in e2e/fixtures/frameFlows.ts`);
    if (flow.passkey) await addVirtualAuthenticator(page);

    const ids: CatalogIds = await signUpCatalogCustomer(platform);
    const argument: FlowArgument = { ids, ...(await flow.prepare?.(platform, ids)) };
    await page.goto(servers.app);
    await page.waitForFunction(() => window.appReady === true);
    await page.evaluate(openCatalogAppInPage, { frameUrl: `${servers.frame}/`, ids });

    // The action runs in the page while the user answers the frame's confirmations here.
    const running = page.evaluate(flow.run, argument).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    const frame = page.frameLocator("iframe");
    for (const tap of flow.taps?.(argument) ?? []) {
      const confirm = frame.locator("#signet-confirm");
      // The confirmation appears, or the action ends first (its error is the failure).
      const first = await Promise.race([
        running.then(() => "ended"),
        confirm.waitFor({ state: "visible" }).then(
          () => "asked",
          () => "ended",
        ),
      ]);
      if (first === "ended") {
        const outcome = await running;
        if ("error" in outcome) throw outcome.error;
        throw new Error(`${name} ended before the frame asked for "${tap.title}"`);
      }
      await expect(frame.locator("h1")).toHaveText(tap.title);
      const shown = await frame.locator("dd").allTextContents();
      // The account is the one the frame's own session (or the path) names, never the page's word.
      if (tap.account !== false)
        expect(shown[1], "the account the frame shows").toBe(ids.accountId);
      for (const value of tap.shows ?? [])
        expect(shown, `${tap.title} shows ${value}`).toContain(value);
      // This confirmation's own button: it leaves the frame once answered (the next one is new).
      const button = await confirm.elementHandle();
      // The user reads it first (and the frame counts a tap on Confirm only once its button has
      // been seen unobscured for 600 ms).
      await page.waitForTimeout(900);
      await (tap.answer === "cancel" ? frame.locator("#signet-cancel") : confirm).click();
      await button?.waitForElementState("hidden", { timeout: 10_000 });
    }
    const outcome = await running;
    if ("error" in outcome) throw outcome.error;
    flow.check(outcome.result as never, argument);
  });
}
