// The demo as `npm run demo` serves it (built app, relay, demo endpoints, emulator in process),
// on localhost with a free port, plus the page helpers the demo specs share.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { test as base, type CDPSession, expect, type Page, type TestInfo } from "@playwright/test";
import {
  type DemoServer,
  type DemoServerOptions,
  startDemoServer,
} from "../../apps/demo/server/server.js";
import { addVirtualAuthenticator } from "../fixtures/walletServer.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** `UPDATE_DEMO_SCREENSHOTS=1` also writes each screen to apps/demo/screenshots for the README. */
const README_SHOTS = process.env.UPDATE_DEMO_SCREENSHOTS
  ? join(root, "apps/demo/screenshots")
  : undefined;

/**
 * `options`: more server options (the attack switch, say). `DEMO_APP_DIR` serves another build of
 * the app (an older one, to see a journey fail before its fix).
 */
export async function startDemo(
  options: Partial<Omit<DemoServerOptions, "appDir">> = {},
): Promise<DemoServer> {
  return startDemoServer({
    appDir: process.env.DEMO_APP_DIR ?? join(root, "apps/demo/dist/app"),
    port: 0,
    settlementDelayMs: 1_500,
    ...options,
  });
}

type DemoOptions = Partial<Omit<DemoServerOptions, "appDir">>;

/**
 * One demo server per spec file, as a `beforeAll`/`afterAll` pair would give it: started for the
 * file's first test that asks for it (with that file's `demoOptions`), stopped when a test of
 * another file (or with other options) asks, or when the worker ends. A spec's server state (its
 * emulator's clock, say) never reaches another spec.
 */
class DemoServers {
  private current: { key: string; server: Promise<DemoServer> } | undefined;

  async for(file: string, options: DemoOptions): Promise<DemoServer> {
    const key = `${file}\n${JSON.stringify(options)}`;
    if (this.current?.key !== key) {
      await this.close();
      this.current = { key, server: startDemo(options) };
    }
    return this.current.server;
  }

  async close(): Promise<void> {
    const running = this.current;
    this.current = undefined;
    await (await running?.server.catch(() => undefined))?.close();
  }
}

/** The demo specs' fixtures (`test` below). */
export type DemoFixtures = {
  /** The spec's demo server options: `test.use({ demoOptions: { … } })` at the top of the file. */
  demoOptions: DemoOptions;
  /** The spec file's demo server (one per file, see `DemoServers`). */
  demo: DemoServer;
  /**
   * Signs a new demo user up on the test's page (`signUp` with `freshEmail(tag)`, in `region`,
   * default US); resolves to the email.
   */
  signUpAs: (tag: string, region?: string) => Promise<string>;
};

/** Playwright's `test` with the demo server and the sign-up of a new user as fixtures. */
export const test = base.extend<DemoFixtures, { demoServers: DemoServers }>({
  demoServers: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function destructures.
    async ({}, use) => {
      const servers = new DemoServers();
      await use(servers);
      await servers.close();
    },
    { scope: "worker" },
  ],
  demoOptions: [{}, { option: true }],
  demo: async ({ demoServers, demoOptions }, use, testInfo) => {
    await use(await demoServers.for(testInfo.file, demoOptions));
  },
  signUpAs: async ({ page, demo }, use) => {
    await use(async (tag, region = "US") => {
      const email = freshEmail(tag);
      await signUp(page, demo.url, email, region);
      return email;
    });
  },
});

export { expect };

export const freshEmail = (tag: string) =>
  `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** The shared CDP virtual authenticator, plus a CDP session to change how it answers. */
export async function addAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const id = await addVirtualAuthenticator(page);
  return { cdp: await page.context().newCDPSession(page), id };
}

/** Fails on any page error or CSP violation, which the strict policy would report. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(message.text());
  });
  return problems;
}

/** Signs a new demo user in by email and verifies the email code: ends on the wallet screens. */
export async function signUp(
  page: Page,
  origin: string,
  email: string,
  region = "US",
): Promise<void> {
  await page.goto(origin);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Where you live").selectOption(region);
  await page.getByRole("button", { name: "Continue" }).click();
  await signInWithOtp(page, "000000");
  await expect(page.getByRole("navigation", { name: "Wallet" })).toBeVisible();
}

/** Asks for an email code and types it: the sixth digit submits it (no button press). */
export async function signInWithOtp(page: Page, code: string): Promise<void> {
  await page.getByRole("button", { name: /Email a code/ }).click();
  await page.getByLabel("6-digit code").fill(code);
}

/** Presses a destructive button, then its "Yes, …" confirmation. */
export async function confirmDanger(
  scope: Page | ReturnType<Page["locator"]>,
  name: RegExp | string,
  yes: RegExp | string = /^Yes,/,
): Promise<void> {
  await scope.getByRole("button", { name }).click();
  await scope.getByRole("button", { name: yes }).click();
}

/** The page's document scroll height minus the viewport: how far it can scroll. */
export const scrollSlack = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);

export async function openScreen(page: Page, name: string): Promise<void> {
  await page.getByRole("navigation", { name: "Wallet" }).getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

/**
 * Scans the page with axe (WCAG 2.x A/AA) and saves a screenshot as a test artifact (and for the
 * README when asked). No serious or critical violation is allowed.
 */
export async function checkScreen(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const bad = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(bad, `axe violations on ${name}`).toEqual([]);
  const shot = await page.screenshot({ fullPage: true });
  await testInfo.attach(`${name}.png`, { body: shot, contentType: "image/png" });
  if (README_SHOTS) {
    mkdirSync(README_SHOTS, { recursive: true });
    const width = page.viewportSize()?.width ?? 0;
    await page.screenshot({
      fullPage: true,
      path: join(README_SHOTS, `${name}${width < 500 ? "-phone" : ""}.png`),
    });
  }
}
