/**
 * Requests from the device to the app's relay (docs/architecture.md "@signet/core", layer 3). Every HTTP
 * exchange of Signet goes through `createTransport`: one place for URL joining, the injectable
 * `fetch`, per-attempt timeouts, abort handling and the redacted `request` event.
 */

import { defined } from "../errors/defined.js";
import { isSignetError, SignetError } from "../errors/errors.js";
import { abortedError } from "./abort.js";
import { deliver } from "./deliver.js";
import { REQUEST_ID_HEADER, WALLET_SIGNATURE_HEADER } from "./protocol.js";
import { errorFromResponse } from "./responseError.js";

/** The `fetch` signature Signet needs; `globalThis.fetch`, undici and polyfills all fit. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Milliseconds since the epoch, injectable for tests and for devices with a corrected clock. */
export type Clock = { now(): number };

/** One HTTP exchange as seen in the event log: no body, no header values except `requestId`. */
export type RequestEvent = {
  type: "request";
  method: string;
  /** The path relative to the relay, as the caller gave it (ids and query, never bodies). */
  path: string;
  /** The HTTP status; absent when no answer arrived (see `code`). */
  status?: number;
  durationMs: number;
  /** Whether the request carried the wallet signature header. */
  signed: boolean;
  /** The `Request-Id` sent, on signed legs of a signed request. */
  requestId?: string;
  /** `NETWORK`, `TIMEOUT` or `ABORTED` when no answer arrived. */
  code?: string;
};

export type CreateTransportParameters = {
  /**
   * Where the relay is mounted: absolute (`https://app.example/api/grid`) or relative to the
   * page (`/api/grid`). Paths are appended to it.
   */
  relayUrl: string;
  /** Default: `globalThis.fetch`, looked up on each request (never at import: SSR-safe). */
  fetch?: FetchFunction | undefined;
  /**
   * Headers added to every request (e.g. the app's own auth for its relay). A function is
   * called on each request, so short-lived tokens stay fresh.
   */
  headers?:
    | Record<string, string>
    | (() => Record<string, string> | Promise<Record<string, string>>)
    | undefined;
  /** `fetch`'s `credentials`, for a relay on another origin that uses cookies. */
  credentials?: RequestCredentials | undefined;
  /** Per-attempt time limit in ms, including reading the body. Default 30 000. */
  timeoutMs?: number | undefined;
  /** Source of `durationMs`. Default `Date`. */
  clock?: Clock | undefined;
  /** Receives one `request` event per HTTP exchange. Errors thrown by the sink are ignored. */
  onEvent?: ((event: RequestEvent) => void) | undefined;
};

export type TransportRequest = {
  method: string;
  /** Relative to `relayUrl`, starting with `/`: `/auth/sessions/Session:…`. */
  path: string;
  /** A body already serialised to a string; sent byte for byte as `application/json`. */
  body?: string | undefined;
  /** Per-request headers (signature, `Request-Id`, `Idempotency-Key`). */
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  /** Caps this request's time limit: the smaller of this and the transport's `timeoutMs` applies. */
  timeoutMs?: number | undefined;
  /** Also receives this request's `request` event (a per-call sink), after the transport's own. */
  onEvent?: ((event: RequestEvent) => void) | undefined;
};

/** A complete HTTP answer, body already read as text (Signet's answers are small JSON). */
export type TransportResponse = {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
  durationMs: number;
};

/** Sends requests to the relay. Create one per client with `createTransport`. */
export type Transport = {
  readonly relayUrl: string;
  /**
   * Sends one request and reads its whole answer. Any HTTP status resolves; only the absence
   * of an answer rejects.
   * @throws {SignetError} `NETWORK` (retryable), `TIMEOUT` (retryable) or `ABORTED`.
   */
  request(request: TransportRequest): Promise<TransportResponse>;
};

const DEFAULT_TIMEOUT_MS = 30_000;

/** The device clock, the default wherever no clock is given. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * Joins the relay URL and a relative path with exactly one slash between them.
 *
 * @throws {SignetError} `INVALID_ARGUMENT` when `path` does not start with `/`.
 * @example
 * ```ts
 * joinRelayUrl("https://app.example/api/grid/", "/auth/credentials");
 * // "https://app.example/api/grid/auth/credentials"
 * ```
 */
export function joinRelayUrl(relayUrl: string, path: string): string {
  if (!path.startsWith("/") || path.startsWith("//")) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"path" expected a relative path starting with "/", got ${JSON.stringify(path.slice(0, 40))}`,
    );
  }
  return relayUrl.replace(/\/+$/, "") + path;
}

/** The given `fetch`, or `globalThis.fetch` looked up now. @throws {SignetError} `INVALID_ARGUMENT` without one. */
export function resolveFetch(fetchFunction: FetchFunction | undefined): FetchFunction {
  if (fetchFunction !== undefined) return fetchFunction;
  const globalFetch = (globalThis as { fetch?: FetchFunction }).fetch;
  if (typeof globalFetch !== "function") {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"fetch" expected a function (pass one), got ${typeof globalFetch}`,
    );
  }
  // Called through globalThis: some browsers throw "Illegal invocation" on a detached fetch.
  return (input, init) => {
    // A path resolves against the page; elsewhere it is a configuration mistake, not a network
    // failure to retry.
    if (input[0] === "/" && !(globalThis as { location?: { origin?: string } }).location?.origin)
      throw new SignetError(
        "INVALID_ARGUMENT",
        `"relayUrl" is a path, but no page origin exists here: pass an absolute http(s) URL`,
      );
    return (globalThis as unknown as { fetch: FetchFunction }).fetch(input, init);
  };
}

/**
 * An `AbortError`-free way to know why a request stopped: the caller's signal, the timer, or
 * neither (a real network failure).
 */
type AttemptAbort = {
  signal: AbortSignal;
  reason(): "aborted" | "timeout" | undefined;
  dispose(): void;
};

function attemptAbort(callerSignal: AbortSignal | undefined, timeoutMs: number): AttemptAbort {
  const controller = new AbortController();
  let reason: "aborted" | "timeout" | undefined;
  const onAbort = () => {
    reason ??= "aborted";
    controller.abort(callerSignal?.reason);
  };
  if (callerSignal?.aborted) onAbort();
  else callerSignal?.addEventListener("abort", onAbort, { once: true });
  const timer =
    Number.isFinite(timeoutMs) && timeoutMs > 0
      ? setTimeout(() => {
          reason ??= "timeout";
          controller.abort();
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    reason: () => reason,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onAbort);
    },
  };
}

/** Rejects when `signal` fires even if `promise` ignores it (a custom `fetch` may). */
function settleOrAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Socket errors that happen before a byte of the request leaves (Node's `fetch` names them). */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** Whether a `fetch` rejection says the request never left (a refused connection, no address). */
function neverSent(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 4; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && NOT_SENT_CODES.has(code)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Creates the transport every Signet request goes through.
 *
 * Relative paths are joined to `relayUrl`; bodies are sent as the exact string given, and every
 * call but `GET` and `HEAD` carries `Content-Type: application/json`; `fetch` is resolved on each call, so importing Signet on a
 * server touches no browser global. The answer is read completely before resolving, and any
 * status resolves: mapping statuses to errors is `errorFromResponse`'s job.
 *
 * @throws {SignetError} from `request`: `NETWORK` (retryable) when no answer arrived,
 * `TIMEOUT` (retryable) after `timeoutMs`, `ABORTED` when the caller's signal fired.
 * @example
 * ```ts
 * const transport = createTransport({ relayUrl: "/api/grid" });
 * const response = await transport.request({ method: "GET", path: "/auth/sessions?accountId=InternalAccount:…" });
 * ```
 */
export function createTransport(parameters: CreateTransportParameters): Transport {
  const { relayUrl } = parameters;
  if (typeof relayUrl !== "string" || relayUrl === "") {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"relayUrl" expected a non-empty string, got ${typeof relayUrl}`,
    );
  }
  const clock = parameters.clock ?? systemClock;
  const defaultTimeoutMs = parameters.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function request(request: TransportRequest): Promise<TransportResponse> {
    const emit = (event: RequestEvent) => deliver(event, parameters.onEvent, request.onEvent);
    const url = joinRelayUrl(relayUrl, request.path);
    const fetchFunction = resolveFetch(parameters.fetch);
    if (request.signal?.aborted) throw abortedError(request.signal);

    const baseHeaders =
      typeof parameters.headers === "function" ? await parameters.headers() : parameters.headers;
    const headers: Record<string, string> = { Accept: "application/json", ...baseHeaders };
    // Every state-changing call says JSON, body or not: the relay refuses one that does not
    // (a cross-site "simple" request could otherwise ride the user's cookies).
    if (request.body !== undefined || (request.method !== "GET" && request.method !== "HEAD")) {
      headers["Content-Type"] = "application/json";
    }
    Object.assign(headers, request.headers);

    const signed = request.headers?.[WALLET_SIGNATURE_HEADER] !== undefined;
    const requestId = request.headers?.[REQUEST_ID_HEADER];
    const eventBase = {
      type: "request" as const,
      method: request.method,
      path: request.path,
      signed,
      ...defined({ requestId }),
    };

    const timeoutMs = Math.min(request.timeoutMs ?? defaultTimeoutMs, defaultTimeoutMs);
    const abort = attemptAbort(request.signal, timeoutMs);
    const startedAt = clock.now();
    try {
      const init: RequestInit = {
        method: request.method,
        headers,
        signal: abort.signal,
        // A relay never redirects. Followed, a redirect to a dead host would fail as "never
        // sent" although the relay took the request, and the request would go again.
        redirect: "error",
        ...defined({ body: request.body, credentials: parameters.credentials }),
      };
      const response = await settleOrAbort(fetchFunction(url, init), abort.signal);
      const text = await settleOrAbort(response.text(), abort.signal);
      const durationMs = Math.max(0, clock.now() - startedAt);
      emit({ ...eventBase, status: response.status, durationMs });
      return { status: response.status, headers: response.headers, text, durationMs };
    } catch (error) {
      const durationMs = Math.max(0, clock.now() - startedAt);
      const reason = abort.reason();
      let failure: SignetError;
      if (reason === "aborted") failure = abortedError(request.signal);
      else if (reason === "timeout") {
        failure = new SignetError("TIMEOUT", `No answer within ${timeoutMs} ms`, {
          retryable: true,
          cause: error,
        });
      } else if (isSignetError(error)) failure = error;
      else {
        failure = new SignetError("NETWORK", "The relay could not be reached", {
          retryable: true,
          cause: error,
          // A refused connection provably sent nothing: any request may go again.
          ...(neverSent(error) ? { details: { sent: false } } : {}),
        });
      }
      emit({ ...eventBase, durationMs, code: failure.code });
      throw failure;
    } finally {
      abort.dispose();
    }
  }

  return { relayUrl, request };
}

export type RequestJsonParameters = TransportRequest & {
  transport: Transport;
  /** Statuses that mean success. Default: any 2xx. */
  expectedStatus?: number | readonly number[] | undefined;
};

export type RequestJsonReturnType<TBody> = {
  status: number;
  /** The parsed JSON body, or `undefined` for an empty body (204). */
  body: TBody;
};

/**
 * Parses a success body: empty means `undefined`, anything else must be JSON.
 *
 * @throws {SignetError} `MALFORMED_RESPONSE` when the body is not JSON.
 * @example
 * ```ts
 * const body = parseJsonBody<AuthSessionJson>(response);
 * ```
 */
export function parseJsonBody<TBody = unknown>(
  response: Pick<TransportResponse, "status" | "text">,
): TBody {
  if (response.text.trim() === "") return undefined as TBody;
  try {
    return JSON.parse(response.text) as TBody;
  } catch (cause) {
    throw new SignetError(
      "MALFORMED_RESPONSE",
      `HTTP ${response.status} with a body that is not JSON`,
      {
        status: response.status,
        cause,
      },
    );
  }
}

/**
 * Sends one unsigned request and returns its parsed JSON, mapping any other status to a
 * `SignetError` through `errorFromResponse`. For the plain endpoints (lists, reads, OAuth and
 * passkey verify); signed endpoints go through `runSignedRequest`.
 *
 * @throws {SignetError} the mapped service error, `MALFORMED_RESPONSE`, `NETWORK`, `TIMEOUT`, `ABORTED`.
 * @example
 * ```ts
 * const { body } = await requestJson<{ data: AuthMethodJson[] }>({
 *   transport,
 *   method: "GET",
 *   path: `/auth/credentials?accountId=${encodeURIComponent(accountId)}`,
 * });
 * ```
 */
export async function requestJson<TBody = unknown>(
  parameters: RequestJsonParameters,
): Promise<RequestJsonReturnType<TBody>> {
  const { transport, expectedStatus, ...request } = parameters;
  const response = await transport.request(request);
  const expected =
    expectedStatus === undefined
      ? response.status >= 200 && response.status < 300
      : typeof expectedStatus === "number"
        ? response.status === expectedStatus
        : expectedStatus.includes(response.status);
  if (!expected) {
    if (response.status >= 400) throw errorFromResponse({ response });
    throw new SignetError("UNEXPECTED_STATUS", `Unexpected HTTP ${response.status}`, {
      status: response.status,
    });
  }
  return { status: response.status, body: parseJsonBody<TBody>(response) };
}
