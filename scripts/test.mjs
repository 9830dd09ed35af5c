#!/usr/bin/env node
// Runs every suite of the repository and prints one closing line: "N passed, N failed".
// Works on a machine with only Node 20 and npm: it installs pnpm and the browsers (Chromium, Firefox
// ESR, WebKitGTK's driver with Xvfb) when missing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensurePnpm } from "./pnpm.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const results = join(root, ".test-results");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Debian's packages for the Firefox and WebKit suites (e2e/engines), and what each provides.
const ENGINE_PACKAGES = [
  ["firefox-esr", process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr"],
  ["webkit2gtk-driver", process.env.WEBKIT_DRIVER_PATH ?? "/usr/bin/WebKitWebDriver"],
  ["xvfb", "/usr/bin/Xvfb"],
];

let passed = 0;
let failed = 0;
const failures = [];

function run(cmd, args, options = {}) {
  console.log(`\n$ ${[cmd, ...args].join(" ")}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...options });
  return r.status === 0;
}

function check(name, ok) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(name);
  }
}

// redis-server (Debian's package) for the relay's Redis-store suite; installed when missing.
function ensureRedis() {
  if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0) return;
  if (process.getuid?.() !== 0) {
    console.error(
      "redis-server not found; install Debian's redis-server (the Redis suite needs it).",
    );
    return;
  }
  run("apt-get", ["update", "-qq"]);
  run("apt-get", ["install", "-y", "-qq", "redis-server"], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  if (process.getuid?.() !== 0) {
    console.error(
      `Chromium not found at ${CHROMIUM}; install Debian's chromium or set CHROMIUM_PATH.`,
    );
    return false;
  }
  run("apt-get", ["update", "-qq"]);
  run("apt-get", ["install", "-y", "-qq", "chromium"], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return existsSync(CHROMIUM);
}

function ensureEngines() {
  const missing = ENGINE_PACKAGES.filter(([, path]) => !existsSync(path));
  if (missing.length === 0) return true;
  if (process.getuid?.() !== 0) {
    console.error(
      `Not found: ${missing.map(([, path]) => path).join(", ")}; install Debian's ${missing
        .map(([name]) => name)
        .join(", ")} (the Firefox and WebKit suites need them).`,
    );
    return false;
  }
  run("apt-get", ["update", "-qq"]);
  run("apt-get", ["install", "-y", "-qq", ...missing.map(([name]) => name)], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return ENGINE_PACKAGES.every(([, path]) => existsSync(path));
}

/** Adds a vitest JSON report's counts; false when the report is missing. */
function countVitest(label, file, ok) {
  const report = readJson(file);
  if (!report) return false;
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  if ((report.numFailedTests ?? 0) > 0) failures.push(`${label}: ${report.numFailedTests} failed`);
  // A suite that failed to load counts as a failure even when it has no tests.
  const broken = (report.testResults ?? []).filter(
    (s) => s.status === "failed" && s.assertionResults.length === 0,
  );
  if (broken.length)
    check(`${label} suites that failed to load: ${broken.map((s) => s.name).join(", ")}`, false);
  if (!ok && (report.numFailedTests ?? 0) === 0 && broken.length === 0)
    check(`${label} exit status`, false);
  return true;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

const [pnpm, ...pnpmArgs] = ensurePnpm();
const runPnpm = (args, options) => run(pnpm, [...pnpmArgs, ...args], options);
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const installed = runPnpm(["install", "--frozen-lockfile"]);
check("install", installed);
if (!installed) finish();

check("build", runPnpm(["run", "build"]));
check("typecheck", runPnpm(["run", "typecheck"]));
check("lint", runPnpm(["exec", "biome", "check", "."]));
// The catalog of actions (scripts/catalog.ts): every copy generated from the action files' rows is
// current, and every action has each hand-written place it needs; the failure names them all.
check("catalog of actions", run("node", ["scripts/actions.mjs"]));
// The release, rehearsed on this build (docs/releasing.md), each step counted: publint, attw and
// the no-test-code check (scripts/check-packages.mjs); every entry point's API report current, and
// every API change since the last release with a pending changeset (scripts/api-report.mjs); then
// each package packed once, that tarball checked (registry metadata, changelog, every file its
// exports name) and given to `npm publish --provenance --dry-run`.
const releaseOut = join(results, "release.json");
const releaseOk = runPnpm([
  "exec",
  "node",
  "scripts/release.mjs",
  "--dry-run",
  "--skip-build",
  "--summary",
  releaseOut,
]);
const releaseSteps = readJson(releaseOut);
for (const step of Array.isArray(releaseSteps) ? releaseSteps : [])
  check(`release dry run: ${step.name}`, step.ok);
if (!Array.isArray(releaseSteps) || (!releaseOk && releaseSteps.every((step) => step.ok)))
  check("release dry run (no summary, or its exit status)", false);
check("size budget", runPnpm(["exec", "node", "scripts/size.mjs"]));
// The API reference from the TSDoc of every public export (docs/api, not committed): built here so
// that a broken link or a doc that no longer matches the code fails CI.
check("API reference (TypeDoc)", runPnpm(["exec", "typedoc"]));

// The README's quick start, run as written (emulator, relay and core in one process).
check("examples/quickstart.ts runs", run("node", ["--import", "tsx", "examples/quickstart.ts"]));

// Unit and integration tests (vitest).
ensureRedis();
const vitestOut = join(results, "vitest.json");
const vitestOk = runPnpm([
  "exec",
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestOut}`,
]);
if (!countVitest("vitest", vitestOut, vitestOk)) check("vitest (no report)", false);

// The React Native example app (apps/mobile): its journeys under jest-expo against the demo
// server, and `expo export` of the Hermes bundles for Android and iOS (offline). Its own sign-in
// and payment code in Hermes (packages/core/test/hermes-mobile.test.ts) ran in the vitest run above.
check("apps/mobile jest-expo journeys", runPnpm(["--filter", "@signet/mobile", "exec", "jest"]));
check(
  "apps/mobile expo export (Android and iOS Hermes bundles)",
  run("node", ["apps/mobile/scripts/export.mjs"]),
);

// A fresh Expo app (test/expo-app: create-expo-app's default template plus only what the core
// README's Expo path and "Testing with jest-expo" say) on the PACKED @signet/core, installed with
// npm from its committed lockfile: it type-checks, exports for Android and iOS, and passes its jest
// journey (sign-in, a payment to COMPLETED, the recovery phrase) against the demo server.
const expoApp = (step, ...args) => run("node", ["scripts/expo-app.mjs", step, ...args]);
if (expoApp("install")) {
  check("test/expo-app tsc", expoApp("typecheck"));
  check("test/expo-app expo export (Android and iOS Hermes bundles)", expoApp("export"));
  const jestOut = join(results, "expo-app-jest.json");
  const jestOk = expoApp("jest", jestOut);
  const report = readJson(jestOut);
  if (report) {
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    if ((report.numFailedTests ?? 0) > 0)
      failures.push(`test/expo-app jest: ${report.numFailedTests} failed`);
    if ((report.numFailedTestSuites ?? 0) > 0 && (report.numFailedTests ?? 0) === 0)
      check("test/expo-app jest suites that failed to load", false);
    if (!jestOk && (report.numFailedTests ?? 0) === 0 && (report.numFailedTestSuites ?? 0) === 0)
      check("test/expo-app jest exit status", false);
  } else check("test/expo-app jest (no report)", false);
} else check("test/expo-app install of the packed @signet/core", false);

// Browser tests (Playwright in Debian's Chromium).
if (ensureChromium()) {
  const pwOut = join(results, "playwright.json");
  const pwOk = runPnpm(["exec", "playwright", "test", "-c", "e2e/playwright.config.ts"], {
    env: { ...process.env, PW_JSON_OUTPUT: pwOut, CHROMIUM_PATH: CHROMIUM },
  });
  const pw = readJson(pwOut);
  if (pw?.stats) {
    const ok = pw.stats.expected ?? 0;
    const bad = (pw.stats.unexpected ?? 0) + (pw.stats.flaky ?? 0);
    passed += ok;
    failed += bad;
    if (bad) failures.push(`playwright: ${bad} failed`);
    if ((pw.errors ?? []).length) check("playwright errors", false);
    if (!pwOk && bad === 0 && (pw.errors ?? []).length === 0)
      check("playwright exit status", false);
  } else check("playwright (no report)", false);
} else check("chromium available", false);

// The Next.js example (examples/next): `next build` of its two variants (the cacheComponents app
// with the Node-runtime relay, and the edge-runtime relay) was run by the build above; its flows
// run in Chromium against `next start` of each, with an emulator apiece.
if (existsSync(CHROMIUM)) {
  const nextOut = join(results, "next-example.json");
  const nextOk = runPnpm(["--filter", "@signet/example-next", "exec", "playwright", "test"], {
    env: { ...process.env, PW_JSON_OUTPUT: nextOut, CHROMIUM_PATH: CHROMIUM },
  });
  const report = readJson(nextOut);
  if (report?.stats) {
    const ok = report.stats.expected ?? 0;
    const bad = (report.stats.unexpected ?? 0) + (report.stats.flaky ?? 0);
    passed += ok;
    failed += bad;
    if (bad) failures.push(`examples/next playwright: ${bad} failed`);
    if ((report.errors ?? []).length) check("examples/next playwright errors", false);
    if (!nextOk && bad === 0 && (report.errors ?? []).length === 0)
      check("examples/next playwright exit status", false);
  } else check("examples/next playwright (no report)", false);
}

// Browser tests in Firefox ESR (WebDriver BiDi) and WebKitGTK (WebKitWebDriver under Xvfb).
if (ensureEngines()) {
  const enginesOut = join(results, "engines.json");
  const enginesOk = runPnpm([
    "exec",
    "vitest",
    "run",
    "-c",
    "e2e/engines/vitest.config.ts",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${enginesOut}`,
  ]);
  if (!countVitest("engines", enginesOut, enginesOk)) check("engines (no report)", false);
} else check("firefox-esr, webkit2gtk-driver and xvfb available", false);

// Benchmarks: a quick smoke run so they cannot rot (numbers are not published from it; the
// published table comes from `pnpm bench`). It needs Chromium too.
check(
  "benchmarks (quick smoke run)",
  existsSync(CHROMIUM) &&
    runPnpm(["--filter", "@signet/bench", "run", "bench", "--quick"], {
      env: { ...process.env, CHROMIUM_PATH: CHROMIUM },
    }),
);

finish();

function finish() {
  if (failures.length) console.log(`\nFailed: ${failures.join("; ")}`);
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
