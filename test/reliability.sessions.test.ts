// Sessions under reliability runs (RELIABILITY.md "Key hygiene" and "Several tabs"): small counts
// here, large ones from `pnpm reliability` (SESSION_SIGN_INS, SESSION_TAB_ROUNDS); every
// must-never is 0.
import { afterAll, beforeAll, expect, it } from "vitest";
import { saveCounts } from "./reliability/output.js";
import { runKeyHygiene, runSeveralTabs } from "./reliability/sessions.js";
import { type Stack, startStack } from "./support/stack.js";

const signIns = Number(process.env.SESSION_SIGN_INS ?? 2);
const rounds = Number(process.env.SESSION_TAB_ROUNDS ?? 2);
const tabs = Number(process.env.SESSION_TABS ?? 3);

let stack: Stack;
let tabsStack: Stack;
beforeAll(async () => {
  // The tabs' run moves the emulator's clock: it gets an emulator of its own.
  [stack, tabsStack] = await Promise.all([startStack(), startStack()]);
});
afterAll(() => Promise.all([stack?.close(), tabsStack?.close()]));

it("key hygiene: no exportable key, no scalar in any dump, event or error, no key left", async () => {
  const rows = await runKeyHygiene(stack, { signIns });
  saveCounts("sessions-keys", rows);
  for (const row of rows) {
    expect(row.signIns).toBe(signIns);
    expect(row.keysHeld).toBe(signIns);
    expect({
      engine: row.engine,
      exportable: row.exportable,
      scalarInStoreDump: row.scalarInStoreDump,
      scalarInEventsOrErrors: row.scalarInEventsOrErrors,
      keysLeftAfterSignOut: row.keysLeftAfterSignOut,
      keysLeftAfterRejected: row.keysLeftAfterRejected,
      keysLeftAfterLost: row.keysLeftAfterLost,
    }).toEqual({
      engine: row.engine,
      exportable: 0,
      scalarInStoreDump: 0,
      scalarInEventsOrErrors: 0,
      keysLeftAfterSignOut: 0,
      keysLeftAfterRejected: 0,
      keysLeftAfterLost: 0,
    });
  }
  // Noble keeps scalars, which only the app's secure store protects: counted, by design.
  expect(rows.find((r) => r.engine === "noble")?.scalarRecords).toBe(signIns);
  // The search works: it finds each scalar where it is meant to be.
  expect(rows.find((r) => r.engine === "noble")?.scalarInOwnRecord).toBe(signIns);
}, 300_000);

it("several tabs: one refresh, sign-out and 401 reach every tab once, expiry touches no other session", async () => {
  const counts = await runSeveralTabs(tabsStack, { rounds, tabs });
  saveCounts("sessions-tabs", counts);
  expect(counts.rounds).toBe(rounds);
  expect(counts.refresh.networkRefreshes).toBe(rounds);
  expect(counts.rejected.unauthorizedAnswers).toBe(rounds * tabs);
  expect(counts.rejected.clearings).toBe(rounds);
  expect(counts.signOutAtOnce.revokes).toBe(rounds);
  expect(counts.expiry.expiredDropped).toBe(rounds * tabs);
  expect({
    extraRefreshes: counts.refresh.extraRefreshes,
    tabsOnAnotherSession: counts.refresh.tabsOnAnotherSession,
    sessionsRevokedTwice: counts.signOut.sessionsRevokedTwice,
    tabsStillSignedIn: counts.signOut.tabsStillSignedIn,
    signedOutEventsInOtherTabs: counts.signOut.signedOutEventsInOtherTabs,
    sessionsRevokedTwiceAtOnce: counts.signOutAtOnce.sessionsRevokedTwice,
    failedSignOutsAtOnce: counts.signOutAtOnce.failedSignOuts,
    tabsStillSignedInAtOnce: counts.signOutAtOnce.tabsStillSignedIn,
    extraClearings: counts.rejected.extraClearings,
    missedClearings: counts.rejected.missedClearings,
    tabsStillHolding: counts.rejected.tabsStillHolding,
    otherSessionDropped: counts.expiry.otherSessionDropped,
    expiredStillHeld: counts.expiry.expiredStillHeld,
  }).toEqual({
    extraRefreshes: 0,
    tabsOnAnotherSession: 0,
    sessionsRevokedTwice: 0,
    tabsStillSignedIn: 0,
    signedOutEventsInOtherTabs: 0,
    sessionsRevokedTwiceAtOnce: 0,
    failedSignOutsAtOnce: 0,
    tabsStillSignedInAtOnce: 0,
    extraClearings: 0,
    missedClearings: 0,
    tabsStillHolding: 0,
    otherSessionDropped: 0,
    expiredStillHeld: 0,
  });
}, 300_000);
