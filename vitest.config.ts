import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run against sources: each workspace package resolves to its `src/index.ts`.
export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^@signet\/emulator\/testing$/,
        replacement: here("./packages/emulator/src/testing/index.ts"),
      },
      // Core's "#codec" import: the platform codec, as the default export condition picks.
      { find: /^#codec$/, replacement: here("./packages/core/src/crypto/codec-web.ts") },
      {
        find: /^@signet\/(core|emulator|relay|react|frame)$/,
        replacement: here("./packages/$1/src/index.ts"),
      },
    ],
  },
  test: {
    include: [
      "packages/*/src/**/*.test.{ts,tsx}",
      "packages/*/test/**/*.test.{ts,tsx}",
      "test/**/*.test.ts",
    ],
    // The fresh Expo app runs its own jest-expo suite (scripts/expo-app.mjs).
    exclude: [...configDefaults.exclude, "test/expo-app/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
