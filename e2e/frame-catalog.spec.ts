// Every action of core's catalog (packages/core/src/catalog/actionTable.ts) through a client whose
// keys live in the signer frame, in real Chromium, against the emulator over real HTTP (app →
// relay → emulator on loopback; e2e/fixtures/frameServer.ts). The list of actions is the
// catalog's: an action without a runner in e2e/fixtures/frameFlows.ts fails here, so a new action
// cannot skip the frame; those another branch brings (`pendingElsewhere`) are reported, not run.
// Where the frame asks for the user's tap, the test checks what the frame shows (read from the
// checked payload inside the frame) and taps, or cancels, as the runner says.
import { expect, test } from "@playwright/test";
import { actionTable } from "../packages/core/src/catalog/actionTable.js";
import { virtualAuthenticator } from "./fixtures/authenticator.js";
import {
  type CatalogIds,
  emulatorPlatform,
  type FlowArgument,
  frameFlows,
  openCatalogAppInPage,
  pendingElsewhere,
  runThroughFrame,
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
const platform = emulatorPlatform(() => servers.emulator.url);

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
    if (flow.passkey) await virtualAuthenticator(page);

    const ids: CatalogIds = await signUpCatalogCustomer(platform);
    const argument: FlowArgument = { ids, ...(await flow.prepare?.(platform, ids)) };
    await page.goto(servers.app);
    await page.waitForFunction(() => window.appReady === true);
    await page.evaluate(openCatalogAppInPage, { frameUrl: `${servers.frame}/`, ids });

    // The action runs in the page while the user answers the frame's confirmations here.
    await runThroughFrame(page, name, flow, argument, ids.accountId);
  });
}
