// The demo server (apps/demo/server) as the security review asked for it, over real HTTP against
// the real server on a free port: server-side sessions (a copied cookie is refused after
// sign-out), cookie attributes with and without https, sign-in rate limits (429 + Retry-After),
// loopback by default, and the attack switch: a compromised backend whose rewritten requests the
// device (the real core client, against the demo's relay) refuses with PAYLOAD_MISMATCH.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createClient,
  createMemoryKeyStore,
  exportWallet,
  refreshSession,
  revokeSession,
  SignetError,
  updateCustomerContact,
} from "@signet/core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ATTACKER_EMAIL,
  attackFetch,
  attackWarning,
  type DemoAttack,
  parseDemoAttack,
} from "../apps/demo/server/attack.js";
import { COOKIE_NAME, readSessionId } from "../apps/demo/server/cookie.js";
import { deviceName } from "../apps/demo/server/device.js";
import { createWindowLimiter } from "../apps/demo/server/rateLimit.js";
import { DEMO_ROUTES } from "../apps/demo/server/routes/index.js";
import {
  type DemoServer,
  type DemoServerOptions,
  startDemoServer,
} from "../apps/demo/server/server.js";
import { createSessionStore } from "../apps/demo/server/sessions.js";
import { signInWithEmail } from "./support/signIn.js";

const appDir = join(fileURLToPath(new URL("..", import.meta.url)), "apps/demo/dist/app");

const open: DemoServer[] = [];
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await Promise.all(open.splice(0).map((demo) => demo.close()));
});

async function start(options: Partial<DemoServerOptions> = {}): Promise<DemoServer> {
  const demo = await startDemoServer({ appDir, port: 0, settlementDelayMs: 50, ...options });
  open.push(demo);
  return demo;
}

const freshEmail = (tag: string) =>
  `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

type Answer = { status: number; headers: Headers; body: Record<string, unknown> };

async function call(
  demo: DemoServer,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${demo.url}${path}`, {
    method,
    headers: {
      ...(method === "GET" ? {} : { "content-type": "application/json" }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

async function signIn(demo: DemoServer, email = freshEmail("user"), headers = {}) {
  const answer = await call(demo, "POST", "/api/demo/signin", { body: { email }, headers });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const setCookie = answer.headers.get("set-cookie") ?? "";
  const cookie = setCookie.split(";")[0]!;
  return { answer, setCookie, cookie, profile: answer.body as Record<string, string> };
}

describe("sessions on the server", () => {
  let demo: DemoServer;
  beforeAll(async () => {
    demo = await start();
  });

  it("listens on loopback by default", () => {
    expect(["127.0.0.1", "::1"]).toContain(demo.address.host);
    expect(demo.url).toMatch(/^http:\/\/localhost:\d+$/);
    expect(demo.attack).toBeUndefined();
  });

  it("the cookie is an opaque random id with HttpOnly, SameSite=Strict, Path=/ and no Secure over http", async () => {
    const email = freshEmail("opaque");
    const { setCookie, cookie, profile } = await signIn(demo, email);
    const id = readSessionId(cookie);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(cookie.startsWith(`${COOKIE_NAME}=`)).toBe(true);
    // Nothing about the user travels in it, encoded or not.
    const decoded = Buffer.from(id!, "base64url").toString("latin1");
    for (const secret of [email, profile.customerId!, profile.accountId!])
      expect(`${setCookie}${decoded}`).not.toContain(secret);
    const attributes = setCookie.split(";").map((part) => part.trim());
    expect(attributes).toEqual(
      expect.arrayContaining(["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=86400"]),
    );
    expect(attributes).not.toContain("Secure");
    // Two sign-ins of the same email are two sessions.
    const again = await signIn(demo, email);
    expect(again.cookie).not.toBe(cookie);
  });

  it("a cookie copied before sign-out is refused afterwards, by the demo endpoints and the relay", async () => {
    const { cookie, profile } = await signIn(demo);
    const copy = cookie;
    const relayPath = `/api/grid/auth/credentials?accountId=${encodeURIComponent(profile.accountId!)}`;
    expect((await call(demo, "GET", "/api/demo/me", { headers: { cookie } })).status).toBe(200);
    expect((await call(demo, "GET", relayPath, { headers: { cookie } })).status).toBe(200);

    const out = await call(demo, "POST", "/api/demo/signout", { headers: { cookie } });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(new RegExp(`^${COOKIE_NAME}=; Max-Age=0;`));

    // /me answers 200 "nobody" (a first visit is no error); every other endpoint 401.
    const me = await call(demo, "GET", "/api/demo/me", { headers: { cookie: copy } });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ signedIn: false });
    const fund = await call(demo, "POST", "/api/demo/fund", {
      body: { amount: 1 },
      headers: { cookie: copy },
    });
    expect(fund.status).toBe(401);
    const relay = await call(demo, "GET", relayPath, { headers: { cookie: copy } });
    expect(relay.status).toBe(401);
  });

  it("a made-up or malformed cookie is refused", async () => {
    for (const value of ["x", "A".repeat(43), "eyJlbWFpbCI6ImEifQ.c2ln"]) {
      const me = await call(demo, "GET", "/api/demo/me", {
        headers: { cookie: `${COOKIE_NAME}=${value}` },
      });
      expect(me.body).toEqual({ signedIn: false });
      const fund = await call(demo, "POST", "/api/demo/fund", {
        body: { amount: 1 },
        headers: { cookie: `${COOKIE_NAME}=${value}` },
      });
      expect(fund.status).toBe(401);
      expect(fund.body.code).toBe("SIGNED_OUT");
    }
  });

  it("signing in again ends the session the browser brought (no fixation)", async () => {
    const first = await signIn(demo);
    const second = await call(demo, "POST", "/api/demo/signin", {
      body: { email: freshEmail("again") },
      headers: { cookie: first.cookie },
    });
    expect(second.status).toBe(200);
    expect(
      (await call(demo, "GET", "/api/demo/me", { headers: { cookie: first.cookie } })).body,
    ).toEqual({ signedIn: false });
  });

  it("a session expires", async () => {
    const short = await start({ sessions: { ttlMs: 200 } });
    const { cookie, setCookie } = await signIn(short);
    expect(setCookie).toContain("Max-Age=1;");
    expect((await call(short, "GET", "/api/demo/me", { headers: { cookie } })).body.signedIn).toBe(
      true,
    );
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await call(short, "GET", "/api/demo/me", { headers: { cookie } })).body).toEqual({
      signedIn: false,
    });
  });

  it("a first visit asks /me and gets 200 signedIn: false, not a 401", async () => {
    const me = await call(demo, "GET", "/api/demo/me");
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ signedIn: false });
  });

  it("a 300-character email is told its length, not to restart the demo", async () => {
    const email = `${"a".repeat(288)}@example.com`;
    const refused = await call(demo, "POST", "/api/demo/signin", { body: { email } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("INVALID_EMAIL");
    expect(refused.body.message).toMatch(/300 characters long; an email address has at most 254/);
  });

  it("activity lists the customer's transactions; receive gives the wallet's details", async () => {
    const { cookie, profile } = await signIn(demo);
    const fund = await call(demo, "POST", "/api/demo/fund", {
      body: { amount: 5_000 },
      headers: { cookie },
    });
    expect(fund.status).toBe(200);
    const activity = await call(demo, "GET", "/api/demo/activity", { headers: { cookie } });
    expect(activity.status).toBe(200);
    const items = activity.body.data as Array<{ direction: string; status: string }>;
    expect(items).toEqual([expect.objectContaining({ direction: "CREDIT", status: "COMPLETED" })]);
    const receive = await call(demo, "GET", "/api/demo/receive", { headers: { cookie } });
    expect(receive.body).toEqual(expect.objectContaining({ accountId: profile.accountId }));
    expect((await call(demo, "GET", "/api/demo/activity")).status).toBe(401);
  });

  it("a new contact is proved by a code first: wrong codes refused, five used up", async () => {
    const { cookie } = await signIn(demo);
    const verify = (code: string) =>
      call(demo, "POST", "/api/demo/contact/verify", { body: { code }, headers: { cookie } });
    expect((await verify("000000")).body.code).toBe("NO_CODE_PENDING");
    const bad = await call(demo, "POST", "/api/demo/contact/start", {
      body: { phoneNumber: "12" },
      headers: { cookie },
    });
    expect(bad.body.code).toBe("INVALID_PHONE");
    const start = await call(demo, "POST", "/api/demo/contact/start", {
      body: { phoneNumber: "+1 415 555 0123" },
      headers: { cookie },
    });
    expect(start.body).toEqual({ sentTo: "+14155550123" });
    expect((await verify("111111")).body.code).toBe("WRONG_CODE");
    const ok = await verify("000 000");
    expect(ok.body).toEqual({ kind: "phoneNumber", value: "+14155550123" });
    await call(demo, "POST", "/api/demo/contact/start", {
      body: { email: "new@example.com" },
      headers: { cookie },
    });
    for (let i = 0; i < 5; i++) await verify("111111");
    expect((await verify("000000")).body.code).toBe("TOO_MANY_CODES");
  });
});

describe("Secure cookies", () => {
  it("https: the cookie is Secure, the clearing one too", async () => {
    const demo = await start({ https: true });
    const { setCookie, cookie } = await signIn(demo);
    expect(setCookie.split("; ")).toContain("Secure");
    const out = await call(demo, "POST", "/api/demo/signout", { headers: { cookie } });
    expect(out.headers.get("set-cookie")?.split("; ")).toContain("Secure");
  });

  it("X-Forwarded-Proto: https counts only from a trusted proxy", async () => {
    const proxied = { "x-forwarded-proto": "https" };
    const trusting = await start({ trustProxy: true });
    expect((await signIn(trusting, undefined, proxied)).setCookie.split("; ")).toContain("Secure");
    expect((await signIn(trusting)).setCookie.split("; ")).not.toContain("Secure");
    const direct = await start();
    expect((await signIn(direct, undefined, proxied)).setCookie.split("; ")).not.toContain(
      "Secure",
    );
  });
});

describe("sign-in rate limits", () => {
  it("per email: 429 RATE_LIMITED with Retry-After beyond the limit", async () => {
    const demo = await start({
      trustProxy: true,
      signInRateLimit: { perIp: 100, perEmail: 2, windowMs: 30_000 },
    });
    const email = freshEmail("limited");
    // From different addresses: the email's own limit holds.
    for (const ip of ["203.0.113.1", "203.0.113.2"])
      await signIn(demo, email, { "x-forwarded-for": ip });
    const refused = await call(demo, "POST", "/api/demo/signin", {
      body: { email: email.toUpperCase() },
      headers: { "x-forwarded-for": "203.0.113.3" },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("RATE_LIMITED");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(refused.headers.get("set-cookie")).toBeNull();
    // Another email is still welcome.
    await signIn(demo, freshEmail("other"), { "x-forwarded-for": "203.0.113.3" });
  });

  it("per client address: invalid attempts count too; X-Forwarded-For only behind a trusted proxy", async () => {
    const demo = await start({ signInRateLimit: { perIp: 3, perEmail: 100, windowMs: 60_000 } });
    await signIn(demo);
    const bad = await call(demo, "POST", "/api/demo/signin", { body: { email: "nope" } });
    expect(bad.status).toBe(400);
    // A spoofed X-Forwarded-For does not make a new client when no proxy is trusted.
    await signIn(demo, freshEmail("third"), { "x-forwarded-for": "198.51.100.7" });
    const refused = await call(demo, "POST", "/api/demo/signin", {
      body: { email: freshEmail("fourth") },
      headers: { "x-forwarded-for": "198.51.100.8" },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Signed-in users are not affected: the limit is on sign-in only.
    expect((await call(demo, "GET", "/api/demo/config")).status).toBe(200);
  });

  it("the window ends and the tracked keys are bounded", () => {
    let now = 0;
    const limiter = createWindowLimiter({ limit: 2, windowMs: 10_000, maxKeys: 3, now: () => now });
    expect([limiter.hit("a"), limiter.hit("a"), limiter.hit("a")]).toEqual([0, 0, 10]);
    now = 9_001;
    expect(limiter.hit("a")).toBe(1);
    now = 10_000;
    expect(limiter.hit("a")).toBe(0);
    for (const key of ["b", "c", "d"]) limiter.hit(key);
    // "a" was the oldest of four: it went, so it starts over.
    expect([limiter.hit("a"), limiter.hit("a")]).toEqual([0, 0]);
  });
});

describe("the session store", () => {
  const user = { email: "a@example.com", customerId: "c", accountId: "a", region: "US" };
  it("is bounded in count (the oldest goes) and expires records", () => {
    let now = 0;
    const store = createSessionStore({ maxSessions: 2, ttlMs: 1_000, now: () => now });
    const [a, b] = [store.create(user), store.create(user)];
    const c = store.create(user);
    expect(store.size).toBe(2);
    expect(store.get(a)).toBeNull();
    expect(store.get(b)).toEqual(user);
    now = 1_000;
    expect(store.get(c)).toBeNull();
    store.create(user);
    expect(store.size).toBe(1);
  });
  it("deletes on sign-out", () => {
    const store = createSessionStore();
    const id = store.create(user);
    store.delete(id);
    expect(store.get(id)).toBeNull();
  });
});

describe("the attack switch", () => {
  const recording = () => {
    const seen: { url: string; method: string; body: string | undefined }[] = [];
    const upstream: typeof fetch = async (input, init = {}) => {
      const raw = init.body as Uint8Array | string | undefined;
      seen.push({
        url: String(input),
        method: init.method ?? "GET",
        body: raw === undefined || typeof raw === "string" ? raw : new TextDecoder().decode(raw),
      });
      return new Response("{}", { status: 202 });
    };
    return { seen, upstream };
  };
  const base = "http://127.0.0.1:1/grid";
  const deviceKey = `04${"ab".repeat(64)}`;
  const compressedKey = `02${"cd".repeat(32)}`;
  const json = (value: unknown) => ({
    headers: { "content-type": "application/json", "content-length": "999" },
    body: new TextEncoder().encode(JSON.stringify(value)),
  });

  it("DEMO_ATTACK: unset is off, a known attack is on, anything else is an error", () => {
    expect(parseDemoAttack(undefined)).toBeUndefined();
    expect(parseDemoAttack("")).toBeUndefined();
    expect(parseDemoAttack("export-key")).toBe("export-key");
    expect(() => parseDemoAttack("steal-everything")).toThrow(/export-key, refresh-key, email/);
  });

  it("rewrites only the named request's body, in the same key format", async () => {
    const { seen, upstream } = recording();
    const exportKey = attackFetch("export-key", upstream);
    const refreshKey = attackFetch("refresh-key", upstream);
    const email = attackFetch("email", upstream);
    const exportPath = `${base}/internal-accounts/InternalAccount:1/export`;
    const refreshPath = `${base}/auth/sessions/Session:1/refresh`;
    const customerPath = `${base}/customers/Customer:1`;

    await exportKey(exportPath, { method: "POST", ...json({ clientPublicKey: deviceKey }) });
    await exportKey(exportPath, { method: "POST", ...json({ clientPublicKey: deviceKey }) });
    await refreshKey(refreshPath, { method: "POST", ...json({ clientPublicKey: compressedKey }) });
    await email(customerPath, { method: "PATCH", ...json({ email: "me@example.com" }) });
    const [first, second, refreshed, patched] = seen.map((s) => JSON.parse(s.body!));
    expect(first.clientPublicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(first.clientPublicKey).not.toBe(deviceKey);
    // Every leg alike, so the service's pending request matches.
    expect(second.clientPublicKey).toBe(first.clientPublicKey);
    expect(refreshed.clientPublicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(refreshed.clientPublicKey).not.toBe(compressedKey);
    expect(patched).toEqual({ email: ATTACKER_EMAIL });

    // Everything else passes byte for byte.
    seen.length = 0;
    const untouched: [typeof fetch, string, string, unknown][] = [
      [exportKey, refreshPath, "POST", { clientPublicKey: deviceKey }],
      [exportKey, exportPath, "GET", undefined],
      [refreshKey, exportPath, "POST", { clientPublicKey: deviceKey }],
      [email, customerPath, "PATCH", { phoneNumber: "+15555550100" }],
      [email, `${base}/customers`, "POST", { email: "new@example.com" }],
    ];
    for (const [wrapped, url, method, body] of untouched)
      await wrapped(url, { method, ...(body === undefined ? {} : json(body)) });
    expect(seen.map((s) => s.body)).toEqual(
      untouched.map(([, , , body]) => (body === undefined ? undefined : JSON.stringify(body))),
    );
  });

  it("the warning says what is rewritten", () => {
    for (const attack of ["export-key", "refresh-key", "email"] as const)
      expect(attackWarning(attack)).toMatch(/COMPROMISED BACKEND[\s\S]*PAYLOAD_MISMATCH/);
  });
});

describe("the attack switch against the real core client", () => {
  /** A core client signed in to the demo's relay (cookie) and to the wallet (email OTP). */
  async function device(demo: DemoServer) {
    const { cookie, profile } = await signIn(demo);
    const me = await call(demo, "GET", "/api/demo/me", { headers: { cookie } });
    const credentials = me.body.credentials as { id: string; type: string }[];
    const config = await call(demo, "GET", "/api/demo/config");
    const client = createClient({
      relayUrl: `${demo.url}/api/grid`,
      headers: { cookie },
      keyStore: createMemoryKeyStore(),
      trustedKeys: config.body.trustedKeys as { otpTargetBundle: string[] },
      signedRequests: { backoff: { baseMs: 5, maxMs: 20 } },
    });
    await signInWithEmail(client, credentials.find((c) => c.type === "EMAIL_OTP")!.id);
    return { client, customerId: profile.customerId!, accountId: profile.accountId! };
  }

  const refusal = async (action: Promise<unknown>) => {
    const error = await action.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(SignetError);
    return error as SignetError;
  };

  it("off by default: the export completes with the device's own key", async () => {
    const demo = await start();
    const { client, accountId } = await device(demo);
    const mnemonic = await exportWallet(client, { accountId });
    expect(mnemonic.split(" ").length).toBeGreaterThanOrEqual(12);
  });

  it("export-key: a loud startup warning, and the device refuses with PAYLOAD_MISMATCH", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const demo = await start({ attack: "export-key" });
    expect(demo.attack).toBe("export-key");
    expect(warn.mock.calls.flat().join("\n")).toMatch(/DEMO_ATTACK=export-key.*COMPROMISED/);
    const { client, accountId } = await device(demo);
    const error = await refusal(exportWallet(client, { accountId }));
    expect(error.code).toBe("PAYLOAD_MISMATCH");
    expect(error.retryable).toBe(false);
  });

  const others: [DemoAttack, (d: Awaited<ReturnType<typeof device>>) => Promise<unknown>][] = [
    ["refresh-key", ({ client, accountId }) => refreshSession(client, { accountId })],
    [
      "email",
      ({ client, customerId, accountId }) =>
        updateCustomerContact(client, { customerId, accountId, email: freshEmail("new") }),
    ],
  ];
  for (const [attack, action] of others)
    it(`${attack}: the device refuses with PAYLOAD_MISMATCH`, async () => {
      vi.spyOn(console, "warn").mockImplementation(() => {});
      const demo = await start({ attack });
      const error = await refusal(action(await device(demo)));
      expect(error.code).toBe("PAYLOAD_MISMATCH");
      expect(JSON.stringify(error)).not.toContain(ATTACKER_EMAIL);
    });
});

describe("round two: one identity, live sessions, named devices, a restart seen", () => {
  /** A core client signed in to the demo (cookie) and to the wallet (email OTP). */
  async function signedIn(demo: DemoServer, email = freshEmail("r2")) {
    const { cookie, profile } = await signIn(demo, email);
    const me = await call(demo, "GET", "/api/demo/me", { headers: { cookie } });
    const credentials = me.body.credentials as { id: string; type: string }[];
    const config = await call(demo, "GET", "/api/demo/config");
    const client = createClient({
      relayUrl: `${demo.url}/api/grid`,
      headers: { cookie },
      keyStore: createMemoryKeyStore(),
      trustedKeys: config.body.trustedKeys as { otpTargetBundle: string[] },
    });
    const session = await signInWithEmail(
      client,
      credentials.find((c) => c.type === "EMAIL_OTP")!.id,
    );
    return {
      client,
      cookie,
      session,
      customerId: profile.customerId!,
      accountId: profile.accountId!,
    };
  }

  it("the demo login follows a verified email change: the new address finds the same customer, the old one no longer does", async () => {
    const demo = await start();
    const old = freshEmail("before");
    const { client, cookie, customerId, accountId } = await signedIn(demo, old);
    const next = freshEmail("after");
    expect(
      (
        await call(demo, "POST", "/api/demo/contact/start", {
          body: { email: next },
          headers: { cookie },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(demo, "POST", "/api/demo/contact/verify", {
          body: { code: "000000" },
          headers: { cookie },
        })
      ).status,
    ).toBe(200);
    await updateCustomerContact(client, { customerId, accountId, email: next });
    // Before any /me: the proved and signed address signs in to the same customer.
    const again = await signIn(demo, next);
    expect(again.profile.customerId).toBe(customerId);
    expect(again.profile.email).toBe(next);
    const me = await call(demo, "GET", "/api/demo/me", { headers: { cookie: again.cookie } });
    expect(me.body.email).toBe(next);
    const stranger = await signIn(demo, old);
    expect(stranger.profile.customerId).not.toBe(customerId);
  });

  it("funding and quotes with a wallet session the service no longer has: 401 WALLET_SESSION_ENDED, nothing funded", async () => {
    const demo = await start();
    const { client, cookie, session, accountId } = await signedIn(demo);
    const fund = (sessionId: string) =>
      call(demo, "POST", "/api/demo/fund", {
        body: { amount: 100, sessionId },
        headers: { cookie },
      });
    expect((await fund(session.id)).status).toBe(200);
    await revokeSession(client, { accountId, sessionId: session.id });
    const refused = await fund(session.id);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("WALLET_SESSION_ENDED");
    const quote = await call(demo, "POST", "/api/demo/quote", {
      body: { amount: 100, sessionId: session.id },
      headers: { cookie },
    });
    expect(quote.body.code).toBe("WALLET_SESSION_ENDED");
    const activity = await call(demo, "GET", "/api/demo/activity", { headers: { cookie } });
    expect((activity.body.data as unknown[]).length).toBe(1);
  });

  it("a wallet session is named by the device's User-Agent, and only a session of the wallet", async () => {
    const demo = await start();
    const { cookie, session } = await signedIn(demo);
    const chrome =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36";
    const named = await call(demo, "POST", "/api/demo/devices", {
      body: { sessionId: session.id },
      headers: { cookie, "user-agent": chrome },
    });
    expect(named.body).toEqual({ name: "Chrome on Linux" });
    const other = await call(demo, "POST", "/api/demo/devices", {
      body: { sessionId: "Session:not-this-wallets" },
      headers: { cookie },
    });
    expect(other.status).toBe(404);
    const list = await call(demo, "GET", "/api/demo/devices", { headers: { cookie } });
    expect(list.body).toEqual({ devices: { [session.id]: "Chrome on Linux" } });
    expect(deviceName("SignetWallet/0.1 (ios)")).toBe("Signet Wallet on iOS");
    expect(deviceName(undefined)).toBe("A browser");
  });

  it("the configuration names the server's start: another start, another instanceId", async () => {
    const first = await start();
    const second = await start();
    const a = (await call(first, "GET", "/api/demo/config")).body.instanceId;
    const b = (await call(second, "GET", "/api/demo/config")).body.instanceId;
    expect(a).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(b).not.toBe(a);
  });

  it("the endpoints are a route table: one handler per route, each open or signed-in only", () => {
    const open = Object.entries(DEMO_ROUTES)
      .filter(([, route]) => !route.signedIn)
      .map(([key]) => key)
      .sort();
    expect(open).toEqual([
      "GET /api/demo/config",
      "GET /api/demo/me",
      "POST /api/demo/signin",
      "POST /api/demo/signout",
    ]);
    for (const key of Object.keys(DEMO_ROUTES))
      expect(key).toMatch(/^(GET|POST) \/api\/demo\/[a-z/-]+$/);
  });
});
