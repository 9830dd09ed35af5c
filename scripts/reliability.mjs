#!/usr/bin/env node
// `pnpm reliability`: runs the reliability suites with their long settings (the fault soak and the
// whole single-fault matrix at the libraries' default time limits, 10,000 hostile cases per
// property, every abuse category) and writes RELIABILITY.md from the counts they report. Every
// number in it comes from this run. `npm test` runs the same suites with a short seed (the fault
// suites with every time limit scaled down together, and a sample of the matrix).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { faultSections } from "./reliability-faults.mjs";

const root = new URL("..", import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), "signet-reliability-"));
const flows = Number(process.env.SOAK_FLOWS ?? 2_000);
const runs = Number(process.env.HOSTILE_RUNS ?? 10_000);
const seed = Number(process.env.SOAK_SEED ?? 20261122);
const started = Date.now();
const revision = (() => {
  const r = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" });
  const dirty = spawnSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8" });
  return r.status === 0
    ? `${r.stdout.trim()}${dirty.stdout.trim() ? " with local changes" : ""}`
    : "unknown";
})();
console.log(
  `reliability: ${flows} soak flows (seed ${seed}) and the whole matrix at the default time limits, ${runs} hostile cases per property`,
);
const vitest = spawnSync(
  join(root, "node_modules/.bin/vitest"),
  [
    "run",
    "test/reliability.soak.test.ts",
    "test/reliability.matrix.test.ts",
    "test/reliability.hostile.test.ts",
    "test/reliability.abuse.test.ts",
    "test/reliability.compromised.test.ts",
    "test/reliability.sessions.test.ts",
  ],
  {
    cwd: root,
    stdio: "inherit",
    env: {
      ...process.env,
      RELIABILITY_OUT: out,
      SOAK_FLOWS: String(flows),
      // The libraries' defaults: nothing scaled. Many flows at once, since most of a flow's time
      // is spent waiting out a time limit it met.
      SOAK_SCALE: "1",
      SOAK_CONCURRENCY: process.env.SOAK_CONCURRENCY ?? "250",
      SOAK_DEVICE_RATE: process.env.SOAK_DEVICE_RATE ?? "0.1",
      SOAK_SERVICE_RATE: process.env.SOAK_SERVICE_RATE ?? "0.04",
      MATRIX_FULL: "1",
      MATRIX_SCALE: "1",
      MATRIX_CONCURRENCY: process.env.MATRIX_CONCURRENCY ?? "48",
      HOSTILE_RUNS: String(runs),
      SOAK_SEED: String(seed),
      SESSION_SIGN_INS: process.env.SESSION_SIGN_INS ?? "200",
      SESSION_TAB_ROUNDS: process.env.SESSION_TAB_ROUNDS ?? "100",
      SESSION_TABS: process.env.SESSION_TABS ?? "4",
    },
  },
);
const read = (name) => JSON.parse(readFileSync(join(out, `${name}.json`), "utf8"));
let soak;
let matrix;
let hostile;
let abuse;
let compromised;
let sessionKeys;
let sessionTabs;
try {
  soak = read("soak");
  matrix = read("matrix");
  hostile = [...read("hostile-bundles"), ...read("hostile-answers"), ...read("hostile-servers")];
  abuse = read("abuse");
  compromised = read("compromised");
  sessionKeys = read("sessions-keys");
  sessionTabs = read("sessions-tabs");
} catch (error) {
  console.error("reliability: a suite did not report its counts", error);
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });

const n = (v) => Number(v).toLocaleString("en-US");
const zero = (v) => (v === 0 ? "0" : `**${n(v)}**`);

/** RELIABILITY.md "Key hygiene" and "Several tabs", from test/reliability/sessions.ts. */
function sessionSections(keys, tabs) {
  const t = tabs;
  return [
    "## Key hygiene",
    "",
    "`test/reliability.sessions.test.ts` (`runKeyHygiene`): real email sign-ins through core → relay → emulator, per crypto engine that runs in Node. Each session key is made from a scalar the run knows (imported with the engine's defaults), so what a script could dump is searched for it in hex, HEX, base64 and base64url. Per sign-in: the key is checked and the store dumped, then the device signs out; a second sign-in's stored key becomes unreadable and the app reloads (the session is `lost`); a third session is revoked from another device and a signed call meets the 401 (the session is `rejected`).",
    "",
    "| engine | where keys lived | sign-ins | keys held | exportable by script | scalar in the store dump | scalar in events, snapshot, key ids, errors | keys left after sign-out | after a 401 | after a lost key |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...keys.map(
      (r) =>
        `| ${r.engine} | ${r.store} | ${n(r.signIns)} | ${n(r.keysHeld)} | ${r.scalarRecords ? `scalar records: ${n(r.scalarRecords)} (by design)` : zero(r.exportable)} | ${zero(r.scalarInStoreDump)} | ${zero(r.scalarInEventsOrErrors)} | ${zero(r.keysLeftAfterSignOut)} | ${zero(r.keysLeftAfterRejected)} | ${zero(r.keysLeftAfterLost)} |`,
    ),
    "",
    `Exportable by script: WebCrypto \`CryptoKey\`s that \`crypto.subtle.exportKey\` could read (they are made non-extractable). Noble keys are scalars (React Native has no WebCrypto), which only the app's secure store protects; their dump leaves out the record's own \`privateKey\` field, where the search found the scalar ${keys
      .filter((r) => r.scalarInOwnRecord)
      .map((r) => `${n(r.scalarInOwnRecord)} times in ${n(r.signIns)}`)
      .join(
        ", ",
      )} (the search's own check). The browsers are not in this run; their own suites assert the same must-nevers and print their counts: \`e2e/key-hygiene.spec.ts\` (Chromium) and \`e2e/engines/key-hygiene.test.ts\` (Firefox ESR, WebKitGTK) sign in with core's default IndexedDB store and find every stored key a non-extractable \`CryptoKey\` that \`exportKey\` refuses, no known scalar in a dump of the origin's IndexedDB and Web Storage or in the events, only the revoked session's key gone after a revoke, and nothing left after sign-out.`,
    "",
    "## Several tabs",
    "",
    `\`runSeveralTabs\`: ${n(t.rounds)} rounds of ${n(t.tabs)} clients of one origin sharing one key store, a Web Locks–style lock manager and \`BroadcastChannel\` (as \`session/crossTab.ts\` uses them), a fresh customer each round, over real HTTP. The emulator's clock and the tabs' clocks move together.`,
    "",
    "| what happened | runs | what was counted | must never happen | count |",
    "|---|---|---|---|---|",
    `| every tab refreshes the session at once | ${n(t.rounds)} | ${n(t.refresh.networkRefreshes)} network refreshes | a second refresh; a tab left on another session | ${zero(t.refresh.extraRefreshes)}; ${zero(t.refresh.tabsOnAnotherSession)} |`,
    `| one tab signs out | ${n(t.rounds)} | ${n(t.signOut.revokes)} revokes sent | a session revoked twice; a tab still signed in; a sign-out event in another tab | ${zero(t.signOut.sessionsRevokedTwice)}; ${zero(t.signOut.tabsStillSignedIn)}; ${zero(t.signOut.signedOutEventsInOtherTabs)} |`,
    `| every tab signs out at once | ${n(t.rounds)} | ${n(t.signOutAtOnce.revokes)} revokes sent | a session revoked twice; a sign-out that failed; a tab still signed in | ${zero(t.signOutAtOnce.sessionsRevokedTwice)}; ${zero(t.signOutAtOnce.failedSignOuts)}; ${zero(t.signOutAtOnce.tabsStillSignedIn)} |`,
    `| the session is revoked elsewhere, every tab makes a signed call at once | ${n(t.rounds)} | ${n(t.rejected.unauthorizedAnswers)} answers 401, ${n(t.rejected.clearings)} clearings | more than one clearing; none; a tab still holding it | ${zero(t.rejected.extraClearings)}; ${zero(t.rejected.missedClearings)}; ${zero(t.rejected.tabsStillHolding)} |`,
    `| one tab's session expires while another tab's newer one does not; the tabs wake | ${n(t.rounds)} | ${n(t.expiry.expiredDropped)} tabs dropped the expired one | the other session dropped; the expired one still held | ${zero(t.expiry.otherSessionDropped)}; ${zero(t.expiry.expiredStillHeld)} |`,
    "",
  ];
}
const lines = [
  "# Reliability",
  "",
  `Generated by \`pnpm reliability\` (scripts/reliability.mjs) on ${new Date().toISOString().slice(0, 10)} at revision ${revision} in ${Math.round((Date.now() - started) / 1000)} s, Node ${process.version}. Every count below comes from that run; the suites behind it are \`test/reliability.soak.test.ts\`, \`test/reliability.matrix.test.ts\`, \`test/reliability.hostile.test.ts\`, \`test/reliability.abuse.test.ts\`, \`test/reliability.compromised.test.ts\` and \`test/reliability.sessions.test.ts\`, which \`npm test\` (and so CI) runs with a short seed: the fault soak there is 60 flows, 24 at a time, and the matrix a sample of one fault kind per step and hop (turning with the seed), both with every time limit scaled by 0.1 (client and relay 3 s per attempt or call, backoff 50 ms doubling to 800 ms, challenges 30 s), which keeps a delay past a limit past it in the same proportion. Re-run it to check them.`,
  "",
  ...faultSections(soak, matrix),
  "## Hostile input",
  "",
  "fast-check properties: arbitrary and near-valid input into every bundle parser, every service answer the client reads (status and body replaced at every step), and every method, path, query, header and body the relay and the emulator can receive. A tampered bundle is a valid one with one hex digit (or base58 character) changed inside its signed or sealed part.",
  "",
  "| target | cases | typed rejection | accepted | untyped | hung | 5xx | tampered accepted |",
  "|---|---|---|---|---|---|---|---|",
  ...hostile.map(
    (c) =>
      `| ${c.name} | ${n(c.cases)} | ${n(c.typed)} | ${n(c.accepted)} | ${zero(c.untyped)} | ${zero(c.hung)} | ${zero(c.serverErrors)} | ${zero(c.tamperedAccepted)} |`,
  ),
  "",
  '"Accepted" answers are bodies that carry every field the client needs (the client ignores unknown fields, as the protocol asks); for the relay and the emulator, requests that were valid.',
  "",
  "## Relay abuse",
  "",
  "A signed-in attacker against the relay over HTTP, with a victim who holds one of every resource. Let through: the relay answered 2xx, or a write reached the service.",
  "",
  "| category | attempts | refused | let through |",
  "|---|---|---|---|",
  ...abuse.map(
    (c) => `| ${c.category} | ${n(c.attempts)} | ${n(c.refused)} | ${zero(c.letThrough)} |`,
  ),
  "",
  "## Compromised backend",
  "",
  "`test/reliability.compromised.test.ts`: the relay's upstream `fetch` is the attacker (it rewrites what the device sent, answers with a challenge or payload of another operation, or changes the customer with its own API credentials first); the emulator stays honest. Each row's binding and its source in the service's documents: docs/protocol.md §11. Signed: a signature over a payload the attacker arranged reached the relay (the attack would have worked). After each attack the same operation runs unattacked and completes.",
  "",
  "| operation | swap | tried | signed | refused with |",
  "|---|---|---|---|---|",
  ...compromised.map(
    (r) =>
      `| ${r.operation} | ${r.swap} | ${n(r.tried)} | ${zero(r.signed)} | ${Object.entries(
        r.refused,
      )
        .map(([code, count]) => `\`${code}\` ${n(count)}`)
        .join(", ")} |`,
  ),
  "",
  ...sessionSections(sessionKeys, sessionTabs),
  "## Many relays as one",
  "",
  "`packages/relay/test/relay.redis.test.ts` (run by `npm test`): two relay processes behind one port share one rate limit and one ownership cache in a real `redis-server`; with Redis down, writes get `503 RELAY_STORE_UNAVAILABLE` and reads go on; both recover when it returns.",
  "",
];
writeFileSync(join(root, "RELIABILITY.md"), lines.join("\n"));
console.log(`wrote RELIABILITY.md${vitest.status === 0 ? "" : " (some suites failed: see above)"}`);
process.exit(vitest.status ?? 1);
