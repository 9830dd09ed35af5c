// What every demo route reads: the service, the sign-in sessions, the customer directory and the
// small in-memory tables the demo keeps (a real app keeps them in its database). One object, made
// once by startDemoServer, handed to each route's handler.
import type { IncomingMessage } from "node:http";
import type { Directory } from "./directory.js";
import { DemoError, lastOf } from "./http.js";
import type { Platform } from "./platform.js";
import type { WindowLimiter } from "./rateLimit.js";
import type { DemoUser, SessionStore } from "./sessions.js";

/** The regions a demo customer can pick: the US, or an EU country (where payments need SCA). */
export const REGIONS = ["US", "DE", "FR", "NL", "IE", "ES"] as const;

/** A new email or phone being proved by a code (one at a time per wallet). */
export type ContactCheck = {
  kind: "email" | "phoneNumber";
  value: string;
  attempts: number;
  verified: boolean;
  expiresAt: number;
};

/** The device a wallet session was opened on, as its browser named itself, and when. */
export type SessionDevice = { accountId: string; name: string; at: string };

export type DemoContext = {
  mode: "emulator" | "sandbox";
  /** A random id per start of the server: a page that sees it change knows the server restarted. */
  instanceId: string;
  startedAt: string;
  trustedKeys: { attestationPublicKey: string; signerPublicKey: string } | undefined;
  platform: Platform;
  directory: Directory;
  sessions: SessionStore;
  /** accountId → the demo payee's external account id. */
  externalAccounts: Map<string, string>;
  /** accountId → the pending passkey registration challenge. */
  challenges: Map<string, string>;
  contactChecks: Map<string, ContactCheck>;
  /** Wallet session id → the device it was opened on (bounded). */
  devices: Map<string, SessionDevice>;
  limits: { perIp: WindowLimiter | undefined; perEmail: WindowLimiter | undefined };
  trustProxy: boolean;
  https: boolean;
  /** How the page's client changes a contact (`createClient`'s `contactChanges`). */
  contactChanges: "patch" | "resource";
  /** Whether the relay takes the emulator's webhooks and the page listens for them (`push`). */
  push: boolean;
  /** The signer frame's page URL when the frame is on (`DEMO_FRAME=1`): the client keeps its keys there. */
  frameUrl: string | undefined;
};

/** What a route's handler gets: the request, the context, and the signed-in user if any. */
export type RouteInput = {
  request: IncomingMessage;
  ctx: DemoContext;
  sessionId: string | null;
};

export type SignedInInput = RouteInput & { user: DemoUser };

export type RouteAnswer = { status: number; body: unknown; headers?: Record<string, string> };

/** A demo endpoint: open to anyone, or only with a live demo sign-in (401 `SIGNED_OUT` else). */
export type DemoRoute =
  | { signedIn: false; handle(input: RouteInput): Promise<RouteAnswer> }
  | { signedIn: true; handle(input: SignedInInput): Promise<RouteAnswer> };

export const ok = (body: unknown, headers?: Record<string, string>): RouteAnswer => ({
  status: 200,
  body,
  ...(headers ? { headers } : {}),
});

/** The client's address: the connection's, or the last forwarded one behind a trusted proxy. */
export const clientAddress = (ctx: DemoContext, request: IncomingMessage) =>
  (ctx.trustProxy ? lastOf(request.headers["x-forwarded-for"]) : undefined) ??
  request.socket.remoteAddress ??
  "unknown";

/** The sign-in cookie's flags for this request (`Secure` over https). */
export const cookieFlags = (ctx: DemoContext, request: IncomingMessage) => ({
  secure:
    ctx.https ||
    (ctx.trustProxy && lastOf(request.headers["x-forwarded-proto"])?.toLowerCase() === "https"),
  maxAgeSeconds: ctx.sessions.maxAgeSeconds,
});

export const tooMany = (retryAfter: number) =>
  new DemoError(429, "RATE_LIMITED", `Too many sign-in attempts. Try again in ${retryAfter} s.`, {
    "retry-after": String(retryAfter),
  });

/** An email as the demo takes it: any characters but spaces and `@` around one `@` and a dot. */
export const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@.]{2,24}$/u;

/** The customer's email and phone as the service has them now. */
export async function contactOf(
  ctx: DemoContext,
  customerId: string,
): Promise<{ email?: string; phoneNumber?: string }> {
  const customer = await ctx.platform<{ email?: unknown; phoneNumber?: unknown }>(
    "GET",
    `/customers/${encodeURIComponent(customerId)}`,
  );
  return {
    ...(typeof customer.email === "string" ? { email: customer.email } : {}),
    ...(typeof customer.phoneNumber === "string" ? { phoneNumber: customer.phoneNumber } : {}),
  };
}

/**
 * 401 `WALLET_SESSION_ENDED` unless the wallet session the device names is one the service still
 * has for the wallet: a device whose session was revoked elsewhere learns it before it funds or
 * quotes, not at "Sign and send". Nothing is checked when the device names none.
 */
export async function requireLiveSession(
  ctx: DemoContext,
  user: DemoUser,
  sessionId: unknown,
): Promise<void> {
  if (sessionId === undefined) return;
  if (typeof sessionId !== "string" || !/^Session:[A-Za-z0-9_-]{1,100}$/.test(sessionId))
    throw new DemoError(400, "INVALID_SESSION", "That is not a wallet session id.");
  const { data } = await ctx.platform<{ data: Array<{ id: string }> }>(
    "GET",
    `/auth/sessions?accountId=${encodeURIComponent(user.accountId)}`,
  );
  if (!data.some((s) => s.id === sessionId))
    throw new DemoError(
      401,
      "WALLET_SESSION_ENDED",
      "This device's wallet session was ended, on another device or in another tab.",
    );
}
