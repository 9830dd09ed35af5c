// Calls to the service: Basic auth added here, timeouts and connection errors mapped in one place,
// a bounded number of calls in flight over the runtime's keep-alive connections.
import type { Deadlines } from "./deadlines.js";
import { RelayRefusal } from "./errors.js";

/** What the relay needs to call the service. */
export interface Upstream {
  /** `https://…/grid/2025-10-13`, without a trailing slash. */
  readonly baseUrl: string;
  /** `Basic base64(tokenId:clientSecret)`. Never logged, never in an error or event. */
  readonly authorization: string;
  readonly fetch: typeof fetch;
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
  readonly headers: Headers;
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
  const url = upstream.baseUrl + request.path + (request.query === "" ? "" : `?${request.query}`);
  const headers = {
    ...request.headers,
    Authorization: upstream.authorization,
    Accept: "application/json",
  };
  const body = request.body !== undefined && request.body.byteLength > 0 ? request.body : undefined;
  let response: UpstreamResponse | undefined;
  for (let tries = request.method === "GET" ? 2 : 1; response === undefined; tries--) {
    // The signal is what lets the deadline end the call wherever it is (waiting for a slot, for
    // the answer's head, mid-body), its connection with it. Node's fetch spends about 2.7 KB on
    // a call given a signal (undici follows it with a WeakRef, a finalizer and an abort
    // listener; the controller itself costs next to nothing), but a call without one could only
    // be abandoned at its deadline: a hung connection would stay open past `maxConnections`, or
    // hold its slot long after the deadline. So each call keeps its own signal; the deadlines
    // share one timer (deadlines.ts), and one shared signal would collect every call's listener.
    const controller = new AbortController();
    const stop = upstream.deadlines.start(() =>
      controller.abort(new DOMException("The service did not answer in time.", "TimeoutError")),
    );
    let release: (() => void) | undefined;
    try {
      // The wait for a free slot counts against the call's deadline, as a wait for a connection
      // would. A free slot is taken at once: no promise to wait on when the pool has room.
      release = upstream.slots.tryAcquire() ?? (await upstream.slots.acquire(controller.signal));
      const init: RequestInit = {
        method: request.method,
        headers,
        redirect: "manual",
        signal: controller.signal,
      };
      if (body !== undefined) init.body = body;
      const answer = await upstream.fetch(url, init);
      // The body is read under the same deadline: a service that stalls mid-body is a timeout too.
      const bytes = new Uint8Array(await answer.arrayBuffer());
      response = { status: answer.status, headers: answer.headers, body: bytes };
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
