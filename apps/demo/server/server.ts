// The demo server: the built app, the relay at /api/grid/ and the demo endpoints at /api/demo/
// on one origin, with the emulator in process unless GRID_* variables name the real sandbox. The
// endpoints are a route table (routes/), one handler per route; this file starts the parts and
// hands each request to the relay, a route or the app's files.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type EmulatorOptions, type EmulatorServer, startEmulatorServer } from "@signet/emulator";
import { createRelay, nodeRemoteAddress, toNodeHandler } from "@signet/relay";
import { attackFetch, attackWarning, type DemoAttack } from "./attack.js";
import type { DemoContext } from "./context.js";
import { readSessionId } from "./cookie.js";
import { createDirectory } from "./directory.js";
import { type FrameOrigin, startFrameOrigin } from "./frame.js";
import { contentSecurityPolicy, DemoError, replyJson, serveApp } from "./http.js";
import { createPlatform } from "./platform.js";
import { createWindowLimiter } from "./rateLimit.js";
import { newInstanceId } from "./routes/account.js";
import { DEMO_ROUTES } from "./routes/index.js";
import { createSessionStore, type SessionStoreOptions } from "./sessions.js";

export type { DemoAttack } from "./attack.js";
export { REGIONS } from "./context.js";
export { CONTENT_SECURITY_POLICY } from "./http.js";
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
  /**
   * How the page changes a contact: the PATCH (default) or the contact-change resource of the
   * service's #853 (`createClient`'s `contactChanges`).
   */
  contactChanges?: "patch" | "resource";
  /**
   * The in-process emulator sends its wallet-operation webhooks (the service's #802) to the
   * relay, which pushes each to the waiting tab; the page's client listens (`push`). Ignored
   * with the sandbox (its webhooks go where the platform registered them).
   */
  webhooks?: boolean;
  /**
   * The signer frame (`@signet/frame`, `DEMO_FRAME=1` in main.ts): its built page is served from a
   * second localhost port (`port`; default the demo's port + 1, or a free one when the demo's is
   * 0), framable by the demo's origin only and trusting the emulator's export signer, and the
   * page's client keeps its keys there. Default off.
   */
  frame?: boolean | { port?: number };
  /** Default: the emulator in process. */
  upstream?: DemoUpstream;
  /** The built app (index.html and assets). */
  appDir: string;
  /** Emulator settlement time in ms (default 4 000, so the progress can be seen). */
  settlementDelayMs?: number;
  /**
   * More options of the in-process emulator: `requireScaSessionAtExecute` (execute answers 409
   * SCA_SESSION_REQUIRED without the customer's SCA login; `DEMO_SCA_LOGIN_AT_EXECUTE=1` in
   * main.ts) and the session lifetimes. Ignored with the sandbox.
   */
  emulator?: Pick<
    EmulatorOptions,
    "requireScaSessionAtExecute" | "scaSessionTtlMs" | "sessionTtlMs"
  >;
};

export type DemoServer = {
  url: string;
  /** The address and port the server listens on (`127.0.0.1` or `::1` by default). */
  address: { host: string; port: number };
  /** The attack the server plays, when the switch is on. */
  attack: DemoAttack | undefined;
  /** The in-process emulator, when there is one. */
  emulator: EmulatorServer | undefined;
  /** The signer frame's page URL, when the frame is on. */
  frameUrl: string | undefined;
  close(): Promise<void>;
};

/** The emulator's keys (`GET /_emulator/keys`). */
type TrustedKeys = {
  attestationPublicKey: string;
  signerPublicKey: string;
  webhookPublicKey: string;
};

type Upstream = {
  emulator: EmulatorServer | undefined;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
};

/**
 * The emulator in process (its passkeys bound to the demo's origin, and to the signer frame's,
 * where a passkey is created when the frame is on), or the sandbox.
 */
async function startUpstream(
  options: DemoServerOptions,
  origin: string,
  frameOrigin: string | undefined,
): Promise<Upstream> {
  const upstream = options.upstream ?? { kind: "emulator" };
  if (upstream.kind === "sandbox") return { emulator: undefined, ...upstream };
  const emulator = await startEmulatorServer({
    port: 0,
    webauthn: { rpId: "localhost", origins: frameOrigin ? [origin, frameOrigin] : [origin] },
    settlementDelayMs: options.settlementDelayMs ?? 4_000,
    // Settled at once after a PROCESSING answer, so the push is what ends the tab's wait.
    ...(options.webhooks ? { webhooks: { settleMs: 0 } } : {}),
    ...options.emulator,
  });
  return { emulator, baseUrl: emulator.url, clientId: "emulator", clientSecret: "emulator" };
}

/**
 * The signer frame's origin, trusting what the demo's client trusts for export bundles: the
 * emulator's signer, or (the sandbox, whose bundles production keys do not sign) unsigned ones.
 */
function startFrame(
  options: DemoServerOptions,
  host: string,
  port: number,
  appOrigin: string,
  trustedKeys: Promise<{ signerPublicKey: string } | undefined>,
): Promise<FrameOrigin> {
  const asked = typeof options.frame === "object" ? options.frame.port : undefined;
  return startFrameOrigin({
    host,
    port: asked ?? (options.port === 0 ? 0 : port + 1),
    appOrigin,
    trust: trustedKeys.then((keys) => ({
      exportSigners: keys ? [keys.signerPublicKey] : [],
      allowUnsignedBundles: keys === undefined,
    })),
  });
}

/** Answers one `/api/demo/` request from the route table. */
async function demoRequest(
  ctx: DemoContext,
  request: IncomingMessage,
  path: string,
  response: ServerResponse,
): Promise<void> {
  // State-changing demo calls must come from the page itself (no cross-site form posts).
  if (request.method !== "GET" && request.headers["content-type"] !== "application/json")
    throw new DemoError(415, "JSON_ONLY", "Send the request as application/json.");
  const key = `${request.method ?? "GET"} ${path}`;
  const route = DEMO_ROUTES[key];
  if (!route) throw new DemoError(404, "NOT_FOUND", `No demo endpoint ${key}.`);
  const sessionId = readSessionId(request.headers.cookie);
  let answer: Awaited<ReturnType<typeof route.handle>>;
  if (route.signedIn) {
    const user = ctx.sessions.get(sessionId);
    if (!user) throw new DemoError(401, "SIGNED_OUT", "You are signed out of the demo.");
    answer = await route.handle({ request, ctx, sessionId, user });
  } else answer = await route.handle({ request, ctx, sessionId });
  replyJson(response, answer.status, answer.body, answer.headers);
}

/** Starts the demo server; stops with `close()`. */
export async function startDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const { port = 5173, host = "localhost", appDir, attack } = options;
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  const origin = `http://localhost:${bound.port}`;
  if (attack) console.warn(attackWarning(attack));
  // The frame first: its origin is one the emulator's passkeys must name (a passkey is created in
  // the frame); what its page trusts comes from the emulator, once that has started.
  let keysKnown: (keys: TrustedKeys | undefined) => void = () => undefined;
  let keysLost: (error: unknown) => void = () => undefined;
  const keysOfFrame = new Promise<TrustedKeys | undefined>((resolve, reject) => {
    keysKnown = resolve;
    keysLost = reject;
  });
  let frame: FrameOrigin | undefined;
  let upstreamStarted: Upstream | undefined;
  let trustedKeys: TrustedKeys | undefined;
  try {
    frame = options.frame
      ? await startFrame(options, host, bound.port, origin, keysOfFrame)
      : undefined;
    upstreamStarted = await startUpstream(options, origin, frame?.origin);
    const started = upstreamStarted.emulator;
    trustedKeys = started
      ? ((await (await fetch(`${started.url}/_emulator/keys`)).json()) as TrustedKeys)
      : undefined;
    keysKnown(trustedKeys);
  } catch (error) {
    // Nothing half-started stays behind: the demo's own port, the frame and the emulator go too
    // (a page asked of the frame meanwhile is a 500, never one trusting what was not decided).
    keysLost(error);
    server.close();
    await frame?.close();
    await upstreamStarted?.emulator?.close();
    throw error;
  }
  const { emulator, baseUrl, clientId, clientSecret } = upstreamStarted;
  const push = options.webhooks === true && trustedKeys !== undefined;

  const limits = options.signInRateLimit === false ? undefined : (options.signInRateLimit ?? {});
  const windowMs = limits?.windowMs ?? 60_000;
  // Sessions live in this process: restarting the server signs everyone out of the demo.
  const ctx: DemoContext = {
    mode: emulator ? "emulator" : "sandbox",
    instanceId: newInstanceId(),
    startedAt: new Date().toISOString(),
    trustedKeys,
    platform: createPlatform(baseUrl, clientId, clientSecret),
    directory: createDirectory(),
    sessions: createSessionStore(options.sessions),
    externalAccounts: new Map(),
    challenges: new Map(),
    contactChecks: new Map(),
    devices: new Map(),
    limits: {
      perIp: limits && createWindowLimiter({ limit: limits.perIp ?? 30, windowMs }),
      perEmail: limits && createWindowLimiter({ limit: limits.perEmail ?? 10, windowMs }),
    },
    trustProxy: options.trustProxy ?? false,
    https: options.https ?? false,
    contactChanges: options.contactChanges ?? "patch",
    push,
    frameUrl: frame?.url,
  };

  const relay = toNodeHandler(
    createRelay({
      baseUrl,
      tokenId: clientId,
      clientSecret,
      resolveUser: (request) => {
        const user = ctx.sessions.get(readSessionId(request.headers.get("cookie")));
        return user ? { customerId: user.customerId } : null;
      },
      rateLimit: { limit: 600 },
      ...(attack
        ? { fetch: attackFetch(attack, (input, init) => globalThis.fetch(input, init)) }
        : {}),
      // SCA authorizations carry the end user's address, read from the connection here.
      endUserIpAddress: nodeRemoteAddress,
      ...(push ? { webhooks: { publicKey: trustedKeys!.webhookPublicKey } } : {}),
    }),
  );
  // The emulator posts its webhooks to this server's relay, on the address it is bound to.
  const self = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
  if (push) emulator?.emulator.setWebhookUrl(`http://${self}:${bound.port}/api/grid/webhooks`);

  // With the frame on, the page may frame the signer's origin (and only it). Its opener policy
  // lets popups keep their opener: under `same-origin` the browser opens every window a
  // cross-origin frame asks for without one, and the signer's confirmation window (Firefox and
  // WebKit, packages/frame README "Clickjacking") could never answer the frame that opened it.
  const csp = contentSecurityPolicy(frame?.origin);
  const pageHeaders: Record<string, string> = frame
    ? { "cross-origin-opener-policy": "same-origin-allow-popups" }
    : {};
  server.on("request", async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", origin).pathname;
    try {
      if (path.startsWith("/api/grid/")) return void (await relay(request, response));
      if (path.startsWith("/api/demo/")) return await demoRequest(ctx, request, path, response);
      if (request.method !== "GET" && request.method !== "HEAD")
        throw new DemoError(405, "METHOD_NOT_ALLOWED", "Only GET here.");
      await serveApp(appDir, path, response, csp, pageHeaders);
    } catch (error) {
      if (response.headersSent) return void response.destroy();
      if (error instanceof DemoError)
        return replyJson(
          response,
          error.status,
          { code: error.code, message: error.message },
          error.headers,
        );
      const id = randomUUID();
      console.error(`demo server error ${id}:`, error instanceof Error ? error.message : "unknown");
      replyJson(response, 500, {
        code: "INTERNAL",
        message: `Something broke on the demo server (${id}).`,
      });
    }
  });

  return {
    url: origin,
    address: { host: bound.address, port: bound.port },
    attack,
    emulator,
    frameUrl: frame?.url,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await frame?.close();
      await emulator?.close();
    },
  };
}
