#!/usr/bin/env node
// Cuts a release of every published package, or rehearses one. Each package is packed once, by
// pnpm (which writes `workspace:` ranges as versions, as `pnpm publish` does), the tarball is
// checked, and that same file is what `npm publish --provenance` sends: nothing is packed twice.
// The steps, in order (docs/releasing.md has the whole workflow):
//
//   1. build the packages (skipped with --skip-build, when the caller has just built them);
//   2. publint, attw and the no-test-code check (scripts/check-packages.mjs);
//   3. the API reports are current and every API change has a changeset (scripts/api-report.mjs);
//      a real release also needs every changeset versioned (`pnpm version-packages`) first;
//   4. per package: pack it, and check the tarball (metadata a registry page shows, a changelog
//      entry for this version, every file `exports` names, no `workspace:` range, no test code);
//   5. per package: `npm publish <tarball> --provenance --dry-run`, which must list the same files.
//
//   node scripts/release.mjs --dry-run [--skip-build] [--summary <file>]   rehearse (npm test)
//   node scripts/release.mjs --publish                                     publish, then tag
//
// --publish runs step 5 for real, for each version the registry does not have yet, then
// `changeset tag`. npm makes the provenance statement only in a CI it can vouch for (GitHub
// Actions with `id-token: write`, or GitLab), and refuses to publish without it there.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import getReleasePlan from "@changesets/get-release-plan";
import { entryPoints, publishedPackages, root } from "./packages.mjs";

const args = process.argv.slice(2);
const publish = args.includes("--publish");
if (publish === args.includes("--dry-run")) {
  console.error(
    "usage: node scripts/release.mjs --dry-run [--skip-build] [--summary <file>] | --publish",
  );
  process.exit(2);
}
const summaryAt = args.indexOf("--summary");
const summaryFile = summaryAt >= 0 ? args[summaryAt + 1] : undefined;

const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const steps = [];
/** Records a step's outcome; `problems` empty means it passed. */
function step(name, problems) {
  steps.push({ name, ok: problems.length === 0 });
  if (problems.length === 0) console.log(`ok    ${name}`);
  else for (const problem of problems) console.error(`FAIL  ${name}: ${problem}`);
  return problems.length === 0;
}

function run(cmd, cmdArgs, options = {}) {
  console.log(`\n$ ${[cmd, ...cmdArgs].join(" ")}`);
  return spawnSync(cmd, cmdArgs, { cwd: root, stdio: "inherit", ...options }).status === 0;
}

function capture(cmd, cmdArgs, options = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, encoding: "utf8", ...options });
  return { ok: r.status === 0, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

// Test code, wherever it sits (the same rule as scripts/check-packages.mjs).
const TEST_FILE = /(^|\/)(test|tests|__tests__|fixtures?)\/|\.(test|spec)\.[cm]?[jt]sx?$/;

/** What a registry page needs from a manifest, and that it names no funding. */
function metadataProblems(pkg, manifest) {
  const problems = [];
  const repository = rootManifest.repository;
  const want = (ok, message) => ok || problems.push(message);
  want(
    manifest.name === pkg.name && manifest.version === pkg.version,
    "name or version changed in packing",
  );
  want(
    typeof manifest.description === "string" && manifest.description.length > 0,
    "no description",
  );
  want(manifest.license === rootManifest.license, `license is not ${rootManifest.license}`);
  want(
    manifest.repository?.type === "git" &&
      manifest.repository.url === repository.url &&
      manifest.repository.directory === `packages/${pkg.dir}`,
    `repository must be { type: "git", url: "${repository.url}", directory: "packages/${pkg.dir}" }`,
  );
  want(
    manifest.homepage ===
      `${rootManifest.homepage.replace(/#readme$/, "")}/tree/main/packages/${pkg.dir}#readme`,
    "homepage must be the package's folder in the repository",
  );
  want(manifest.bugs?.url === rootManifest.bugs.url, `bugs.url must be ${rootManifest.bugs.url}`);
  want(Array.isArray(manifest.keywords) && manifest.keywords.length > 0, "no keywords");
  want(
    manifest.engines?.node === rootManifest.engines.node,
    `engines.node must be ${rootManifest.engines.node}`,
  );
  want(manifest.funding === undefined, "funding is set (the packages ask for none)");
  want(
    manifest.publishConfig?.access === "public" && manifest.publishConfig?.provenance === true,
    'publishConfig must be { access: "public", provenance: true }',
  );
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"])
    for (const [name, range] of Object.entries(manifest[field] ?? {}))
      want(!String(range).startsWith("workspace:"), `${field}.${name} is still ${range}`);
  return problems;
}

/** Checks one packed tarball; returns its problems and its file list. */
function tarballProblems(pkg, tarball) {
  const listing = capture("tar", ["-tzf", tarball]);
  if (!listing.ok) return { problems: [`tar could not read ${tarball}`], files: [] };
  const files = listing.stdout
    .split("\n")
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ""));
  const manifest = JSON.parse(capture("tar", ["-xzOf", tarball, "package/package.json"]).stdout);
  const problems = metadataProblems(pkg, manifest);
  for (const required of ["package.json", "README.md", "CHANGELOG.md"])
    if (!files.includes(required)) problems.push(`${required} is not in the tarball`);
  const changelog = capture("tar", ["-xzOf", tarball, "package/CHANGELOG.md"]).stdout;
  if (!changelog.split("\n").includes(`## ${pkg.version}`))
    problems.push(`CHANGELOG.md has no "## ${pkg.version}" entry`);
  const named = [
    manifest.main,
    manifest.types,
    ...Object.values(manifest.bin ?? {}),
    ...entryPoints(manifest).map((entry) => entry.types),
    ...Object.values(manifest.exports ?? {}).flatMap(function targets(value) {
      return typeof value === "string" ? [value] : Object.values(value ?? {}).flatMap(targets);
    }),
  ];
  for (const path of new Set(named.filter(Boolean).map((p) => p.replace(/^\.\//, ""))))
    if (!files.includes(path))
      problems.push(`${path} (named by package.json) is not in the tarball`);
  const testOnly = files.filter((path) => TEST_FILE.test(path));
  if (testOnly.length > 0) problems.push(`test code in the tarball: ${testOnly.join(", ")}`);
  return { problems, files };
}

/** `npm publish <tarball>`, as a dry run or for real; its file list must be the tarball's. */
function npmPublish(tarball, files, dryRun) {
  const npmArgs = ["publish", tarball, "--provenance", "--access", "public", "--json"];
  if (dryRun) npmArgs.push("--dry-run");
  const r = capture("npm", npmArgs, { cwd: join(tarball, "..") });
  if (!r.ok) return [`npm publish failed: ${r.stderr.trim().split("\n").slice(-3).join(" ")}`];
  const report = Object.values(JSON.parse(r.stdout))[0];
  const sent = report.files.map((f) => f.path).sort();
  const packed = [...files].sort();
  return JSON.stringify(sent) === JSON.stringify(packed)
    ? []
    : ["npm would send other files than the checked tarball holds"];
}

/** Whether the registry already has this version (a re-run after a partial publish skips it). */
function published(pkg) {
  const r = capture("npm", ["view", `${pkg.name}@${pkg.version}`, "version"]);
  return r.ok && r.stdout.trim() === pkg.version;
}

const packages = publishedPackages();
if (!args.includes("--skip-build"))
  step(
    "build the published packages",
    run("pnpm", ["-r", "--workspace-concurrency=1", "--filter", "./packages/*", "run", "build"])
      ? []
      : ["pnpm build failed"],
  );
step(
  "publint, attw, no test code (scripts/check-packages.mjs)",
  run("node", ["scripts/check-packages.mjs"]) ? [] : ["see its output above"],
);
step(
  "API reports current, API changes have changesets (scripts/api-report.mjs)",
  run("node", ["scripts/api-report.mjs"]) ? [] : ["see its output above"],
);
if (publish) {
  const plan = await getReleasePlan(root);
  step(
    "every changeset versioned (pnpm version-packages)",
    plan.changesets.length === 0
      ? []
      : [
          `${plan.changesets.length} pending: run \`pnpm version-packages\`, review, commit, then release`,
        ],
  );
}

const packDir = mkdtempSync(join(tmpdir(), "signet-release-"));
try {
  for (const pkg of packages) {
    const packed = capture("pnpm", ["pack", "--pack-destination", packDir, "--json"], {
      cwd: pkg.path,
    });
    const tarball = packed.ok ? JSON.parse(packed.stdout).filename : undefined;
    const { problems, files } = tarball
      ? tarballProblems(pkg, tarball)
      : { problems: [`pnpm pack failed: ${packed.stderr.trim()}`], files: [] };
    const checked = step(
      `pack ${pkg.name}@${pkg.version} (${files.length} files, CHANGELOG.md, metadata)`,
      problems,
    );
    if (!checked) continue;
    if (publish && published(pkg)) {
      console.log(`${pkg.name}@${pkg.version} is on the registry already; skipped`);
      continue;
    }
    step(
      `npm publish --provenance ${publish ? "" : "--dry-run "}${pkg.name}@${pkg.version}`,
      npmPublish(tarball, files, !publish),
    );
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}

const failed = steps.filter((s) => !s.ok).length;
if (publish && failed === 0) run("pnpm", ["exec", "changeset", "tag"]);
if (summaryFile) writeFileSync(summaryFile, JSON.stringify(steps, null, 2));
console.log(
  `\n${publish ? "release" : "release dry run"}: ${steps.length - failed} of ${steps.length} steps passed`,
);
if (publish && failed === 0) console.log("Now push the tags: git push --follow-tags");
process.exit(failed > 0 ? 1 : 0);
