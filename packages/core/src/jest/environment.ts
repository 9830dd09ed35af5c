/// <reference types="node" />
// The test environment of the preset: the preset's own (React Native's, from jest-expo), with
// Node's `fetch` kept aside as `__signetNodeFetch` before React Native's and Expo's setup replace
// the global one with networking that goes nowhere under Jest. ./setup.ts puts it back.
import { createRequire } from "node:module";
import { join } from "node:path";

type Environment = { global: Record<string, unknown> };
type EnvironmentClass = new (config: unknown, context: unknown) => Environment;
type Config = {
  projectConfig: { rootDir: string; testEnvironmentOptions?: Record<string, unknown> };
};

/**
 * Builds the environment the preset wrapped (`testEnvironmentOptions.signetBaseEnvironment`) and
 * keeps Node's own `fetch` on its global. A constructor that returns the wrapped environment
 * itself, so every hook Jest calls is that environment's.
 */
export default class SignetEnvironment {
  constructor(config: Config, context: unknown) {
    const { rootDir, testEnvironmentOptions = {} } = config.projectConfig;
    const name = String(testEnvironmentOptions.signetBaseEnvironment ?? "node");
    const require = createRequire(join(rootDir, "package.json"));
    const loaded = require(
      name === "node" || name === "jsdom" ? `jest-environment-${name}` : name,
    ) as EnvironmentClass | { TestEnvironment: EnvironmentClass; default?: EnvironmentClass };
    const Base = typeof loaded === "function" ? loaded : (loaded.default ?? loaded.TestEnvironment);
    const environment = new Base(config, context);
    environment.global.__signetNodeFetch = globalThis.fetch;
    // biome-ignore lint/correctness/noConstructorReturn: Jest drives the wrapped environment itself.
    return environment as unknown as SignetEnvironment;
  }
}
