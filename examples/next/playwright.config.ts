// The example end to end in Chromium, against `next start` twice: the Node build (.next, with
// cacheComponents) on one port and the edge variant (.next-edge) on another, each with its own
// emulator (scripts/serve.mjs). Build both first: `pnpm --filter @signet/example-next build`.
import { defineConfig } from "@playwright/test";

const NODE_PORT = Number(process.env.NEXT_EXAMPLE_PORT ?? 3417);
const EDGE_PORT = NODE_PORT + 1;

export default defineConfig({
  testDir: "test",
  timeout: 60_000,
  workers: 1,
  reporter: process.env.PW_JSON_OUTPUT
    ? [["list"], ["json", { outputFile: process.env.PW_JSON_OUTPUT }]]
    : [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "node", use: { baseURL: `http://localhost:${NODE_PORT}` } },
    {
      name: "edge",
      use: { baseURL: `http://localhost:${EDGE_PORT}/?relay=edge` },
      grep: /@edge/,
    },
  ],
  webServer: [
    {
      command: "node scripts/serve.mjs start",
      url: `http://localhost:${NODE_PORT}/api/grid/auth/sessions`,
      env: { PORT: String(NODE_PORT) },
      reuseExistingServer: false,
      stdout: "ignore",
      timeout: 30_000,
    },
    {
      command: "node scripts/serve.mjs start",
      url: `http://localhost:${EDGE_PORT}/api/grid-edge/auth/sessions`,
      env: { PORT: String(EDGE_PORT), SIGNET_NEXT_EDGE: "1" },
      reuseExistingServer: false,
      stdout: "ignore",
      timeout: 30_000,
    },
  ],
});
