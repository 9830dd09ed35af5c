#!/usr/bin/env node
// What @signet/core adds to a React Native app, measured on the fresh Expo app (test/expo-app,
// installed by `node scripts/expo-app.mjs install`) with the tools the app itself uses:
// - `expo export --platform android --no-bytecode --source-maps`: Metro's minified bundle, the
//   JavaScript that hermesc compiles; its source map attributes every byte to a module, so
//   "Signet core" is the bytes from node_modules/@signet/core, and "with @noble" adds
//   node_modules/@noble (Signet's crypto, which nothing else in the template uses);
// - `expo export --platform android` (Hermes bytecode, as shipped) of the app, and of the same app
//   without its Signet screen (src/app/wallet.tsx set aside: the template alone, since nothing
//   else imports Signet), each gzipped at level 9: the difference is what Signet and its adapters
//   add to the download.
// `node scripts/size-react-native.mjs --write` writes the figures into docs/size.md (the section
// between its react-native markers); without --write it prints them. Not part of `pnpm size`:
// two exports take minutes.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const app = join(root, "test", "expo-app");
if (!existsSync(join(app, "node_modules", "@signet", "core"))) {
  console.error("test/expo-app is not installed: run `node scripts/expo-app.mjs install` first");
  process.exit(1);
}
const { TraceMap, eachMapping } = createRequire(join(app, "package.json"))(
  "@jridgewell/trace-mapping",
);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;

/** `expo export` for Android into a fresh folder; returns the folder of its JavaScript bundle. */
function exportAndroid(extra) {
  const out = mkdtempSync(join(tmpdir(), "signet-rn-size-"));
  const r = spawnSync(
    "npx",
    ["expo", "export", "--platform", "android", "--output-dir", out, ...extra],
    {
      cwd: app,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, CI: "1", EXPO_OFFLINE: "1", EXPO_NO_TELEMETRY: "1" },
    },
  );
  if (r.status !== 0) throw new Error(`expo export ${extra.join(" ")} failed`);
  return { out, dir: join(out, "_expo", "static", "js", "android") };
}

function bundleIn(dir, extension) {
  const name = readdirSync(dir).find((file) => file.endsWith(extension));
  if (!name) throw new Error(`no ${extension} bundle in ${dir}`);
  return readFileSync(join(dir, name));
}

/** Minified bytes of the bundle by source module, from its source map. */
function bytesBySource(code, map) {
  const lines = code.split("\n").map((line) => line.length);
  const traced = new TraceMap(map);
  const segments = [];
  eachMapping(traced, (m) => segments.push(m));
  const totals = new Map();
  for (let i = 0; i < segments.length; i++) {
    const m = segments[i];
    const next = segments[i + 1];
    const end =
      next && next.generatedLine === m.generatedLine
        ? next.generatedColumn
        : lines[m.generatedLine - 1];
    const source = m.source ?? "(none)";
    totals.set(source, (totals.get(source) ?? 0) + (end - m.generatedColumn));
  }
  return totals;
}

const sum = (totals, test) =>
  [...totals].reduce((total, [source, bytes]) => total + (test(source) ? bytes : 0), 0);

// 1. The minified JavaScript, attributed.
const js = exportAndroid(["--no-bytecode", "--source-maps"]);
const jsDir = js.dir;
const jsName = readdirSync(jsDir).find((file) => file.endsWith(".js"));
const code = readFileSync(join(jsDir, jsName), "utf8");
const map = JSON.parse(readFileSync(join(jsDir, `${jsName}.map`), "utf8"));
const totals = bytesBySource(code, map);
const signet = sum(totals, (s) => s.includes("node_modules/@signet/core/"));
const noble = sum(totals, (s) => s.includes("node_modules/@noble/"));
const bundleBytes = Buffer.byteLength(code);
rmSync(js.out, { recursive: true, force: true });

// 2. The Hermes bytecode, with and without Signet's screen.
const withSignet = exportAndroid([]);
const hbcWith = bundleIn(withSignet.dir, ".hbc");
rmSync(withSignet.out, { recursive: true, force: true });
const screen = join(app, "src", "app", "wallet.tsx");
const aside = join(app, "wallet.tsx.aside");
renameSync(screen, aside);
let hbcBare;
try {
  const bare = exportAndroid([]);
  hbcBare = bundleIn(bare.dir, ".hbc");
  rmSync(bare.out, { recursive: true, force: true });
} finally {
  renameSync(aside, screen);
}

const expo = JSON.parse(readFileSync(join(app, "node_modules", "expo", "package.json"), "utf8"));
const rn = JSON.parse(
  readFileSync(join(app, "node_modules", "react-native", "package.json"), "utf8"),
);
const rows = [
  "<!-- react-native:start -->",
  "## React Native (Expo, Hermes)",
  "",
  `Written by \`node scripts/size-react-native.mjs --write\` from \`expo export --platform android\` of`,
  `test/expo-app (create-expo-app's default template, Expo ${expo.version}, React Native ${rn.version},`,
  "with the core README's Expo path: expo-crypto, the secure store and passkey adapters). Metro",
  "bundles one file, so there are no lazy chunks: every part of Signet ships in it.",
  "",
  "| what | size |",
  "|---|---|",
  `| Signet core, minified in the bundle (bytes from \`@signet/core\`, by the source map) | ${kb(signet)} |`,
  `| Signet core with \`@noble/*\` (its crypto in Hermes) | ${kb(signet + noble)} |`,
  `| their share of the whole minified bundle of the app with Signet (${kb(bundleBytes)}) | ${((100 * (signet + noble)) / bundleBytes).toFixed(1)}% |`,
  `| the template's Hermes bytecode bundle, gzipped (level 9) | ${kb(gz(hbcBare))} (${kb(hbcBare.length)} raw) |`,
  `| the same app with Signet's screen, gzipped | ${kb(gz(hbcWith))} (${kb(hbcWith.length)} raw) |`,
  `| what Signet and its adapters add, gzipped | +${kb(gz(hbcWith) - gz(hbcBare))} (+${kb(hbcWith.length - hbcBare.length)} raw) |`,
  "<!-- react-native:end -->",
];
console.log(rows.join("\n"));
if (process.argv.includes("--write")) {
  const file = join(root, "docs", "size.md");
  const doc = readFileSync(file, "utf8");
  const start = doc.indexOf("<!-- react-native:start -->");
  const end = doc.indexOf("<!-- react-native:end -->");
  const next =
    start >= 0 && end > start
      ? `${doc.slice(0, start)}${rows.join("\n")}${doc.slice(end + "<!-- react-native:end -->".length)}`
      : `${doc.trimEnd()}\n\n${rows.join("\n")}\n`;
  writeFileSync(file, next);
}
