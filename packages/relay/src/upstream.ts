// Calls to the service: Basic auth added here, timeouts and connection errors mapped in one place.
import { RelayRefusal } from "./errors.js";

/** What the relay needs to call the service. */
export interface Upstream {
  /** `https://…/grid/2025-10-13`, without a trailing slash. */
  readonly baseUrl: string;
  /** `Basic base64(tokenId:clientSecret)`. Never logged, never in an error or event. */
  readonly authorization: string;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
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
  readonly headers?: Headers;
  readonly body?: Uint8Array<ArrayBuffer>;
}

/** A buffered answer of the service. */
export interface UpstreamResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array<ArrayBuffer>;
}

function isTimeout(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "name" in error &&
    (error.name === "TimeoutError" || error.name === "AbortError")
  );
}

async function attempt(upstream: Upstream, request: UpstreamRequest): Promise<UpstreamResponse> {
  const headers = new Headers(request.headers);
  headers.set("Authorization", upstream.authorization);
  headers.set("Accept", "application/json");
  const url = upstream.baseUrl + request.path + (request.query === "" ? "" : `?${request.query}`);
  const init: RequestInit = {
    method: request.method,
    headers,
    redirect: "manual",
    signal: AbortSignal.timeout(upstream.timeoutMs),
  };
  if (request.body !== undefined && request.body.byteLength > 0) init.body = request.body;
  const response = await upstream.fetch(url, init);
  // The body is read under the same deadline: a service that stalls mid-body is a timeout too.
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body };
}

/**
 * Sends one request to the service. A GET is retried once after a connection error (it is
 * idempotent); nothing else is retried. A redirect is never followed.
 *
 * @throws {RelayRefusal} 504 `UPSTREAM_TIMEOUT` after `timeoutMs`; 502 `UPSTREAM_UNAVAILABLE` on a
 * connection error or a redirect. Messages are generic: the cause (which may name the host) is not copied.
 */
export async function callUpstream(
  upstream: Upstream,
  request: UpstreamRequest,
): Promise<UpstreamResponse> {
  let response: UpstreamResponse | undefined;
  for (let tries = request.method === "GET" ? 2 : 1; tries > 0; tries--) {
    try {
      response = await attempt(upstream, request);
      break;
    } catch (error) {
      if (isTimeout(error)) {
        throw new RelayRefusal("UPSTREAM_TIMEOUT", "The service did not answer in time.", {
          timeoutMs: upstream.timeoutMs,
        });
      }
      if (tries === 1) {
        throw new RelayRefusal("UPSTREAM_UNAVAILABLE", "The service could not be reached.");
      }
    }
  }
  if (response === undefined || (response.status >= 300 && response.status < 400)) {
    throw new RelayRefusal("UPSTREAM_UNAVAILABLE", "The service answered with a redirect.");
  }
  return response;
}
