/// <reference types="node" />
// The Jest configuration Signet needs on top of a React Native preset (jest-expo's): what the
// preset module (./jest-preset.ts) exports, made here so its steps can be read one by one.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { SIGNET_PACKAGES } from "./index.js";

/** The parts of a Jest configuration this changes. */
export type JestPreset = {
  transform?: Record<string, string | [string, Record<string, unknown>]>;
  transformIgnorePatterns?: string[];
  testEnvironment?: string;
  testEnvironmentOptions?: Record<string, unknown>;
  setupFiles?: string[];
  [option: string]: unknown;
};

const require = createRequire(import.meta.url);
const DYNAMIC_IMPORT_PLUGIN = "@babel/plugin-transform-dynamic-import";

/**
 * `preset` with what Signet needs under Jest:
 * - Signet and its ES-module-only libraries (`SIGNET_PACKAGES`) let through every
 *   `/node_modules/(?!(…))` pattern of `transformIgnorePatterns`, so Babel turns them into
 *   CommonJS, as Jest runs;
 * - `@babel/plugin-transform-dynamic-import` added to every babel-jest transform: Signet loads its
 *   rarer parts with `import()`, which Jest's CommonJS runtime cannot run, and the plugin makes it
 *   a `require` (without it, those calls fail with `RUNTIME_UNSUPPORTED`);
 * - a test environment around the preset's own that keeps Node's `fetch`, and a setup file, run
 *   after the preset's, that makes `globalThis.fetch` Node's (with a cookie jar) where React
 *   Native's setup left a mocked network, and stands in for the native stores the key-store
 *   adapters use (expo-secure-store, React Native's `Settings`) in memory.
 *
 * @throws Error naming the missing package when `@babel/plugin-transform-dynamic-import` is not
 * installed.
 */
export function withSignet(preset: JestPreset, root: string = process.cwd()): JestPreset {
  const plugin = resolvePlugin(root);
  const transform = Object.fromEntries(
    Object.entries(preset.transform ?? {}).map(([pattern, transformer]) => {
      const [name, options] = Array.isArray(transformer) ? transformer : [transformer, {}];
      if (!/(^|[/\\])babel-jest([/\\]|$)/.test(name)) return [pattern, transformer];
      const plugins = Array.isArray(options.plugins) ? options.plugins : [];
      return [pattern, [name, { ...options, plugins: [...plugins, plugin] }]];
    }),
  );
  const allowed = SIGNET_PACKAGES.join("|");
  return {
    ...preset,
    transform,
    transformIgnorePatterns: (preset.transformIgnorePatterns ?? []).map((pattern) =>
      pattern.replace("node_modules/(?!(", `node_modules/(?!(${allowed}|`),
    ),
    testEnvironment: fileURLToPath(new URL("./environment.js", import.meta.url)),
    testEnvironmentOptions: {
      ...preset.testEnvironmentOptions,
      signetBaseEnvironment: preset.testEnvironment ?? "node",
    },
    setupFiles: [
      ...(preset.setupFiles ?? []),
      fileURLToPath(new URL("./setup.js", import.meta.url)),
    ],
  };
}

function resolvePlugin(root: string): string {
  try {
    return require.resolve(DYNAMIC_IMPORT_PLUGIN, { paths: [root] });
  } catch {
    try {
      return require.resolve(DYNAMIC_IMPORT_PLUGIN);
    } catch {
      throw new Error(
        `@signet/core/jest needs ${DYNAMIC_IMPORT_PLUGIN} to load Signet's lazily loaded parts under Jest: npm install --save-dev ${DYNAMIC_IMPORT_PLUGIN}`,
      );
    }
  }
}
