// The Firefox and WebKit suites (`pnpm test:engines`): one file at a time, as each launches its
// browsers, on a machine that may have only two cores.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["e2e/engines/**/*.test.ts"],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    pool: "forks",
  },
});
