// Calls to the service: Basic auth added here, timeouts and connection errors mapped in one place,
// a bounded number of calls in flight over the runtime's keep-alive connections.
import type { Deadlines } from "./deadlines.js";
import { RelayRefusal } from "./errors.js";
import type { HeaderReader, NodeClient } from "./nodeClient.js";

/** What the relay needs to call the service. */
export interface Upstream {
  /** `https://…/grid/2025-10-13`, without a trailing slash. */
  readonly baseUrl: string;
  /** `Basic base64(tokenId:clientSecret)`. Never logged, never in an error or event. */
  readonly authorization: string;
  readonly fetch: typeof fetch;
  /**
   * Whether `fetch` is the runtime's own in Node (undici), which takes a `dispatcher`: then a
   * call's deadline ends it through the dispatcher (the abort undici hands the request when it
   * is sent) instead of an `AbortSignal` that undici would have to follow (CallDispatcher below).
   * Turned off for good when a call's answer came without the dispatcher being asked (a
   * `fetch` patched over Node's that drops it): the calls after it take the signal path.
   */
  nodeFetch: boolean;
  /**
   * Node's own `http`/`https` client over the relay's keep-alive agent (nodeClient.ts), used in
   * place of `fetch` for a call when no `fetch` option was given and the runtime's `fetch` would
   * send through undici's default dispatcher anyway ({@link sendsThroughDefaults}); else unset.
   */
  readonly native?: NodeClient | undefined;
  readonly timeoutMs: number;
  /** One `timeoutMs` deadline per call, on one shared timer. */
  readonly deadlines: Deadlines;
  /** The bound on calls in flight at once. */
  readonly slots: Slots;
}

/** Encodes `tokenId:clientSecret` as an HTTP Basic `Authorization` value (UTF-8, standard base64). */
export function basicAuthorization(tokenId: string, clientSecret: string): string {
  const bytes = new TextEncoder().encode(`${tokenId}:${clientSecret}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** A request to the service: `path` is built by the relay from checked segments only. */
export interface UpstreamRequest {
  readonly method: string;
  /** Starts with `/`, already validated; appended to the base URL. */
  readonly path: string;
  /** Query string without `?`, built from checked parameters; may be empty. */
  readonly query: string;
  /** The checked forwarded headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body, or `undefined` (or absent) for none. */
  readonly body?: Uint8Array<ArrayBuffer> | undefined;
}

/** A buffered answer of the service. */
export interface UpstreamResponse {
  readonly status: number;
  /** Read one name at a time: web `Headers`, or Node's raw headers read in place. */
  readonly headers: HeaderReader;
  readonly body: Uint8Array<ArrayBuffer>;
}

/**
 * A counting semaphore: at most `size` holders, the rest wait in arrival order. Bounds the calls
 * to the service in flight, so that the runtime's keep-alive pool (Node's fetch keeps connections
 * open and reuses them) never holds more than `size` connections to it however many users wait.
 */
export interface Slots {
  /** A release function at once when a slot is free (no promise, no turn of the event loop), else `undefined`. */
  tryAcquire(): (() => void) | undefined;
  /** Resolves with a release function once a slot is free; rejects with `signal`'s reason if it aborts first. */
  acquire(signal: AbortSignal): Promise<() => void>;
}

/** {@link Slots} of `size`. */
export function createSlots(size: number): Slots {
  let free = size;
  const waiting: { grant: (release: () => void) => void }[] = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) free++;
    else next.grant(once());
  };
  const once = (): (() => void) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
    };
  };
  return {
    tryAcquire() {
      if (free === 0) return undefined;
      free--;
      return once();
    },
    acquire(signal) {
      if (free > 0) {
        free--;
        return Promise.resolve(once());
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          grant: (releaseSlot: () => void) => {
            signal.removeEventListener("abort", onAbort);
            resolve(releaseSlot);
          },
        };
        function onAbort(): void {
          const at = waiting.indexOf(waiter);
          if (at !== -1) waiting.splice(at, 1);
          reject(signal.reason);
        }
        signal.addEventListener("abort", onAbort, { once: true });
        waiting.push(waiter);
      });
    },
  };
}

function isTimeout(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "name" in error &&
    (error.name === "TimeoutError" || error.name === "AbortError")
  );
}

/** Where Node's fetch (undici) keeps the dispatcher it sends through (`setGlobalDispatcher` too). */
const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");

/** The part of an undici dispatcher that Node's fetch calls. */
interface Dispatcher {
  dispatch(options: unknown, handler: object): boolean;
}

/** An undici handler as Node's fetch gives one (undici's callbacks, `onConnect` first). */
interface DispatchHandler {
  onConnect(abort: (reason?: Error) => void, context?: unknown): unknown;
  onError(error: Error): unknown;
  onHeaders?(status: number, headers: unknown, resume: () => void, statusText: string): unknown;
  onData?(chunk: unknown): unknown;
  onComplete?(trailers: unknown): unknown;
  onResponseStarted?(): unknown;
  onUpgrade?(status: number, headers: unknown, socket: unknown): unknown;
  onBodySent?(chunk: unknown): unknown;
  onRequestSent?(): unknown;
}

/**
 * Whether the runtime's `fetch` is Node's own: Node, not Bun or Deno (which answer to
 * `process.versions.node` too). Each call then goes through undici's global dispatcher when it
 * is in place (once Node's fetch has run, or an app set its own); else by the signal path.
 */
export function isNodeFetch(): boolean {
  const versions = (globalThis as { process?: { versions?: Record<string, unknown> } }).process
    ?.versions;
  return (
    typeof versions?.node === "string" &&
    versions.bun === undefined &&
    !("Deno" in globalThis) &&
    typeof globalThis.fetch === "function"
  );
}

/**
 * Whether `fetch` is Node's own: the global Node installs, which loads its bundled undici on the
 * first call. Judged by its source, which names that module (a patch, a polyfill or undici's
 * package `fetch` do not); anything else is not Node's, and keeps every call.
 */
function isNodesOwnFetch(candidate: unknown): boolean {
  if (typeof candidate !== "function") return false;
  try {
    return Function.prototype.toString.call(candidate).includes("internal/deps/undici/undici");
  } catch {
    return false;
  }
}

/**
 * Whether `dispatcher` is undici's default: an `Agent` made without options, as Node's fetch
 * installs on its first call when the app set none (an app's `ProxyAgent`, `EnvHttpProxyAgent`,
 * `MockAgent`, a composed dispatcher or an `Agent` with options of its own is not). Read from
 * undici's own fields; where they cannot be read, it is not the default, and Node's fetch keeps
 * the calls (with whatever the app set honoured).
 */
function isDefaultAgent(dispatcher: unknown): boolean {
  if (typeof dispatcher !== "object" || dispatcher === null) return false;
  if ((dispatcher as { constructor?: { name?: unknown } }).constructor?.name !== "Agent")
    return false;
  const key = Object.getOwnPropertySymbols(dispatcher).find(
    (symbol) => symbol.description === "options",
  );
  const options = key === undefined ? undefined : (dispatcher as Record<symbol, unknown>)[key];
  if (typeof options !== "object" || options === null) return false;
  return Object.values(options).every((value) => value === undefined);
}

// The last `fetch` and dispatcher judged, and the verdicts: a call compares identities only.
let judgedFetch: unknown;
let fetchIsNodes = false;
let judgedDispatcher: unknown;
let dispatcherIsDefault = false;

/**
 * Whether a call by the runtime's `fetch` would be Node's own fetch through undici's default
 * dispatcher, which Node's `http` client over the relay's agent does for less: no dispatcher set
 * yet (Node's fetch would install the default) or the default itself. Checked per call, so that
 * a `fetch` patched or a dispatcher set (a proxy) after the relay was made is honoured at once.
 */
export function sendsThroughDefaults(): boolean {
  const current = globalThis.fetch;
  if (current !== judgedFetch) {
    judgedFetch = current;
    fetchIsNodes = isNodesOwnFetch(current);
  }
  if (!fetchIsNodes) return false;
  const dispatcher = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER];
  if (dispatcher === undefined) return true;
  if (dispatcher !== judgedDispatcher) {
    judgedDispatcher = dispatcher;
    dispatcherIsDefault = isDefaultAgent(dispatcher);
  }
  return dispatcherIsDefault;
}

function globalDispatcher(): Dispatcher | undefined {
  const dispatcher = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER];
  return typeof (dispatcher as Dispatcher | undefined)?.dispatch === "function"
    ? (dispatcher as Dispatcher)
    : undefined;
}

/**
 * One call's way through Node's dispatcher (the same pool, keep-alive and settings as every
 * other fetch of the process): undici hands each request the abort that ends it, connection
 * and all, when it is sent; this keeps it, so that the call's deadline can use it. Cheaper per
 * call than an `AbortSignal`, which undici follows with a listener, a `WeakRef` and a finalizer.
 * A deadline that passes before the request is sent (the pool still connecting) aborts it as
 * soon as it is. A handler of another shape is passed on as it is: the call's promise is still
 * settled at its deadline (callUpstream), its connection left to undici's own timeouts.
 */
class CallDispatcher implements Dispatcher {
  abort: ((reason?: Error) => void) | undefined;
  expired: Error | undefined;
  /** Whether the fetch sent the call through this dispatcher at all. */
  used = false;

  constructor(private readonly base: Dispatcher) {}

  dispatch(options: unknown, handler: object): boolean {
    this.used = true;
    const own = handler as Partial<DispatchHandler>;
    return this.base.dispatch(
      options,
      typeof own.onConnect === "function" && typeof own.onError === "function"
        ? new Forwarded(this, handler as DispatchHandler)
        : handler,
    );
  }

  /** Ends the call at its deadline: now when it was sent, else as soon as it is. */
  end(reason: Error): void {
    this.expired = reason;
    this.abort?.(reason);
  }
}

/**
 * Fetch's handler, each callback passed on to it as undici calls it (with the handler as
 * `this`, as undici calls it); `onConnect` hands the request's abort to the call on the way.
 */
class Forwarded implements DispatchHandler {
  constructor(
    private readonly call: CallDispatcher,
    private readonly handler: DispatchHandler,
  ) {}

  onConnect(abort: (reason?: Error) => void, context?: unknown): unknown {
    this.call.abort = abort;
    const result = this.handler.onConnect(abort, context);
    if (this.call.expired !== undefined) abort(this.call.expired);
    return result;
  }
  onError(error: Error): unknown {
    return this.handler.onError(error);
  }
  onHeaders(status: number, headers: unknown, resume: () => void, statusText: string): unknown {
    return this.handler.onHeaders?.(status, headers, resume, statusText);
  }
  onData(chunk: unknown): unknown {
    return this.handler.onData?.(chunk);
  }
  onComplete(trailers: unknown): unknown {
    return this.handler.onComplete?.(trailers);
  }
  onResponseStarted(): unknown {
    return this.handler.onResponseStarted?.();
  }
  onUpgrade(status: number, headers: unknown, socket: unknown): unknown {
    return this.handler.onUpgrade?.(status, headers, socket);
  }
  onBodySent(chunk: unknown): unknown {
    return this.handler.onBodySent?.(chunk);
  }
  onRequestSent(): unknown {
    return this.handler.onRequestSent?.();
  }
}

const timeoutError = (): DOMException =>
  new DOMException("The service did not answer in time.", "TimeoutError");

/**
 * Sends one request to the service. A GET is retried once after a connection error (it is
 * idempotent); nothing else is retried. A redirect is never followed. One async function for the
 * whole call (each try inline, not a function of its own): every layer of `async` costs the hot
 * path a promise and a turn of the microtask queue.
 *
 * @throws {RelayRefusal} 504 `UPSTREAM_TIMEOUT` after `timeoutMs`; 502 `UPSTREAM_UNAVAILABLE` on a
 * connection error or a redirect. Messages are generic: the cause (which may name the host) is not copied.
 */
export async function callUpstream(
  upstream: Upstream,
  request: UpstreamRequest,
): Promise<UpstreamResponse> {
  const pathAndQuery = request.query === "" ? request.path : `${request.path}?${request.query}`;
  const url = upstream.baseUrl + pathAndQuery;
  const headers = {
    ...request.headers,
    Authorization: upstream.authorization,
    Accept: "application/json",
  };
  const body = request.body !== undefined && request.body.byteLength > 0 ? request.body : undefined;
  let response: UpstreamResponse | undefined;
  for (let tries = request.method === "GET" ? 2 : 1; response === undefined; tries--) {
    // The deadline ends the call wherever it is (waiting for a slot, for the answer's head,
    // mid-body), its connection with it. With Node's client, by destroying its request and
    // socket. With Node's own fetch, through the dispatcher, and the
    // call's promise is settled at the deadline whether or not the request was sent yet. With
    // any other fetch, through an `AbortSignal` of the call's own (one shared signal would
    // collect every call's listener). A call that could only be abandoned at its deadline would
    // leave a hung connection open past `maxConnections`, or hold its slot long after. The
    // deadlines share one timer (deadlines.ts).
    const native =
      upstream.native !== undefined && sendsThroughDefaults() ? upstream.native : undefined;
    const base = native === undefined && upstream.nodeFetch ? globalDispatcher() : undefined;
    const dispatcher = base === undefined ? undefined : new CallDispatcher(base);
    let controller: AbortController | undefined =
      dispatcher === undefined && native === undefined ? new AbortController() : undefined;
    let onExpire: ((reason: Error) => void) | undefined;
    let expired: Error | undefined;
    const stop = upstream.deadlines.start(() => {
      const reason = timeoutError();
      expired = reason;
      controller?.abort(reason);
      dispatcher?.end(reason);
      onExpire?.(reason);
    });
    let release: (() => void) | undefined;
    try {
      // The wait for a free slot counts against the call's deadline, as a wait for a connection
      // would. A free slot is taken at once: no promise to wait on when the pool has room.
      release = upstream.slots.tryAcquire();
      if (release === undefined) {
        controller ??= new AbortController();
        release = await upstream.slots.acquire(controller.signal);
      }
      if (native !== undefined) {
        if (expired !== undefined) throw expired;
        // Node's client: the same URL, headers and body; the length, and the `User-Agent` that
        // Node's fetch names itself with (a service or its CDN may refuse a call without one), as
        // fetch sends them.
        const sent: Record<string, string> = { ...headers, "User-Agent": "node" };
        if (body !== undefined) sent["Content-Length"] = String(body.byteLength);
        else if (request.method !== "GET") sent["Content-Length"] = "0";
        response = await new Promise<UpstreamResponse>((resolve, reject) => {
          const call = native.send(
            { method: request.method, path: pathAndQuery, headers: sent, body },
            resolve,
            reject,
          );
          onExpire = (reason) => call.end(reason);
        });
      } else {
        const init: RequestInit & { dispatcher?: Dispatcher } = {
          method: request.method,
          headers,
          redirect: "manual",
        };
        if (body !== undefined) init.body = body;
        if (dispatcher === undefined) {
          init.signal = controller!.signal;
          const answer = await upstream.fetch(url, init);
          // The body is read under the same deadline: a service that stalls mid-body is a timeout too.
          const bytes = new Uint8Array(await answer.arrayBuffer());
          response = { status: answer.status, headers: answer.headers, body: bytes };
        } else {
          init.dispatcher = dispatcher;
          if (dispatcher.expired !== undefined) throw dispatcher.expired;
          // Settled without the dispatcher (answered or failed, the deadline's abort aside): this
          // `fetch` does not take one (a patch over Node's), so its calls could not be ended at
          // their deadline. Signals from now on.
          const judge = (): void => {
            if (!dispatcher.used) upstream.nodeFetch = false;
          };
          response = await new Promise<UpstreamResponse>((resolve, reject) => {
            onExpire = reject;
            upstream.fetch(url, init).then(
              (answer) => {
                judge();
                answer.arrayBuffer().then(
                  (buffer) =>
                    resolve({
                      status: answer.status,
                      headers: answer.headers,
                      body: new Uint8Array(buffer),
                    }),
                  reject,
                );
              },
              (error: unknown) => {
                judge();
                reject(error);
              },
            );
          });
        }
      }
    } catch (error) {
      if (isTimeout(error)) {
        throw new RelayRefusal("UPSTREAM_TIMEOUT", "The service did not answer in time.", {
          timeoutMs: upstream.timeoutMs,
        });
      }
      if (tries === 1) {
        throw new RelayRefusal("UPSTREAM_UNAVAILABLE", "The service could not be reached.");
      }
    } finally {
      release?.();
      stop();
    }
  }
  if (response.status >= 300 && response.status < 400) {
    throw new RelayRefusal("UPSTREAM_UNAVAILABLE", "The service answered with a redirect.");
  }
  return response;
}
