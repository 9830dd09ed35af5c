#!/usr/bin/env node
// The public API of every published package, as API Extractor's report: one file per entry point
// (`packages/<dir>/api/<entry>.api.md`), every exported name with its full signature, and the
// declarations of the types those signatures use. `api/released/` holds the same reports as they
// were at the package's last release, so the check needs no tag and no history (a fresh clone
// works). docs/releasing.md has the workflow.
//
//   node scripts/api-report.mjs                  check (npm test): every report matches the built
//                                                package, and every package whose API differs from
//                                                its released report has a pending changeset, of a
//                                                minor bump or more when a released line changed
//   node scripts/api-report.mjs --write          rewrite the reports from the built packages
//   node scripts/api-report.mjs --record-release copy each report to api/released/ (the version
//                                                step runs it after `changeset version`)
//   --tree <checkout>                            with --record-release: record the reports of the
//                                                packages built in another checkout instead
//
// Run after `pnpm build`: the reports are read from `dist/*.d.ts`, as users' compilers see them.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import getReleasePlan from "@changesets/get-release-plan";
import { CompilerState, Extractor, ExtractorConfig } from "@microsoft/api-extractor";
import { entryPoints, publishedPackages, root } from "./packages.mjs";

const args = process.argv.slice(2);
const mode = args.includes("--write")
  ? "write"
  : args.includes("--record-release")
    ? "record"
    : "check";
const treeAt = args.indexOf("--tree");
const tree = treeAt >= 0 ? args[treeAt + 1] : root;
if (treeAt >= 0 && (mode !== "record" || !tree))
  fail("--tree <checkout> goes with --record-release");

const REPORT = ".api.md";
const QUIET = new Set([
  "console-api-report-created",
  "console-compiler-version-notice",
  "console-preamble",
]);
const reportDir = (pkg) => join(pkg.path, "api");
const releasedDir = (pkg) => join(pkg.path, "api", "released");

/** The text of each report file in `dir`, by entry name. */
function readReports(dir) {
  if (!existsSync(dir)) return new Map();
  return new Map(
    readdirSync(dir)
      .filter((file) => file.endsWith(REPORT))
      .map((file) => [file.slice(0, -REPORT.length), readFileSync(join(dir, file), "utf8")]),
  );
}

function writeReports(dir, reports) {
  mkdirSync(dir, { recursive: true });
  for (const name of readReports(dir).keys())
    if (!reports.has(name)) rmSync(join(dir, `${name}${REPORT}`));
  for (const [name, text] of reports) writeFileSync(join(dir, `${name}${REPORT}`), text);
}

// API Extractor's messages about documentation style stay out: TypeDoc (npm test) judges the TSDoc.
// Types a signature uses but the entry does not export are reported with their declaration
// (`includeForgottenExports`), so a reviewer sees a change to them too.
function extractorConfig(pkg, entry, folder) {
  const types = join(pkg.path, entry.types);
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: pkg.path,
      mainEntryPointFilePath: types,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: "ES2022",
            lib: ["ES2022", "DOM", "DOM.Iterable"],
            module: "NodeNext",
            moduleResolution: "NodeNext",
            strict: true,
            skipLibCheck: true,
            types: [],
          },
          files: [types],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: entry.report,
        reportFolder: folder,
        reportTempFolder: join(folder, "temp"),
        includeForgottenExports: true,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: "error" } },
        extractorMessageReporting: { default: { logLevel: "none", addToApiReportFile: false } },
        tsdocMessageReporting: { default: { logLevel: "none", addToApiReportFile: false } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(pkg.path, "package.json"),
  });
}

/** The reports of `pkg` as its built `dist` gives them, by entry name. */
function generate(pkg) {
  const entries = entryPoints(pkg.manifest);
  const missing = entries.filter((entry) => !existsSync(join(pkg.path, entry.types)));
  if (missing.length > 0)
    fail(
      `${relative(root, pkg.path)}: ${missing.map((e) => e.types).join(", ")} missing; build first (pnpm build)`,
    );
  const folder = mkdtempSync(join(tmpdir(), "signet-api-"));
  try {
    const configs = entries.map((entry) => extractorConfig(pkg, entry, folder));
    // One program for every entry of the package: each entry alone would parse it all again.
    const compilerState = CompilerState.create(configs[0], {
      additionalEntryPoints: configs.slice(1).map((config) => config.mainEntryPointFilePath),
    });
    const reports = new Map();
    for (const [i, config] of configs.entries()) {
      const result = Extractor.invoke(config, {
        localBuild: true,
        compilerState,
        messageCallback: (message) => {
          // The report goes to a scratch folder on purpose ("was missing", "created"), and the
          // bundled compiler is the workspace's own TypeScript version.
          if (QUIET.has(message.messageId)) message.logLevel = "none";
        },
      });
      if (!result.succeeded) fail(`API Extractor failed on ${pkg.name} (${entries[i].types})`);
      reports.set(
        entries[i].report,
        readFileSync(join(folder, `${entries[i].report}${REPORT}`), "utf8"),
      );
    }
    return reports;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Lines of `before` missing from `after` and lines of `after` new to it, as multisets. */
function lineChanges(before, after) {
  const count = (text) => {
    const counts = new Map();
    for (const line of text.split("\n").map((l) => l.trim()))
      if (line) counts.set(line, (counts.get(line) ?? 0) + 1);
    return counts;
  };
  const a = count(before);
  const b = count(after);
  const diff = (x, y) =>
    [...x].flatMap(([line, n]) => Array(Math.max(0, n - (y.get(line) ?? 0))).fill(line));
  return { removed: diff(a, b), added: diff(b, a) };
}

/** How the current reports of a package differ from its released ones. */
function apiChange(released, current) {
  const names = [...new Set([...released.keys(), ...current.keys()])].sort();
  const entries = [];
  let breaking = false;
  for (const name of names) {
    const before = released.get(name);
    const after = current.get(name);
    if (before === after) continue;
    if (before === undefined) entries.push(`api/${name}${REPORT} is a new entry point`);
    else if (after === undefined) {
      entries.push(`api/${name}${REPORT} (an entry point) is gone`);
      breaking = true;
    } else {
      const { removed, added } = lineChanges(before, after);
      entries.push(`api/${name}${REPORT}: ${added.length} lines added, ${removed.length} removed`);
      // A released line that is no longer there is a removal or a changed signature; a new
      // required member may be one an app must now pass. Either asks for a breaking bump (a
      // required member of a result is not breaking: the author may still choose the bump).
      if (removed.length > 0 || added.some((line) => REQUIRED_MEMBER.test(line))) breaking = true;
    }
  }
  return { changed: entries.length > 0, breaking, entries };
}

const BUMPS = ["none", "patch", "minor", "major"];
/** A report line declaring a required property (`name: type;`, not `name?: type;`). */
const REQUIRED_MEMBER = /^(readonly\s+)?[\w$]+:\s/;

/** The highest bump pending changesets ask for `name` themselves (not as a dependent). */
function pendingBump(plan, name) {
  let highest = "none";
  for (const changeset of plan.changesets)
    for (const release of changeset.releases)
      if (release.name === name && BUMPS.indexOf(release.type) > BUMPS.indexOf(highest))
        highest = release.type;
  return highest;
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

const packages = publishedPackages(mode === "record" ? tree : root);
if (mode === "record") {
  for (const pkg of packages) {
    const target = publishedPackages(root).find((p) => p.name === pkg.name);
    if (!target) fail(`${pkg.name} is not a package of this checkout`);
    writeReports(releasedDir(target), tree === root ? readReports(reportDir(pkg)) : generate(pkg));
    console.log(`${pkg.name}: api/released/ records ${pkg.version}`);
  }
  process.exit(0);
}

const plan = mode === "check" ? await getReleasePlan(root) : undefined;
let problems = 0;
for (const pkg of packages) {
  const current = generate(pkg);
  const where = relative(root, reportDir(pkg));
  if (mode === "write") {
    writeReports(reportDir(pkg), current);
    console.log(`${where}: ${current.size} reports written`);
    continue;
  }
  const committed = readReports(reportDir(pkg));
  const stale = [...new Set([...committed.keys(), ...current.keys()])].filter(
    (name) => committed.get(name) !== current.get(name),
  );
  if (stale.length > 0) {
    problems++;
    console.error(
      `${pkg.name}: the API report is stale (${stale.map((n) => `${where}/${n}${REPORT}`).join(", ")}): ` +
        "the public API changed. Run `pnpm build && pnpm api:report` and commit the reports, " +
        "so that the change is reviewed.",
    );
    for (const name of stale) {
      const { removed, added } = lineChanges(committed.get(name) ?? "", current.get(name) ?? "");
      for (const line of removed.slice(0, 5)) console.error(`    - ${line}`);
      for (const line of added.slice(0, 5)) console.error(`    + ${line}`);
    }
    continue;
  }
  const change = apiChange(readReports(releasedDir(pkg)), current);
  if (!change.changed) {
    console.log(`${pkg.name}: API reports up to date, unchanged since ${pkg.version}`);
    continue;
  }
  const bump = pendingBump(plan, pkg.name);
  // Semver for 0.x: a breaking change bumps the minor; from 1.0 on, the major.
  const needed = change.breaking ? (pkg.version.startsWith("0.") ? "minor" : "major") : "patch";
  if (BUMPS.indexOf(bump) >= BUMPS.indexOf(needed)) {
    console.log(
      `${pkg.name}: API changed since ${pkg.version} (${change.entries.join("; ")}); a pending ${bump} changeset covers it`,
    );
    continue;
  }
  problems++;
  console.error(
    `${pkg.name}: its public API changed since ${pkg.version} (${change.entries.join("; ")}) ` +
      (bump === "none"
        ? "and no pending changeset names it. "
        : `but the pending changesets ask for a ${bump} bump only. `) +
      `Run \`pnpm changeset\`, choose ${pkg.name} with a ${needed} bump` +
      (change.breaking
        ? " (a released signature changed or went away, or a type gained a required member: breaking)"
        : "") +
      ", write what changed for its users (and a docs/migrating.md section for a breaking " +
      "change), and commit the .changeset file with the reports.",
  );
}
if (problems > 0) process.exit(1);
