import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

// Tests run against sources: each workspace package resolves to its `src/index.ts`.
export default defineConfig({
  resolve: {
    alias: {
      "@signet/core": src("core"),
      "@signet/emulator": src("emulator"),
      "@signet/relay": src("relay"),
      "@signet/react": src("react"),
    },
  },
  test: {
    include: ["packages/*/src/**/*.test.{ts,tsx}", "packages/*/test/**/*.test.{ts,tsx}", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
