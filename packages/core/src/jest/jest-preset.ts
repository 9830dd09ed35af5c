/// <reference types="node" />
/**
 * `"preset": "@signet/core/jest"`: jest-expo's preset (`jest-expo/jest-preset`, the app's own
 * copy) with what Signet needs under Jest (see `withSignet` in ./config.ts): its packages
 * transformed, `import()` made a `require`, Node's `fetch` with a cookie jar, and in-memory native
 * stores. Jest finds it as `@signet/core/jest/jest-preset`.
 *
 * @module @signet/core/jest/jest-preset
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { type JestPreset, withSignet } from "./config.js";

const root = process.cwd();
// The app's jest-expo (an optional peer dependency of @signet/core), found from the project first.
const require = createRequire(join(root, "package.json"));
let expo: JestPreset;
try {
  expo = require("jest-expo/jest-preset") as JestPreset;
} catch {
  expo = createRequire(import.meta.url)("jest-expo/jest-preset") as JestPreset;
}

/** jest-expo's preset with Signet's additions. */
const preset: JestPreset = withSignet(expo, root);
export default preset;
