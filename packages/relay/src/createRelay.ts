// The relay: a web-standard fetch handler between a device and the service (docs/architecture.md @signet/relay).

import { checkBody } from "./checkBody.js";
import { checkQuery } from "./checkQuery.js";
import { createDeadlines } from "./deadlines.js";
import { endUserIp, hasEndUserIp, missingEndUserIp, withEndUserIp } from "./endUserIp.js";
import {
  answerHeaders,
  errorAnswer,
  type RelayAnswer,
  RelayErrorCode,
  RelayRefusal,
  relayErrorStatus,
  toResponse,
} from "./errors.js";
import { FORWARDED_RESPONSE_HEADERS, pickForwardedHeaders } from "./forwardedHeaders.js";
import { type RelayIncoming, webIncoming } from "./incoming.js";
import { registerNativeRelay } from "./nativeRelay.js";
import { createNodeClient, type HeaderReader } from "./nodeClient.js";
import {
  assertOwned,
  createMemoryOwnershipCache,
  failSafeOwnershipCache,
  type NamedId,
  type OwnershipCache,
  tieredOwnershipCache,
} from "./ownership.js";
import {
  createMemoryRateLimitStore,
  type RateLimitResult,
  type RateLimitStore,
  syncHit,
} from "./rateLimit.js";
import { basePathSegments, splitPath } from "./requestPath.js";
import { compileRoutes } from "./routeMatcher.js";
import { isIdOfKind, isOpaqueSegment, RELAY_ROUTES, type RelayPathId } from "./routes.js";
import {
  basicAuthorization,
  callUpstream,
  createSlots,
  isNodeFetch,
  type Upstream,
} from "./upstream.js";
import { recordSender, type WebhookSettings } from "./webhooks/receiver.js";
import { webhookRoute } from "./webhooks/route.js";
import { importWebhookKey, isWebhookKey } from "./webhooks/signature.js";
import { createMemoryWebhookStore, type WebhookStore } from "./webhooks/store.js";

/** The app's user behind a request, as `resolveUser` names them. */
export interface RelayUser {
  /** The service's customer id of this user (`Customer:<uuid>`); every resource must be theirs. */
  customerId: string;
}

/** The per-user rate limit. */
export interface RelayRateLimit {
  /** Requests allowed per window (default 120). */
  limit?: number;
  /** Window length in milliseconds (default 60 000). */
  windowMs?: number;
  /** Where hits are counted (default: in memory, per instance). Share one across instances. */
  store?: RateLimitStore;
}

/**
 * The webhook receiver (off unless given): the service's `WALLET_OPERATION.*` webhooks (its #802)
 * are verified and pushed to the device waiting on each request (README "Webhooks").
 */
export interface RelayWebhooks {
  /**
   * The service's webhook verification key, given at integration: P-256, as SEC1 hex (compressed
   * or uncompressed) or an SPKI PEM. Every delivery's `X-Grid-Signature` is checked against it.
   */
  publicKey: string;
  /**
   * How far a delivery's signed `timestamp` may be from the relay's clock (default 300 000 ms,
   * five minutes); further is refused as stale. Delivery ids are remembered for twice as long and a second more, so
   * a replay is refused either as stale or as a duplicate.
   */
  toleranceMs?: number;
  /**
   * How long who-sent-which-request and each operation's end are kept (default 3 600 000 ms): as
   * long as a device may still be re-sending one signed request.
   */
  ttlMs?: number;
  /** How long one device wait is held open before a 204 (default 25 000 ms). */
  waitMs?: number;
  /**
   * The most device waits this relay holds open at once (default 10 000). Past it a wait is
   * answered 503 `RELAY_STORE_UNAVAILABLE` with `Retry-After: 1` and `details.reason`
   * `"too many waits"`, and the device polls meanwhile. Each relay instance counts its own.
   */
  maxWaits?: number;
  /**
   * Where deliveries, senders and ends are kept (default: in memory, per instance). Relays behind
   * a load balancer share one: `createRedisWebhookStore` from `@signet/relay/redis`.
   */
  store?: WebhookStore;
}

/**
 * What the relay reports, once per request (`response`) and once per ownership lookup
 * (`lookup`). Events carry no header, body, stamp or credential; `customerId` is the app's
 * user as `resolveUser` named them.
 */
export type RelayEvent =
  | {
      type: "response";
      method: string;
      /** The route pattern (`/quotes/{Quote}`), or `null` when no route matched. */
      route: string | null;
      status: number;
      /** Set when the relay refused or failed; absent when the service's answer was passed on. */
      code?: RelayErrorCode;
      /** Why the relay refused, in a few words (never a value from the request). */
      reason?: string;
      customerId?: string;
      durationMs: number;
    }
  | { type: "lookup"; path: string; status: number };

/** Options of {@link createRelay}. */
export interface CreateRelayOptions {
  /** The service base URL, e.g. `https://api.lightspark.com/grid/2025-10-13` or an emulator's URL. */
  baseUrl: string;
  /** The platform API token id (Basic user name). */
  tokenId: string;
  /** The platform API client secret (Basic password). Never logged. */
  clientSecret: string;
  /**
   * Names the app's signed-in user for a request (from a session cookie, a bearer token…),
   * or `null` for no user (401). Throwing, or a `customerId` that is not `Customer:<uuid>`, gives 500.
   */
  resolveUser: (request: Request) => Promise<RelayUser | null> | RelayUser | null;
  /** Where the relay is mounted (default `/api/grid`): `/api/grid/auth/sessions` → `${baseUrl}/auth/sessions`. */
  basePath?: string;
  /** The largest request body accepted, in bytes (default 1 MiB); larger → 413. */
  maxBodyBytes?: number;
  /** The per-user rate limit (default 120 requests a minute, in memory), or `false` for none. */
  rateLimit?: RelayRateLimit | false;
  /** The `fetch` used to call the service (default: the global `fetch`). */
  fetch?: typeof fetch;
  /** Milliseconds to wait for the service, for each call (default 30 000); then 504. */
  timeoutMs?: number;
  /**
   * The most calls to the service in flight at once (default 128), and so the most connections
   * the relay holds open to it: the runtime's `fetch` keeps them alive between calls (Node's does
   * by default) and reuses an idle one before opening another. Calls beyond it wait their turn,
   * and the wait counts against `timeoutMs`.
   */
  maxConnections?: number;
  /**
   * How long an ownership fact is remembered (default 3 600 000 ms, an hour; 0: never).
   * Ownership never changes, so a long life is never wrong; it must outlast the longest a device
   * re-sends one signed request (minutes past its own 30 s timeout), or a session that request
   * ended (a refresh) is no longer found in the service's lists of active sessions and the re-send
   * is refused.
   */
  ownershipCacheTtlMs?: number;
  /** Where ownership facts are remembered (default: in memory, per instance). */
  ownershipCache?: OwnershipCache;
  /**
   * The end user's IP address, which the relay writes into the `endUserIpAddress` of an SCA
   * authorization (`POST /quotes/{id}/authorize`) and an SCA login completion
   * (`POST /sca/login/complete`) for the service's risk checks, in place of whatever the device
   * sent (docs/protocol.md §9). Behind Node's http server, `nodeRemoteAddress` reads the
   * connection's peer; behind a proxy, read the header it sets. Returning `undefined` (or anything
   * that is not an IP address) leaves the field out of an authorization.
   *
   * Needed by every app with customers in the EU or EEA: the service requires the address on an
   * SCA login completion, so without this option (or with one that gives no address for the
   * request) the relay answers that completion itself, 500 `RELAY_MISCONFIGURED` with
   * `details.option: "endUserIpAddress"`, instead of forwarding a request the service would
   * refuse with a 400 (which reads as a wrong code). A completion whose body already carries an
   * address (the device's own `endUserIpAddress`) is forwarded as sent when the option is unset.
   */
  endUserIpAddress?: (request: Request) => string | undefined | Promise<string | undefined>;
  /**
   * The name of a catch-all route segment that the framework appends to the query, which the
   * relay then drops before it checks the query. Next.js's edge runtime turns
   * `app/api/grid/[...path]/route.ts` into `?path=auth&path=credentials` (and `nxtPpath=…`) on
   * the request: `catchAllParam: "path"` ignores both forms. Without it such a query is `400
   * INVALID_INPUT`. It may not be a parameter any route accepts (`accountId`, `customerId`, …).
   */
  catchAllParam?: string;
  /** Receives a {@link RelayEvent} per request and per ownership lookup. Exceptions are ignored. */
  onEvent?: (event: RelayEvent) => void;
  /**
   * Receive the service's wallet-operation webhooks at `POST {basePath}/webhooks` and let each
   * device wait for its own at `GET {basePath}/wallet-operations/{requestId}` (off by default).
   */
  webhooks?: RelayWebhooks;
}

/** The relay: a fetch handler. */
export type RelayHandler = (request: Request) => Promise<Response>;

/**
 * Parameters of {@link createRelay} (the name every Signet function's options go by): the
 * options, or a function that returns them, called on the first request (lazy configuration).
 */
export type CreateRelayParameters = CreateRelayOptions | (() => CreateRelayOptions);
/** What {@link createRelay} returns. */
export type CreateRelayReturnType = RelayHandler;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
const CONTROL = /[\u0000-\u001f\u007f]/;
const NULL_BODY_STATUS = new Set([204, 205, 304]);

/** The longest delay a JavaScript timer keeps (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

function assertOption(ok: boolean, message: string): asserts ok {
  if (!ok) throw new TypeError(message);
}

function parseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`"baseUrl" expected an absolute http(s) URL, got ${String(baseUrl)}`);
  }
  assertOption(
    url.protocol === "https:" || url.protocol === "http:",
    `"baseUrl" expected http: or https:, got ${url.protocol}`,
  );
  assertOption(
    url.username === "" && url.password === "",
    `"baseUrl" must not carry credentials: pass tokenId and clientSecret`,
  );
  assertOption(url.search === "" && url.hash === "", `"baseUrl" must not have a query or hash`);
  return url.href.endsWith("/") ? url.href.slice(0, -1) : url.href;
}

const ACCEPTED_QUERY_PARAMS: ReadonlySet<string> = new Set(
  RELAY_ROUTES.flatMap((route) => Object.keys(route.query ?? {})),
);

/** The query names a catch-all segment `name` is appended as: `name` and Next's `nxtPname`. */
function catchAllNames(name: string | undefined): ReadonlySet<string> | undefined {
  if (name === undefined) return undefined;
  assertOption(
    typeof name === "string" && /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name),
    `"catchAllParam" expected the name of a route segment, like "path"`,
  );
  assertOption(
    !ACCEPTED_QUERY_PARAMS.has(name),
    `"catchAllParam" must not be a query parameter the relay forwards, got ${name}`,
  );
  return new Set([name, `nxtP${name}`]);
}

/** The query without the parameters named in `names` (compared once decoded). */
function withoutParams(search: string, names: ReadonlySet<string>): string {
  const raw = search.startsWith("?") ? search.slice(1) : search;
  if (raw === "") return "";
  const kept = raw.split("&").filter((part) => {
    const eq = part.indexOf("=");
    try {
      return !names.has(
        decodeURIComponent((eq === -1 ? part : part.slice(0, eq)).replaceAll("+", " ")),
      );
    } catch {
      return true; // malformed: left for checkQuery to refuse
    }
  });
  return kept.join("&");
}

// The forwarded response headers as the answer names them, lower-cased once.
const FORWARDED_ANSWER_HEADERS = FORWARDED_RESPONSE_HEADERS.map((name) => name.toLowerCase());

function passThrough(
  status: number,
  upstreamHeaders: HeaderReader,
  body: Uint8Array<ArrayBuffer>,
): RelayAnswer {
  const headers = answerHeaders();
  for (let i = 0; i < FORWARDED_ANSWER_HEADERS.length; i++) {
    const name = FORWARDED_ANSWER_HEADERS[i]!;
    const value = upstreamHeaders.get(name);
    if (value !== null && !CONTROL.test(value)) headers[name] = value;
  }
  return { status, headers, body: NULL_BODY_STATUS.has(status) ? null : body };
}

/**
 * Creates the relay: a fetch handler that forwards the device routes of {@link RELAY_ROUTES}
 * to the service with the platform's Basic credentials, after checking that every id the
 * request names belongs to the user `resolveUser` returns. The raw body bytes and only the
 * `Grid-Wallet-Signature`, `Request-Id`, `Idempotency-Key` and `Content-Type` headers are
 * passed on; the service's status, body, `Content-Type` and `Retry-After` come back unchanged.
 * Anything else gets a {@link RelayErrorBody} (400, 401, 403, 404, 405, 413, 429, 502, 504).
 *
 * Pass a function instead of the options to read them on the first request (a Next.js route
 * module, imported by `next build` where no credentials are set): `createRelay(() => ({ … }))`.
 *
 * @throws {TypeError} at creation, for a missing or malformed option (given a function: at the
 *   first request, which then rejects with it, and the next request tries again).
 * @example
 * const relay = createRelay({
 *   baseUrl: "https://api.lightspark.com/grid/2025-10-13",
 *   tokenId: process.env.GRID_CLIENT_ID!,
 *   clientSecret: process.env.GRID_CLIENT_SECRET!,
 *   resolveUser: async (request) => {
 *     const user = await sessions.fromCookie(request.headers.get("Cookie"));
 *     return user ? { customerId: user.gridCustomerId } : null;
 *   },
 * });
 * // Fetch runtimes: export default { fetch: relay }; Node: http.createServer(toNodeHandler(relay))
 */
export function createRelay(parameters: CreateRelayParameters): CreateRelayReturnType {
  let answer: (incoming: RelayIncoming) => Promise<RelayAnswer>;
  if (typeof parameters !== "function") {
    answer = configureRelay(parameters);
  } else {
    // Lazy: nothing is read (environment variables, say) until the first request, so a build that
    // imports the module needs no credentials. A factory or option that throws fails that request
    // (the error reaches the platform's log) and is tried again on the next one.
    let configured: ((incoming: RelayIncoming) => Promise<RelayAnswer>) | undefined;
    answer = async (incoming) => {
      configured ??= configureRelay(parameters());
      return configured(incoming);
    };
  }
  const relay: RelayHandler = async (request) => toResponse(await answer(webIncoming(request)));
  // toNodeHandler(relay) answers Node's requests through `answer` directly (nativeRelay.ts).
  registerNativeRelay(relay, answer);
  return relay;
}

/**
 * An ownership fact's default life: longer than a session lives (15 minutes) plus the longest a
 * device goes on re-sending one signed request (a challenge honoured up to 15 minutes), so that
 * every re-send of a request whose first leg passed the check finds its ids, including a session
 * the request itself ended. Not the client's 30 s timeout, which a fact lasting as long would
 * lapse with, exactly when a re-send needs it.
 */
const DEFAULT_OWNERSHIP_TTL_MS = 60 * 60_000;

/** The per-user rate limit, resolved. */
interface RateLimitSettings {
  limit: number;
  windowMs: number;
  store: RateLimitStore;
  hitNow: ReturnType<typeof syncHit>;
}

/** Calls to the service in flight at once, by default: well above what one relay process serves. */
const DEFAULT_MAX_CONNECTIONS = 128;

function configureRelay(
  options: CreateRelayOptions,
): (incoming: RelayIncoming) => Promise<RelayAnswer> {
  const baseUrl = parseBaseUrl(options.baseUrl);
  assertOption(
    typeof options.tokenId === "string" && options.tokenId !== "" && !options.tokenId.includes(":"),
    `"tokenId" expected a non-empty string without ":"`,
  );
  assertOption(
    typeof options.clientSecret === "string" && options.clientSecret !== "",
    `"clientSecret" expected a non-empty string`,
  );
  assertOption(
    !CONTROL.test(options.tokenId) && !CONTROL.test(options.clientSecret),
    `"tokenId" and "clientSecret" must not hold control characters`,
  );
  assertOption(typeof options.resolveUser === "function", `"resolveUser" expected a function`);
  const base = basePathSegments(options.basePath ?? "/api/grid");
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  assertOption(
    Number.isSafeInteger(maxBodyBytes) && maxBodyBytes > 0,
    `"maxBodyBytes" expected a positive integer, got ${maxBodyBytes}`,
  );
  const timeoutMs = options.timeoutMs ?? 30_000;
  // A timer longer than 2^31 - 1 ms fires at once in every JavaScript runtime: refused, not
  // turned into a deadline that ends every call immediately.
  assertOption(
    timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS,
    `"timeoutMs" expected a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${timeoutMs}`,
  );
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  assertOption(
    Number.isSafeInteger(maxConnections) && maxConnections > 0,
    `"maxConnections" expected a positive integer, got ${maxConnections}`,
  );
  const ttlMs = options.ownershipCacheTtlMs ?? DEFAULT_OWNERSHIP_TTL_MS;
  assertOption(ttlMs >= 0, `"ownershipCacheTtlMs" expected 0 or more, got ${ttlMs}`);
  const rateLimitStore =
    options.rateLimit === false
      ? undefined
      : (options.rateLimit?.store ?? createMemoryRateLimitStore());
  const limit = (options.rateLimit || undefined)?.limit ?? 120;
  const windowMs = (options.rateLimit || undefined)?.windowMs ?? 60_000;
  if (rateLimitStore !== undefined) {
    assertOption(
      Number.isSafeInteger(limit) && limit > 0,
      `"rateLimit.limit" expected a positive integer, got ${limit}`,
    );
    // A window is a key's expiry in the store (Redis PEXPIRE takes whole milliseconds, at least 1).
    assertOption(
      Number.isFinite(windowMs) && windowMs >= 1,
      `"rateLimit.windowMs" expected a finite number of milliseconds, 1 or more, got ${windowMs}`,
    );
  }
  const rateLimit: RateLimitSettings | undefined =
    rateLimitStore === undefined || options.rateLimit === false
      ? undefined
      : {
          limit,
          windowMs,
          store: rateLimitStore,
          // A store in this process's memory counts at once: no promise on every request.
          hitNow: syncHit(rateLimitStore),
        };
  const upstream: Upstream = {
    baseUrl,
    authorization: basicAuthorization(options.tokenId, options.clientSecret),
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    nodeFetch: options.fetch === undefined && isNodeFetch(),
    native:
      options.fetch === undefined && isNodeFetch()
        ? createNodeClient(baseUrl, maxConnections)
        : undefined,
    timeoutMs,
    deadlines: createDeadlines(timeoutMs),
    slots: createSlots(maxConnections),
  };
  const ownership = {
    upstream,
    cache: tieredOwnershipCache(
      failSafeOwnershipCache(options.ownershipCache ?? createMemoryOwnershipCache()),
      ttlMs,
    ),
    ttlMs,
    onLookup: (lookup: { path: string; status: number }) => emit({ type: "lookup", ...lookup }),
  };
  const resolveUser = options.resolveUser;
  const catchAll = catchAllNames(options.catchAllParam);
  const matchRoute = compileRoutes(RELAY_ROUTES);
  const onEvent = options.onEvent;
  const webhooks = webhookSettings(options.webhooks, maxBodyBytes);

  function emit(event: RelayEvent): void {
    try {
      onEvent?.(event);
    } catch {
      // An event sink must not break a request.
    }
  }

  /** The caller's customer id: at once when `resolveUser` answers without a promise. */
  function identify(incoming: RelayIncoming): string | Promise<string> {
    let user: RelayUser | null | Promise<RelayUser | null>;
    try {
      user = resolveUser(incoming.request());
    } catch {
      throw unresolved();
    }
    return isThenable(user)
      ? Promise.resolve(user).then(customerOf, rethrowUnresolved)
      : customerOf(user);
  }

  async function handle(
    incoming: RelayIncoming,
    state: { route: string | null; customerId?: string; reason?: string },
  ): Promise<RelayAnswer> {
    const target = incoming.target();
    const segments = target.segments ?? splitPath(target.path);
    if (!base.every((segment, i) => segments[i] === segment)) {
      throw new RelayRefusal("RELAY_NOT_FOUND", "The relay does not forward this path.");
    }
    const method = incoming.method;
    const match = matchRoute(method, base.length === 0 ? segments : segments.slice(base.length));
    if (match.kind === "none" && webhooks !== undefined) {
      const answer = await webhookRoute(webhooks, incoming, segments.slice(base.length), state, {
        identify: async (request) => identify(request),
        spend: async (customerId) => spendRateLimit(rateLimit, customerId, "GET"),
      });
      if (answer !== undefined) return answer;
    }
    if (match.kind === "none") {
      throw new RelayRefusal("RELAY_NOT_FOUND", "The relay does not forward this path.");
    }
    if (match.kind === "method") {
      const allow = match.allow.join(", ");
      throw new RelayRefusal(
        "METHOD_NOT_ALLOWED",
        "The relay does not forward this method here.",
        { allow: match.allow },
        { Allow: allow },
      );
    }
    const route = match.route;
    state.route = route.path;
    // Before the cookie is read, a cross-site "simple" request is refused: a form or text type
    // by the header check (400), no type at all here (415).
    const headers = pickForwardedHeaders(incoming.header);
    if (route.method !== "GET" && headers["Content-Type"] === undefined) {
      throw new RelayRefusal(
        "UNSUPPORTED_MEDIA_TYPE",
        "A request that changes state needs Content-Type: application/json, body or not.",
      );
    }

    // Each step answers at once when it can (a sync resolveUser, the in-memory rate limit and
    // ownership tier): an await on a value that is already there still costs a turn of the queue.
    const user = identify(incoming);
    const customerId = typeof user === "string" ? user : await user;
    state.customerId = customerId;

    const spent = spendRateLimit(rateLimit, customerId, method);
    if (spent !== undefined) await spent;

    const search = catchAll === undefined ? target.search : withoutParams(target.search, catchAll);
    const { query, ids: queryIds } = checkQuery(route, search, customerId);
    let body: Uint8Array<ArrayBuffer> | undefined;
    let bodyIds: NamedId[] = [];
    if (route.body !== undefined) {
      body = await incoming.readBody(maxBodyBytes);
      bodyIds = checkBody(route, body, headers["Content-Type"] ?? null);
      const ip = route.body.endUserIpAddress;
      if (ip && options.endUserIpAddress) {
        const address = await endUserIp(options.endUserIpAddress, incoming.request());
        if (address === undefined && ip === "required") throw missingEndUserIp("no address");
        body = withEndUserIp(body, address);
      } else if (ip === "required" && !hasEndUserIp(body)) {
        throw missingEndUserIp("not configured");
      }
    }
    const ids = namedIds(match.ids, queryIds, bodyIds);
    const owned = assertOwned(ownership, customerId, ids);
    if (owned !== undefined) await owned;

    // The upstream path was rebuilt from the route pattern and checked ids only (routeMatcher.ts).
    const answer = await callUpstream(upstream, {
      method: route.method,
      path: match.upstreamPath,
      query,
      headers,
      body,
    });
    if (answer.status < 200 || answer.status > 599) {
      throw new RelayRefusal("UPSTREAM_UNAVAILABLE", "The service answered with a bad status.");
    }
    // The service took this signed request: its push may now reach this user, and only them.
    // Only a stamped request counts: the service answers a stamped request's 2xx only for the
    // pending request its `Request-Id` names, so a request id cannot be claimed by sending it on
    // a read (which any id would pass) before its owner's signed re-send arrives.
    const requestId = headers["Request-Id"];
    if (
      webhooks !== undefined &&
      requestId !== undefined &&
      headers["Grid-Wallet-Signature"] !== undefined &&
      answer.status < 300
    )
      await recordSender(webhooks, requestId, customerId);
    return passThrough(answer.status, answer.headers, answer.body);
  }

  // With no event to tell, the answer is the handler's or its refusal's: no step of its own (an
  // async function here cost every request a suspended frame and a turn of the microtask queue).
  if (onEvent === undefined) {
    return (incoming) => handle(incoming, { route: null }).catch(refusedAnswer);
  }
  return async function answer(incoming: RelayIncoming): Promise<RelayAnswer> {
    const started = Date.now();
    const state: { route: string | null; customerId?: string; reason?: string } = {
      route: null,
    };
    let response: RelayAnswer;
    let code: RelayErrorCode | undefined;
    let reason: string | undefined;
    try {
      response = await handle(incoming, state);
    } catch (error) {
      const refusal = asRefusal(error);
      code = refusal.code;
      const detailReason = refusal.details?.reason;
      reason = typeof detailReason === "string" ? detailReason : refusal.message;
      response = errorAnswer(refusal);
    }
    emit({
      type: "response",
      method: incoming.method,
      route: state.route,
      status: code === undefined ? response.status : relayErrorStatus(code),
      ...(code !== undefined ? { code } : {}),
      ...(reason !== undefined
        ? { reason }
        : state.reason !== undefined
          ? { reason: state.reason }
          : {}),
      ...(state.customerId !== undefined ? { customerId: state.customerId } : {}),
      durationMs: Date.now() - started,
    });
    return response;
  };
}

/**
 * The ids a request names, in order: the path's (opaque segments aside), the query's, the body's.
 * A request that names ids in its query only (the usual read) gets that list as it is, not a copy.
 */
function namedIds(
  pathIds: readonly RelayPathId[],
  queryIds: NamedId[],
  bodyIds: readonly NamedId[],
): NamedId[] {
  if (pathIds.length === 0 && bodyIds.length === 0) return queryIds;
  const ids: NamedId[] = [];
  for (let i = 0; i < pathIds.length; i++) {
    const id = pathIds[i]!;
    if (!isOpaqueSegment(id.kind)) ids.push({ kind: id.kind, value: id.value, where: "path" });
  }
  for (let i = 0; i < queryIds.length; i++) ids.push(queryIds[i]!);
  for (let i = 0; i < bodyIds.length; i++) ids.push(bodyIds[i]!);
  return ids;
}

/** The receiver's settings from its options, checked at creation; `undefined` when it is off. */
function webhookSettings(
  options: RelayWebhooks | undefined,
  maxBodyBytes: number,
): WebhookSettings | undefined {
  if (options === undefined) return undefined;
  const toleranceMs = options.toleranceMs ?? 5 * 60_000;
  const ttlMs = options.ttlMs ?? DEFAULT_OWNERSHIP_TTL_MS;
  const waitMs = options.waitMs ?? 25_000;
  const maxWaits = options.maxWaits ?? 10_000;
  for (const [name, value] of [
    ["toleranceMs", toleranceMs],
    ["ttlMs", ttlMs],
    ["waitMs", waitMs],
  ] as const) {
    assertOption(
      Number.isFinite(value) && value > 0,
      `"webhooks.${name}" expected a positive number, got ${value}`,
    );
  }
  assertOption(
    Number.isSafeInteger(maxWaits) && maxWaits > 0,
    `"webhooks.maxWaits" expected a positive integer, got ${maxWaits}`,
  );
  // The form and the point both, now: a key off the curve would otherwise refuse every delivery.
  assertOption(
    isWebhookKey(options.publicKey),
    `"webhooks.publicKey" expected the service's P-256 public key (a point on the curve) as SEC1 hex or an SPKI PEM`,
  );
  const key = importWebhookKey(options.publicKey);
  // Checked at the first delivery too; an unhandled rejection here would end a Node process.
  key.catch(() => {});
  return {
    key,
    store: options.store ?? createMemoryWebhookStore(),
    toleranceMs,
    ttlMs,
    waitMs,
    maxWaits,
    waits: { open: 0 },
    maxBodyBytes,
    now: Date.now,
  };
}

/** The refusal an error is answered with: its own, or a 500 that says nothing of its cause. */
function asRefusal(error: unknown): RelayRefusal {
  return error instanceof RelayRefusal
    ? error
    : new RelayRefusal(RelayErrorCode.INTERNAL_ERROR, "The relay failed.");
}

function refusedAnswer(error: unknown): RelayAnswer {
  return errorAnswer(asRefusal(error));
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function unresolved(): RelayRefusal {
  return new RelayRefusal("INTERNAL_ERROR", "The user could not be resolved.");
}

function rethrowUnresolved(): never {
  throw unresolved();
}

/** The customer id of what `resolveUser` returned. @throws {RelayRefusal} 401 for none, 500 for a malformed one. */
function customerOf(user: RelayUser | null): string {
  if (user === null)
    throw new RelayRefusal(
      "RELAY_UNAUTHENTICATED",
      "No signed-in user: resolveUser found none for this request. Sign in to the app first.",
    );
  const customerId = (user as Partial<RelayUser> | undefined)?.customerId;
  // Only `Customer:<uuid>`: the id is compared with path and body ids and written into the
  // forced `customerId=` query, where anything else (`&`, `#`, spaces) would smuggle parameters.
  if (typeof customerId !== "string" || !isIdOfKind(customerId, "Customer")) throw unresolved();
  return customerId;
}

/**
 * Counts one request against the caller's rate limit: at once (no promise) when the store can
 * answer so (in this process's memory, or a Redis store's lease), else through the store.
 *
 * @throws {RelayRefusal} 429, or 503 for a write while a shared store is down.
 */
function spendRateLimit(
  rateLimit: RateLimitSettings | undefined,
  customerId: string,
  method: string,
): void | Promise<void> {
  if (rateLimit === undefined) return;
  const key = `signet-relay:${customerId}`;
  if (rateLimit.hitNow !== undefined) {
    let hit: RateLimitResult | undefined;
    try {
      hit = rateLimit.hitNow(key, rateLimit.windowMs, rateLimit.limit);
    } catch {
      return storeDown(method);
    }
    if (hit !== undefined) return judgeHit(hit);
  }
  return rateLimit.store.hit(key, rateLimit.windowMs, rateLimit.limit).then(judgeHit, () => {
    storeDown(method);
  });
}

/** A shared store that is down cannot enforce the limit: reads go on, writes fail closed. */
function storeDown(method: string): void {
  if (method !== "GET" && method !== "HEAD") {
    throw new RelayRefusal(
      "RELAY_STORE_UNAVAILABLE",
      "The relay cannot take this request right now; try again shortly.",
      { retryAfterSeconds: 1 },
      { "Retry-After": "1" },
    );
  }
}

/** @throws {RelayRefusal} 429 when `hit` is over the limit. */
function judgeHit(hit: RateLimitResult | undefined): void {
  if (hit !== undefined && !hit.allowed) {
    const seconds = Math.max(1, Math.ceil(hit.retryAfterMs / 1000));
    throw new RelayRefusal(
      "RATE_LIMITED",
      "Too many requests; try again later.",
      { retryAfterSeconds: seconds },
      { "Retry-After": String(seconds) },
    );
  }
}
