// The demo server: the built app, the relay at /api/grid/ and the demo endpoints at /api/demo/
// on one origin, with the emulator in process unless GRID_* variables name the real sandbox.
import { randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { type EmulatorServer, startEmulatorServer } from "@signet/emulator";
import { createRelay, nodeRemoteAddress, toNodeHandler } from "@signet/relay";
import { attackFetch, attackWarning, type DemoAttack } from "./attack.js";
import { readSessionId, sessionCookie } from "./cookie.js";
import { createWindowLimiter } from "./rateLimit.js";
import { createSessionStore, type DemoUser, type SessionStoreOptions } from "./sessions.js";

export type { DemoAttack } from "./attack.js";
export type { DemoUser } from "./sessions.js";

/** Where the demo's service calls go. */
export type DemoUpstream =
  | { kind: "emulator" }
  | { kind: "sandbox"; baseUrl: string; clientId: string; clientSecret: string };

export type DemoServerOptions = {
  /** Default 5173; 0 picks a free port. */
  port?: number;
  /**
   * The address to listen on. Default `localhost`: loopback only (WebAuthn needs a domain, not an
   * IP address). Anything else (`0.0.0.0`, a LAN address) exposes the demo to the network.
   */
  host?: string;
  /**
   * The browser reaches the demo over https (a TLS proxy in front of it): the sign-in cookie
   * gets `Secure`. Default false.
   */
  https?: boolean;
  /**
   * A reverse proxy in front of the demo is trusted (default false): its `X-Forwarded-Proto:
   * https` makes the cookie `Secure` for that request, and the last `X-Forwarded-For` address is
   * the client's for sign-in rate limits. Without it both headers are ignored (any client can
   * send them) and the connection's address counts.
   */
  trustProxy?: boolean;
  /** Sign-in sessions: lifetime (default 24 h) and how many are kept (default 10 000). */
  sessions?: Pick<SessionStoreOptions, "ttlMs" | "maxSessions">;
  /**
   * Sign-in attempts allowed per client address and per email within `windowMs` (defaults 30 and
   * 10 per 60 s); beyond them `POST /api/demo/signin` answers 429 `RATE_LIMITED` with
   * `Retry-After`. `false` turns the limit off.
   */
  signInRateLimit?: { perIp?: number; perEmail?: number; windowMs?: number } | false;
  /**
   * Plays a compromised backend (see attack.ts; `DEMO_ATTACK` in main.ts): the relay rewrites
   * the named requests before they reach the service. Default off. Never for real money.
   */
  attack?: DemoAttack;
  /** Default: the emulator in process. */
  upstream?: DemoUpstream;
  /** The built app (index.html and assets). */
  appDir: string;
  /** Emulator settlement time in ms (default 4 000, so the progress can be seen). */
  settlementDelayMs?: number;
};

export type DemoServer = {
  url: string;
  /** The address and port the server listens on (`127.0.0.1` or `::1` by default). */
  address: { host: string; port: number };
  /** The attack the server plays, when the switch is on. */
  attack: DemoAttack | undefined;
  /** The in-process emulator, when there is one. */
  emulator: EmulatorServer | undefined;
  close(): Promise<void>;
};

/** The regions a demo customer can pick: the US, or an EU country (where payments need SCA). */
export const REGIONS = ["US", "DE", "FR", "NL", "IE", "ES"] as const;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/** The page reveals mnemonics and holds session keys: only its own scripts, styles and origin. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

/** The code that proves a new email or phone in the demo (public, like the sandbox's). */
const CONTACT_CODE = "000000";

let phones = 0;
/** A sandbox mobile number no other demo customer has (the service refuses a taken one). */
function sandboxPhone(): string {
  phones = (phones + 1) % 100_000;
  return `+4915${String(Date.now() % 1_000_000).padStart(6, "0")}${String(phones).padStart(5, "0")}`;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[a-z]{2,24}$/i;

class DemoError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The last value of a comma-separated header a trusted proxy appends to. */
function lastOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(",") : header;
  const last = value?.split(",").pop()?.trim();
  return last ? last : undefined;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 16_384) throw new DemoError(413, "TOO_LARGE", "The request body is too large.");
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {}
  throw new DemoError(400, "INVALID_JSON", "Send a JSON object.");
}

// Sandbox-style OIDC id token (docs/protocol.md §6): JWT-shaped, bound to the nonce, signature
// not checked by the sandbox. A real app gets this from its identity provider instead.
function sandboxIdToken(sub: string, email: string, nonce: string | undefined): string {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: "https://accounts.google.com",
    aud: "signet-demo.apps.googleusercontent.com",
    sub,
    email,
    iat: now,
    exp: now + 600,
    ...(nonce ? { nonce } : {}),
  };
  return `${b64({ alg: "RS256", typ: "JWT" })}.${b64(payload)}.c2FuZGJveA`;
}

/** Starts the demo server; stops with `close()`. */
export async function startDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const {
    port = 5173,
    host = "localhost",
    upstream = { kind: "emulator" },
    appDir,
    https = false,
    trustProxy = false,
    attack,
  } = options;
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  const origin = `http://localhost:${bound.port}`;
  if (attack) console.warn(attackWarning(attack));

  let emulator: EmulatorServer | undefined;
  let baseUrl: string;
  let clientId: string;
  let clientSecret: string;
  if (upstream.kind === "emulator") {
    emulator = await startEmulatorServer({
      port: 0,
      webauthn: { rpId: "localhost", origins: [origin] },
      settlementDelayMs: options.settlementDelayMs ?? 4_000,
    });
    ({ url: baseUrl } = emulator);
    clientId = "emulator";
    clientSecret = "emulator";
  } else {
    ({ baseUrl, clientId, clientSecret } = upstream);
  }
  const trustedKeys = emulator
    ? ((await (await fetch(`${emulator.url}/_emulator/keys`)).json()) as {
        attestationPublicKey: string;
        signerPublicKey: string;
      })
    : undefined;

  // Sessions live in this process: restarting the server signs everyone out of the demo.
  const sessions = createSessionStore(options.sessions);
  const userOf = (request: { headers: { get(name: string): string | null } }) =>
    sessions.get(readSessionId(request.headers.get("cookie")));
  const cookieFlags = (request: IncomingMessage) => ({
    secure:
      https ||
      (trustProxy && lastOf(request.headers["x-forwarded-proto"])?.toLowerCase() === "https"),
    maxAgeSeconds: sessions.maxAgeSeconds,
  });
  const clientAddress = (request: IncomingMessage) =>
    (trustProxy ? lastOf(request.headers["x-forwarded-for"]) : undefined) ??
    request.socket.remoteAddress ??
    "unknown";

  const limits = options.signInRateLimit === false ? undefined : (options.signInRateLimit ?? {});
  const windowMs = limits?.windowMs ?? 60_000;
  const perIp = limits && createWindowLimiter({ limit: limits.perIp ?? 30, windowMs });
  const perEmail = limits && createWindowLimiter({ limit: limits.perEmail ?? 10, windowMs });
  const tooMany = (retryAfter: number) =>
    new DemoError(429, "RATE_LIMITED", `Too many sign-in attempts. Try again in ${retryAfter} s.`, {
      "retry-after": String(retryAfter),
    });

  const relay = toNodeHandler(
    createRelay({
      baseUrl,
      tokenId: clientId,
      clientSecret,
      resolveUser: (request) => {
        const user = userOf(request);
        return user ? { customerId: user.customerId } : null;
      },
      rateLimit: { limit: 600 },
      ...(attack
        ? { fetch: attackFetch(attack, (input, init) => globalThis.fetch(input, init)) }
        : {}),
      // SCA authorizations carry the end user's address, read from the connection here.
      endUserIpAddress: nodeRemoteAddress,
    }),
  );

  const authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
  const platform = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      let message = `The service answered ${response.status}.`;
      try {
        const parsed = JSON.parse(text) as { message?: string; code?: string };
        if (parsed.message) message = `${parsed.code ?? response.status}: ${parsed.message}`;
      } catch {}
      throw new DemoError(502, "SERVICE_ERROR", message);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  };

  // email → customer, for finding a returning user (a real app keeps this in its database).
  const customers = new Map<string, DemoUser>();
  // accountId → external account id, and user → pending passkey challenge (single use).
  const externalAccounts = new Map<string, string>();
  const challenges = new Map<string, string>();
  // accountId → the new contact being proved by a code (one at a time).
  const contactChecks = new Map<
    string,
    {
      kind: "email" | "phoneNumber";
      value: string;
      attempts: number;
      verified: boolean;
      expiresAt: number;
    }
  >();

  const credentialsOf = async (accountId: string) =>
    (
      await platform<{ data: Array<{ id: string; type: string; nickname?: string }> }>(
        "GET",
        `/auth/credentials?accountId=${encodeURIComponent(accountId)}`,
      )
    ).data;

  const phoneOf = async (customerId: string) => {
    const customer = await platform<{ phoneNumber?: string }>(
      "GET",
      `/customers/${encodeURIComponent(customerId)}`,
    );
    return typeof customer.phoneNumber === "string" ? customer.phoneNumber : undefined;
  };

  const profile = async (user: DemoUser) => ({
    signedIn: true as const,
    email: user.email,
    ...(await phoneOf(user.customerId).then((phoneNumber) => (phoneNumber ? { phoneNumber } : {}))),
    customerId: user.customerId,
    accountId: user.accountId,
    region: user.region,
    sca: user.region !== "US",
    credentials: (await credentialsOf(user.accountId)).map(({ id, type, nickname }) => ({
      id,
      type,
      ...(nickname ? { nickname } : {}),
    })),
  });

  async function signIn(request: IncomingMessage): Promise<DemoUser> {
    // Every attempt counts against the client's address, before anything else is read.
    const ipWait = perIp?.hit(clientAddress(request)) ?? 0;
    if (ipWait > 0) throw tooMany(ipWait);
    const body = await readJson(request);
    const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
    if (email.length > 254)
      throw new DemoError(
        400,
        "INVALID_EMAIL",
        `That email is ${email.length} characters long; an email address has at most 254. Check it and try again.`,
      );
    if (!EMAIL.test(email))
      throw new DemoError(400, "INVALID_EMAIL", "Enter an email address like ada@example.com.");
    const emailWait = perEmail?.hit(email) ?? 0;
    if (emailWait > 0) throw tooMany(emailWait);
    const known = customers.get(email);
    if (known) return known;
    const region = typeof body.region === "string" ? body.region : "US";
    if (!(REGIONS as readonly string[]).includes(region))
      throw new DemoError(400, "INVALID_REGION", `Pick one of ${REGIONS.join(", ")}.`);
    const customer = await platform<{ id: string }>("POST", "/customers", {
      customerType: "INDIVIDUAL",
      email,
      fullName: email.split("@")[0],
      // The customer's region decides whether payments need SCA (EU/EEA), and an SCA customer
      // has a verified phone: the SCA login's SMS goes to it (a sandbox number, code 123456).
      region,
      ...(region !== "US" ? { phoneNumber: sandboxPhone() } : {}),
    });
    const accounts = await platform<{ data: Array<{ id: string }> }>(
      "GET",
      `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&type=EMBEDDED_WALLET`,
    );
    const accountId = accounts.data[0]?.id;
    if (!accountId)
      throw new DemoError(502, "NO_WALLET", "The service made no wallet for this customer.");
    const user: DemoUser = { email, customerId: customer.id, accountId, region };
    customers.set(email, user);
    return user;
  }

  async function demoRoute(
    request: IncomingMessage,
    path: string,
    reply: (status: number, body: unknown, headers?: Record<string, string>) => void,
  ): Promise<void> {
    const method = request.method ?? "GET";
    const route = `${method} ${path}`;
    if (route === "GET /api/demo/config") {
      return reply(200, {
        mode: upstream.kind,
        rpId: "localhost",
        otpHint: "000000",
        trustedKeys: trustedKeys
          ? {
              otpTargetBundle: [trustedKeys.attestationPublicKey],
              exportBundle: [trustedKeys.signerPublicKey],
            }
          : undefined,
        allowUnsignedBundles: upstream.kind === "sandbox",
        regions: REGIONS,
      });
    }
    const sessionId = readSessionId(request.headers.cookie);
    if (route === "POST /api/demo/signin") {
      const user = await signIn(request);
      const body = await profile(user);
      // Always a new id (the one the browser brought, if any, ends): no session fixation.
      sessions.delete(sessionId);
      return reply(200, body, {
        "set-cookie": sessionCookie(sessions.create(user), cookieFlags(request)),
      });
    }
    if (route === "POST /api/demo/signout") {
      // The record goes: a copy of the cookie taken before is refused from now on.
      sessions.delete(sessionId);
      return reply(200, {}, { "set-cookie": sessionCookie(null, cookieFlags(request)) });
    }
    const user = sessions.get(sessionId);
    // A first visit is not an error: the page asks who is signed in, and the answer is nobody.
    if (!user && route === "GET /api/demo/me") return reply(200, { signedIn: false });
    if (!user) throw new DemoError(401, "SIGNED_OUT", "Sign in to the demo with your email first.");
    switch (route) {
      case "GET /api/demo/me":
        return reply(200, await profile(user));
      case "POST /api/demo/fund": {
        const { amount } = await readJson(request);
        if (!Number.isSafeInteger(amount) || (amount as number) <= 0 || (amount as number) > 1e12)
          throw new DemoError(
            400,
            "INVALID_AMOUNT",
            "Fund a positive whole amount in the wallet's smallest unit.",
          );
        await platform("POST", `/sandbox/internal-accounts/${user.accountId}/fund`, { amount });
        return reply(200, { funded: amount });
      }
      case "POST /api/demo/quote": {
        const { amount, scaFactor } = await readJson(request);
        if (!Number.isSafeInteger(amount) || (amount as number) <= 0 || (amount as number) > 1e12)
          throw new DemoError(400, "INVALID_AMOUNT", "Enter an amount above zero.");
        if (scaFactor !== undefined && scaFactor !== "SMS_OTP" && scaFactor !== "PASSKEY")
          throw new DemoError(400, "INVALID_SCA_FACTOR", "Pick SMS_OTP or PASSKEY.");
        let externalId = externalAccounts.get(user.accountId);
        if (!externalId) {
          const external = await platform<{ id: string }>("POST", "/customers/external-accounts", {
            customerId: user.customerId,
            currency: "USD",
            accountInfo: {
              accountType: "USD_ACCOUNT",
              accountNumber: "000123456789",
              routingNumber: "021000021",
              bankAccountType: "CHECKING",
              beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Demo Payee" },
            },
          });
          externalId = external.id;
          externalAccounts.set(user.accountId, externalId);
        }
        const quote = await platform<unknown>("POST", "/quotes", {
          source: { sourceType: "ACCOUNT", accountId: user.accountId },
          destination: { destinationType: "ACCOUNT", accountId: externalId },
          lockedCurrencySide: "SENDING",
          lockedCurrencyAmount: amount,
          // How an EU customer prefers to confirm the payment (SCA); others are not asked.
          ...(scaFactor ? { scaFactor } : {}),
        });
        return reply(200, quote);
      }
      case "GET /api/demo/activity": {
        // The customer's payments and deposits, read with the platform's credentials (the relay
        // forwards no transaction list): newest first, the fields the activity screen shows.
        const { data } = await platform<{ data: Array<Record<string, unknown>> }>(
          "GET",
          `/transactions?customerId=${encodeURIComponent(user.customerId)}`,
        );
        const pick = (tx: Record<string, unknown>) => ({
          id: tx.id,
          status: tx.status,
          direction: tx.direction,
          ...(tx.quoteId ? { quoteId: tx.quoteId } : {}),
          sentAmount: tx.sentAmount,
          receivedAmount: tx.receivedAmount,
          createdAt: tx.createdAt,
          ...(tx.settledAt ? { settledAt: tx.settledAt } : {}),
        });
        const items = data
          .map(pick)
          .sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
        return reply(200, { data: items });
      }
      case "GET /api/demo/receive": {
        const { data } = await platform<{ data: Array<Record<string, unknown>> }>(
          "GET",
          `/customers/internal-accounts?customerId=${encodeURIComponent(user.customerId)}&type=EMBEDDED_WALLET`,
        );
        const wallet = data.find((a) => a.id === user.accountId) ?? data[0];
        return reply(200, {
          accountId: user.accountId,
          customerId: user.customerId,
          holder: user.email,
          ...(wallet?.balance
            ? { currency: (wallet.balance as { currency?: unknown }).currency }
            : {}),
          ...(wallet?.fundingPaymentInstructions
            ? { instructions: wallet.fundingPaymentInstructions }
            : {}),
        });
      }
      case "POST /api/demo/contact/start": {
        // A new email or phone is proved by a code before the device signs the change. The demo
        // sends nothing: its code is the sandbox's public one, like the sign-in code.
        const { email, phoneNumber } = await readJson(request);
        let value: string;
        if (typeof email === "string" && phoneNumber === undefined) {
          value = email.trim().toLowerCase();
          if (value.length > 254 || !EMAIL.test(value))
            throw new DemoError(
              400,
              "INVALID_EMAIL",
              "Enter an email address like ada@example.com.",
            );
        } else if (typeof phoneNumber === "string" && email === undefined) {
          value = phoneNumber.replace(/[\s().-]/g, "");
          if (!/^\+[1-9][0-9]{6,14}$/.test(value))
            throw new DemoError(
              400,
              "INVALID_PHONE",
              "Enter the number with its country code, like +14155550123.",
            );
        } else throw new DemoError(400, "INVALID_CONTACT", "Send either email or phoneNumber.");
        contactChecks.set(user.accountId, {
          kind: typeof email === "string" ? "email" : "phoneNumber",
          value,
          attempts: 0,
          verified: false,
          expiresAt: Date.now() + 10 * 60_000,
        });
        return reply(200, { sentTo: value });
      }
      case "POST /api/demo/contact/verify": {
        const { code } = await readJson(request);
        const check = contactChecks.get(user.accountId);
        if (!check || check.expiresAt <= Date.now())
          throw new DemoError(
            409,
            "NO_CODE_PENDING",
            "No code is waiting for this change, or it expired. Ask for a new code.",
          );
        if (check.attempts >= 5)
          throw new DemoError(
            429,
            "TOO_MANY_CODES",
            "Five wrong codes: this one is used up. Ask for a new code.",
          );
        if (typeof code !== "string" || code.replace(/\s/g, "") !== CONTACT_CODE) {
          check.attempts++;
          throw new DemoError(400, "WRONG_CODE", "That code is not the one we sent. Check it.");
        }
        check.verified = true;
        return reply(200, { kind: check.kind, value: check.value });
      }
      case "POST /api/demo/passkey-challenge": {
        const challenge = randomBytes(32).toString("base64url");
        challenges.set(user.accountId, challenge);
        return reply(200, {
          challenge,
          rp: { id: "localhost", name: "Signet demo" },
          user: {
            id: Buffer.from(user.customerId).toString("base64url"),
            name: user.email,
            displayName: user.email,
          },
        });
      }
      case "POST /api/demo/oidc-token": {
        const { nonce } = await readJson(request);
        if (
          nonce !== undefined &&
          (typeof nonce !== "string" || !/^[A-Za-z0-9_-]{16,128}$/.test(nonce))
        )
          throw new DemoError(
            400,
            "INVALID_NONCE",
            "The nonce must be 16 to 128 URL-safe characters.",
          );
        return reply(200, {
          idToken: sandboxIdToken(`demo-${user.customerId.slice(-12)}`, user.email, nonce),
        });
      }
    }
    throw new DemoError(404, "NOT_FOUND", `No demo endpoint ${route}.`);
  }

  async function serveApp(path: string, response: ServerResponse): Promise<void> {
    const file = normalize(path === "/" || !extname(path) ? "/index.html" : path);
    if (file.includes("..")) throw new DemoError(400, "BAD_PATH", "Bad path.");
    let bytes: Buffer;
    try {
      bytes = await readFile(join(appDir, file));
    } catch {
      throw new DemoError(404, "NOT_FOUND", "No such file.");
    }
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "cache-control": file.startsWith("/assets/")
        ? "public, max-age=31536000, immutable"
        : "no-cache",
    });
    response.end(bytes);
  }

  server.on("request", async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", origin).pathname;
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, {
        ...SECURITY_HEADERS,
        "content-type": "application/json",
        "cache-control": "no-store",
        ...headers,
      });
      response.end(JSON.stringify(body));
    };
    try {
      if (path.startsWith("/api/grid/")) return void (await relay(request, response));
      if (path.startsWith("/api/demo/")) {
        // State-changing demo calls must come from the page itself (no cross-site form posts).
        if (request.method !== "GET" && request.headers["content-type"] !== "application/json")
          throw new DemoError(415, "JSON_ONLY", "Send the request as application/json.");
        return await demoRoute(request, path, reply);
      }
      if (request.method !== "GET" && request.method !== "HEAD")
        throw new DemoError(405, "METHOD_NOT_ALLOWED", "Only GET here.");
      await serveApp(path, response);
    } catch (error) {
      if (response.headersSent) return void response.destroy();
      if (error instanceof DemoError)
        return reply(error.status, { code: error.code, message: error.message }, error.headers);
      const id = randomUUID();
      console.error(`demo server error ${id}:`, error instanceof Error ? error.message : "unknown");
      reply(500, { code: "INTERNAL", message: `Something broke on the demo server (${id}).` });
    }
  });

  return {
    url: origin,
    address: { host: bound.address, port: bound.port },
    attack,
    emulator,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await emulator?.close();
    },
  };
}
