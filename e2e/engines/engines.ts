// Firefox and WebKit from Debian's packages, behind one small page interface the engine suites
// share (e2e/engines/*.test.ts): Firefox ESR driven by puppeteer-core over WebDriver BiDi, WebKitGTK
// (Safari's engine) as MiniBrowser driven by WebKitWebDriver over WebDriver classic under Xvfb.
// Every page starts in fresh storage (Firefox: a new user context; WebKit: a new browser session).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { Builder, By, type WebDriver } from "selenium-webdriver";
import { connectMarionette, type MarionetteClient } from "./marionette.js";

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";
export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? "/usr/bin/WebKitWebDriver";
export const MINIBROWSER_PATH =
  process.env.MINIBROWSER_PATH ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

export type EngineName = "firefox" | "webkit";
export const ENGINES: EngineName[] = ["firefox", "webkit"];

/** One page of an engine. Elements are found by XPath, the one locator both protocols share. */
export interface EnginePage {
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** Runs `fn(arg)` in the page (awaiting a promise) and returns its JSON-able result. */
  evaluate<A, R>(fn: (arg: A) => R, arg: A): Promise<Awaited<R>>;
  /** A native click (WebDriver input actions: a user gesture) once the element is enabled. */
  click(xpath: string): Promise<void>;
  /**
   * A native click at a point of the viewport (CSS pixels): pointer input actions, a trusted event
   * for whatever lies at that point, a cross-origin frame's content included.
   */
  clickAt(x: number, y: number): Promise<void>;
  /** Runs `fn(arg)` in the document of the iframe at `frameXpath`, as `evaluate` does. */
  evaluateInFrame<A, R>(frameXpath: string, fn: (arg: A) => R, arg: A): Promise<Awaited<R>>;
  /**
   * Another window of this page's browser (a popup it or one of its frames opened), the first
   * whose URL contains `urlPart`, once it is open. Its `close` closes that window only.
   */
  window(urlPart: string): Promise<EnginePage>;
  /** Replaces an input's value by typing `text` into it. */
  fill(xpath: string, text: string): Promise<void>;
  /** Picks the option with `value` in a select. */
  select(xpath: string, value: string): Promise<void>;
  close(): Promise<void>;
}

/** A WebDriver virtual authenticator (WebAuthn extension commands). */
export type VirtualAuthenticator = {
  id: string;
  setUserVerified(verified: boolean): Promise<void>;
};

export interface Engine {
  readonly name: EngineName;
  readonly version: string;
  /** A page in fresh storage (private browsing when the engine was launched with `private`). */
  open(): Promise<EnginePage>;
  /**
   * Adds a CTAP2 platform authenticator (resident keys, user verification) to `page`'s browser.
   * Rejects with the automation's own answer where it has no such command.
   */
  addVirtualAuthenticator(page: EnginePage): Promise<VirtualAuthenticator>;
  close(): Promise<void>;
}

export type LaunchOptions = {
  /** Firefox: every window private (browser.privatebrowsing.autostart); WebKit: `--private`. */
  private?: boolean;
};

export function launchEngine(name: EngineName, options: LaunchOptions = {}): Promise<Engine> {
  return name === "firefox" ? launchFirefox(options) : launchWebKit(options);
}

/** Polls `check` until it returns something other than `undefined`/`false`; fails after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`, { cause: last });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A string as an XPath literal (XPath 1.0 has no escapes: concat() when both quotes occur). */
export function xpathLiteral(text: string): string {
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  return `concat(${text
    .split('"')
    .map((part) => `"${part}"`)
    .join(`, '"', `)})`;
}

// ---- Firefox: puppeteer-core over WebDriver BiDi, Marionette for the WebAuthn commands ----------

async function launchFirefox(options: LaunchOptions): Promise<Engine> {
  const profile = mkdtempSync(join(tmpdir(), "signet-firefox-"));
  const browser: Browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX_PATH,
    headless: true,
    userDataDir: profile,
    args: ["--marionette"],
    extraPrefsFirefox: {
      // Marionette on a free port, written to <profile>/MarionetteActivePort.
      "marionette.port": 0,
      // WebAuthn requests go to WebDriver's virtual authenticators, never to a USB token.
      "security.webauth.webauthn_enable_softtoken": true,
      "security.webauth.webauthn_enable_usbtoken": false,
      ...(options.private ? { "browser.privatebrowsing.autostart": true } : {}),
    },
  });
  let marionette: MarionetteClient | undefined;
  const version = (await browser.version()).replace(/^firefox\//, "");
  return {
    name: "firefox",
    version,
    async open() {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      return firefoxPage(page, () => context.close());
    },
    async addVirtualAuthenticator() {
      if (!marionette) {
        const portFile = join(profile, "MarionetteActivePort");
        const port = await waitUntil(
          async () => existsSync(portFile) && Number(readFileSync(portFile, "utf8")),
          "Firefox's Marionette port",
        );
        marionette = await connectMarionette(port);
      }
      const client = marionette;
      const id = (await client.send("WebAuthn:AddVirtualAuthenticator", {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        isUserConsenting: true,
      })) as string;
      return {
        id,
        async setUserVerified(verified) {
          await client.send("WebAuthn:SetUserVerified", {
            authenticatorId: id,
            isUserVerified: verified,
          });
        },
      };
    },
    async close() {
      marionette?.close();
      // Firefox may still run (and write to its profile) after the BiDi close answers, and after
      // a passkey test its shutdown can hang: it gets 5 s to exit, then SIGKILL.
      const firefox = browser.process();
      const running = () =>
        firefox !== null && firefox.exitCode === null && firefox.signalCode === null;
      const exited = running()
        ? new Promise<boolean>((resolve) => firefox?.once("exit", () => resolve(true)))
        : Promise.resolve(true);
      await browser.close();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 5_000);
      });
      if (!(await Promise.race([exited, grace]))) {
        firefox?.kill("SIGKILL");
        await exited;
      }
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

function firefoxPage(page: Page, close: () => Promise<void>): EnginePage {
  const element = async (xpath: string): Promise<ElementHandle<Element>> =>
    waitUntil(
      async () => (await page.$(`::-p-xpath(${xpath})`)) ?? undefined,
      `an element at ${xpath}`,
    );
  const enabled = async (xpath: string) => {
    const handle = await element(xpath);
    await waitUntil(
      () => handle.evaluate((node) => !(node as HTMLButtonElement).disabled),
      `${xpath} to be enabled`,
    );
    return handle;
  };
  return {
    async goto(url) {
      await page.goto(url);
    },
    async reload() {
      await page.reload();
    },
    evaluate: (fn, arg) => page.evaluate(fn as (arg: unknown) => unknown, arg) as never,
    async click(xpath) {
      await (await enabled(xpath)).click();
    },
    async clickAt(x, y) {
      // WebDriver BiDi input.performActions: a pointer move, down and up on the top context.
      await page.mouse.click(x, y);
    },
    async evaluateInFrame(frameXpath, fn, arg) {
      const frame = await waitUntil(
        async () => (await (await element(frameXpath)).contentFrame()) ?? undefined,
        `the frame at ${frameXpath}`,
      );
      return frame.evaluate(fn as (arg: unknown) => unknown, arg) as never;
    },
    async window(urlPart) {
      const target = await page
        .browserContext()
        .waitForTarget((candidate) => candidate.url().includes(urlPart), { timeout: 15_000 });
      const opened = await target.page();
      if (!opened) throw new Error(`no page for the window at ${target.url()}`);
      return firefoxPage(opened, async () => {
        if (!opened.isClosed()) await opened.close();
      });
    },
    async fill(xpath, text) {
      const handle = await enabled(xpath);
      await handle.evaluate((node) => (node as HTMLInputElement).select());
      await handle.type(text);
    },
    async select(xpath, value) {
      await (await enabled(xpath)).select(value);
    },
    close,
  };
}

// ---- WebKit: WebKitWebDriver (WebDriver classic) and MiniBrowser under Xvfb ---------------------

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Xvfb on the first free display (it writes the number to fd 3 once it accepts clients). */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn(
    "Xvfb",
    ["-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
    {
      stdio: ["ignore", "ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  xvfb.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const display = await new Promise<string>((resolve, reject) => {
    xvfb.stdio[3]?.once("data", (chunk: Buffer) => resolve(`:${chunk.toString().trim()}`));
    xvfb.once("error", reject);
    xvfb.once("exit", (code) => reject(new Error(`Xvfb exited with ${code}: ${stderr}`)));
  });
  return { display, process: xvfb };
}

async function launchWebKit(options: LaunchOptions): Promise<Engine> {
  const xvfb = await startXvfb();
  const port = await freePort();
  const driverProcess = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`, "--host=127.0.0.1"], {
    env: { ...process.env, DISPLAY: xvfb.display },
    stdio: "ignore",
  });
  const server = `http://127.0.0.1:${port}`;
  // Should the test process end without close(), the driver and Xvfb end with it.
  const killAll = () => {
    driverProcess.kill("SIGKILL");
    xvfb.process.kill("SIGKILL");
  };
  process.once("exit", killAll);
  const stopAll = async () => {
    process.off("exit", killAll);
    await stop(driverProcess);
    await stop(xvfb.process);
  };
  try {
    await waitUntil(
      async () => (await fetch(`${server}/status`).catch(() => undefined))?.ok,
      "WebKitWebDriver to listen",
      10_000,
    );
  } catch (error) {
    await stopAll();
    throw error;
  }
  const newDriver = async (): Promise<WebDriver> => {
    const driver = await new Builder()
      .usingServer(server)
      .withCapabilities({
        browserName: "MiniBrowser",
        "webkitgtk:browserOptions": {
          binary: MINIBROWSER_PATH,
          args: ["--automation", ...(options.private ? ["--private"] : [])],
        },
      })
      .build();
    await driver.manage().setTimeouts({ script: 60_000, pageLoad: 30_000 });
    return driver;
  };
  const first = await newDriver();
  const version = String((await first.getCapabilities()).get("browserVersion"));
  await first.quit();
  const sessions = new Map<EnginePage, WebDriver>();
  return {
    name: "webkit",
    version,
    async open() {
      const driver = await newDriver();
      const page = webkitPage(driver, {}, undefined, async () => {
        sessions.delete(page);
        await driver.quit();
      });
      sessions.set(page, driver);
      return page;
    },
    async addVirtualAuthenticator(page) {
      const driver = sessions.get(page);
      if (!driver) throw new Error("not a page of this engine");
      const sessionId = (await driver.getSession()).getId();
      const response = await fetch(`${server}/session/${sessionId}/webauthn/authenticator`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        }),
      });
      const answer = (await response.json()) as { value?: { error?: string } | string };
      if (!response.ok || typeof answer.value !== "string")
        throw new Error(`WebKitWebDriver: ${JSON.stringify(answer.value)}`);
      const id = answer.value;
      return {
        id,
        async setUserVerified(verified) {
          await fetch(`${server}/session/${sessionId}/webauthn/authenticator/${id}/uv`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ isUserVerified: verified }),
          });
        },
      };
    },
    async close() {
      for (const page of [...sessions.keys()]) await page.close().catch(() => undefined);
      await stopAll();
    },
  };
}

// executeAsyncScript's body: runs the serialised function and reports a value or an error.
const RUN = `const done = arguments[arguments.length - 1];
Promise.resolve()
  .then(() => (FN)(arguments[0]))
  .then(
    (value) => done({ ok: true, defined: value !== undefined, value: value === undefined ? null : value }),
    (error) => done({ ok: false, error: String((error && error.stack) || error) + " (" + String(error) + ")" }),
  );`;

/** A WebDriver session's windows: the page's own, and the one commands go to now. */
type WebKitWindows = { main?: string | undefined; current?: string | undefined };

/**
 * A window of a WebKit session: the session's first (`own` undefined) or a popup (`own`, its
 * handle). WebDriver sends commands to one window at a time, so each call switches there first.
 */
function webkitPage(
  driver: WebDriver,
  windows: WebKitWindows,
  own: string | undefined,
  close: () => Promise<void>,
): EnginePage {
  const focus = async () => {
    const mine = own ?? windows.main;
    if (mine === undefined || windows.current === mine) return;
    await driver.switchTo().window(mine);
    windows.current = mine;
  };
  const run = async (fn: (arg: never) => unknown, arg: unknown): Promise<unknown> => {
    await focus();
    const result = (await driver.executeAsyncScript(
      RUN.replace("FN", () => fn.toString()),
      arg,
    )) as {
      ok: boolean;
      defined?: boolean;
      value?: unknown;
      error?: string;
    };
    if (!result.ok) throw new Error(`in WebKit: ${result.error}`);
    return result.defined ? result.value : undefined;
  };
  const element = (xpath: string) =>
    waitUntil(async () => {
      await focus();
      const [found] = await driver.findElements(By.xpath(xpath));
      return found && (await found.isEnabled()) ? found : undefined;
    }, `an enabled element at ${xpath}`);
  return {
    async goto(url) {
      await focus();
      await driver.get(url);
    },
    async reload() {
      await focus();
      await driver.navigate().refresh();
    },
    evaluate: (fn, arg) => run(fn, arg) as never,
    async click(xpath) {
      await (await element(xpath)).click();
    },
    async clickAt(x, y) {
      await focus();
      // WebDriver input actions from the viewport's origin: move, press, release.
      await driver
        .actions()
        .move({ x: Math.round(x), y: Math.round(y) })
        .press()
        .release()
        .perform();
    },
    async evaluateInFrame(frameXpath, fn, arg) {
      await focus();
      await driver.switchTo().frame(await element(frameXpath));
      try {
        return (await run(fn, arg)) as never;
      } finally {
        await driver.switchTo().defaultContent();
      }
    },
    async window(urlPart) {
      await focus();
      // WebDriver stays on the page's window when a popup opens: that is the session's first.
      windows.main ??= await driver.getWindowHandle();
      windows.current ??= windows.main;
      const handle = await waitUntil(async () => {
        for (const candidate of await driver.getAllWindowHandles()) {
          if (candidate === windows.main) continue;
          await driver.switchTo().window(candidate);
          windows.current = candidate;
          if ((await driver.getCurrentUrl()).includes(urlPart)) return candidate;
        }
        return undefined;
      }, `a window at ${urlPart}`);
      return webkitPage(driver, windows, handle, async () => {
        // It may have closed itself already.
        if ((await driver.getAllWindowHandles()).includes(handle)) {
          windows.current = handle;
          await driver.switchTo().window(handle);
          await driver.close();
        }
        windows.current = undefined;
      });
    },
    async fill(xpath, text) {
      const input = await element(xpath);
      await input.clear();
      await input.sendKeys(text);
    },
    async select(xpath, value) {
      await (await element(`${xpath}/option[@value=${xpathLiteral(value)}]`)).click();
    },
    close,
  };
}
