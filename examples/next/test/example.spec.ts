// The Next.js example in Chromium against `next start`: the Node build (cacheComponents) runs
// every flow; the edge variant (`@edge` tests) runs sign-in and the EU payment through the
// edge-runtime route handler. A CDP virtual authenticator plays the passkey.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page, type TestInfo, test } from "@playwright/test";

const edge = (info: TestInfo) => info.project.name === "edge";
const home = (info: TestInfo) => (edge(info) ? "/?relay=edge" : "/");
const freshEmail = (tag: string) =>
  `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

async function addAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** Page errors and failed relay calls; none is expected. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("response", (response) => {
    // 409 on authorize is the service asking for the SCA login first (core then runs it).
    const scaLoginAsked = response.status() === 409 && response.url().endsWith("/authorize");
    if (response.url().includes("/api/grid") && response.status() >= 400 && !scaLoginAsked)
      problems.push(`${response.request().method()} ${response.url()} → ${response.status()}`);
  });
  return problems;
}

/** The demo login, then the wallet's email OTP sign-in. */
async function signUp(page: Page, info: TestInfo, email: string, region = "US"): Promise<void> {
  await page.goto(home(info));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Where you live").selectOption(region);
  if (region !== "US") await page.getByLabel(/Mobile number/).fill("+4915112345678");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("relay")).toHaveText(edge(info) ? "/api/grid-edge" : "/api/grid");
  await page.getByRole("button", { name: "Email me a code" }).click();
  await page.getByLabel("Code from the email (sandbox: 000000)").fill("000000");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("wallet-session")).toBeVisible();
}

async function fundAndQuote(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Add 500.00 test funds" }).click();
  await expect(page.getByTestId("balance")).toHaveText("500.00");
  await page.getByRole("button", { name: "Get a quote for 25.00" }).click();
  await expect(page.getByTestId("quote")).toBeVisible();
}

test("the production build ships no crypto-browserify (nor any other Node crypto polyfill) chunk", () => {
  test.skip(edge(test.info()), "checked once, for both builds");
  // crypto-browserify's own name and the names of what it bundles (pbkdf2, createCipheriv,
  // DiffieHellman…): a build without next.config.ts's alias has all of them in one 470 KB chunk.
  const markers = ["crypto-browserify", "createCipheriv", "DiffieHellman", "pbkdf2", "createECDH"];
  for (const dist of [".next", ".next-edge"]) {
    const dir = join(import.meta.dirname, "..", dist, "static", "chunks");
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".js"),
    );
    expect(files.length, `${dist} has chunks`).toBeGreaterThan(3);
    const hits = files.flatMap((file) => {
      const text = readFileSync(join(dir, file), "utf8");
      return markers.filter((m) => text.includes(m)).map((m) => `${dist}/${file}: ${m}`);
    });
    expect(hits).toEqual([]);
  }
});

test("@edge the relay route handler answers through the relay (401 before sign-in, the catch-all query dropped after)", async ({
  page,
  request,
}, info) => {
  const base = edge(info) ? "/api/grid-edge" : "/api/grid";
  const before = await request.get(`${base}/sca/factors`);
  expect(before.status()).toBe(401);
  expect(await before.json()).toMatchObject({ code: "RELAY_UNAUTHENTICATED" });
  await page.goto(home(info));
  await page.getByLabel("Email").fill(freshEmail("route"));
  await page.getByLabel("Where you live").selectOption("DE");
  await page.getByLabel(/Mobile number/).fill("+4915112345678");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("relay")).toBeVisible();
  // Signed in: a route with a query (the edge runtime adds ?path=… to it) is relayed.
  const after = await page.request.get(`${base}/sca/factors`);
  expect(after.status()).toBe(200);
  expect(after.headers()["cache-control"]).toBe("no-store");
  expect(await after.json()).toEqual({ factors: [{ factor: "SMS_OTP" }] });
});

test("@edge email OTP sign-in, sessions, export of the recovery phrase, sign-out", async ({
  page,
}, info) => {
  const problems = watch(page);
  await signUp(page, info, freshEmail("otp"));
  await expect(page.getByRole("list", { name: "Sessions" })).toContainText("This device");
  await page.getByRole("button", { name: "Reveal the recovery phrase" }).click();
  await expect(page.getByTestId("mnemonic")).toHaveText(/^([a-z]+ ){11,23}[a-z]+$/);
  await page.getByRole("button", { name: "Sign out of the wallet" }).click();
  await expect(page.getByRole("button", { name: "Email me a code" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("passkey: add one, sign out, reload, sign in with the passkey alone", async ({
  page,
}, info) => {
  const problems = watch(page);
  await addAuthenticator(page);
  await signUp(page, info, freshEmail("passkey"));
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByText("Passkey added.")).toBeVisible();
  await expect(page.getByRole("list", { name: "Sign-in methods" })).toContainText("PASSKEY");
  await page.getByRole("button", { name: "Sign out of the wallet" }).click();
  await expect(page.getByRole("button", { name: "Email me a code" })).toBeVisible();
  await page.reload();
  await page.getByRole("button", { name: "Sign in with your passkey" }).click();
  await expect(page.getByTestId("wallet-session")).toBeVisible();
  expect(problems).toEqual([]);
});

test("US payment: fund, quote, sign and send, settled to COMPLETED", async ({ page }, info) => {
  const problems = watch(page);
  await signUp(page, info, freshEmail("us"));
  await fundAndQuote(page);
  await page.getByRole("button", { name: "Sign and send" }).click();
  await expect(page.getByTestId("tx-status")).toHaveText("COMPLETED", { timeout: 30_000 });
  expect(problems).toEqual([]);
});

test("@edge EU payment: the SCA login and the conversion and payout steps, each by SMS code, to COMPLETED", async ({
  page,
}, info) => {
  const problems = watch(page);
  await signUp(page, info, freshEmail("eu"), "DE");
  await fundAndQuote(page);
  await page.getByRole("button", { name: "Sign and send" }).click();
  // Each challenge (the SCA login, which the relay gives the end user's IP, and each step of the
  // payment) is answered with the sandbox's SMS code, until the payment is released.
  const form = page.getByRole("form", { name: "Confirm the payment" });
  const confirmed = page.getByText("Payment confirmed.");
  const seen: string[] = [];
  while (seen.length < 6) {
    await expect(form.or(confirmed)).toBeVisible({ timeout: 15_000 });
    if (await confirmed.isVisible()) break;
    const challenge = await form.getAttribute("data-challenge");
    seen.push((await form.getByRole("heading").textContent()) ?? "");
    await form.getByLabel("Code sent by SMS (sandbox: 123456)").fill("123456");
    await form.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(form.and(page.locator(`[data-challenge="${challenge}"]`))).toHaveCount(0, {
      timeout: 15_000,
    });
  }
  expect(seen).toContain("Confirm it is you");
  expect(seen.filter((title) => /^Step \d+: confirm /.test(title))).toHaveLength(2);
  await expect(page.getByTestId("tx-status")).toHaveText("COMPLETED", { timeout: 30_000 });
  expect(problems).toEqual([]);
});
