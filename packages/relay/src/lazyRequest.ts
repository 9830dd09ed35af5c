// The web `Request` that `resolveUser` and `endUserIpAddress` are given behind toNodeHandler.
// Building one costs more than the rest of the relay's own work on a cached read (a URL parse, a
// copy of the headers, an AbortSignal, a body stream), and most apps read only a header of it (a
// session cookie, a bearer token). So it is a stand-in that answers `headers` and `method` at once
// and builds the real `Request` the first time anything else of it is read, then answers from it.

import { BUILD, lazyProxy } from "./lazyProxy.js";

/** Where the stand-in keeps the connection's peer address, for `nodeRemoteAddress`. */
export const PEER_ADDRESS = Symbol("signet.relay.peerAddress");

/** What the stand-in needs: the method, the headers, and how to build the whole request. */
export interface LazyRequestParts {
  readonly method: string;
  /** The request's headers, built once when first read; the built `Request` starts from them. */
  readonly headers: () => Headers;
  /** Builds the web `Request`, called at most once, from `headers()`. */
  readonly build: () => Request;
  readonly peerAddress: string | undefined;
}

/**
 * A `Request` that is built only when read beyond `headers` and `method`. It passes
 * `instanceof Request`, and every other member (`url`, `body`, `signal`, `json()`, `clone()`,
 * internal slots that `new Request(request)` and `fetch(request)` read) comes from the real
 * `Request`, built on first use, with its methods bound to it. `headers` is always the one
 * `Headers` object the real request was built from (its copy, once built, is not returned).
 */
export function lazyRequest(parts: LazyRequestParts): Request {
  return lazyProxy(
    Request.prototype,
    (property) =>
      property === "headers"
        ? parts.headers()
        : property === "method"
          ? parts.method
          : property === PEER_ADDRESS
            ? parts.peerAddress
            : BUILD,
    parts.build,
  );
}
