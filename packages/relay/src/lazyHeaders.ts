// The `Headers` of the web `Request` that `resolveUser` is given behind toNodeHandler. Filling a
// `Headers` validates and copies every header of the request, which costs more than most apps
// read of it (one cookie, one bearer token): so `get` and `has` answer from the request's headers
// as Node parsed them, and the real `Headers` is filled only when anything else is read or
// written (iterating, `set`, passing it to `new Headers` or `fetch`), then answers everything.

import { BUILD, lazyProxy } from "./lazyProxy.js";

// An HTTP token (RFC 9110 §5.6.2): the header names `Headers.get` accepts.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * A `Headers` that reads `get` and `has` through `read` (a lower-case name to the value, repeated
 * values combined with `, ` as `Headers` combines them, or `null`) until `build` has made the
 * real one. It passes `instanceof Headers`; a name `Headers` would refuse is asked of the real
 * one, which throws the same `TypeError`.
 */
export function lazyHeaders(read: (name: string) => string | null, build: () => Headers): Headers {
  let real: Headers | undefined;
  const built = (): Headers => {
    real ??= build();
    return real;
  };
  const get = (name: string): string | null =>
    real === undefined && typeof name === "string" && TOKEN.test(name)
      ? read(name.toLowerCase())
      : built().get(name);
  const has = (name: string): boolean =>
    real === undefined && typeof name === "string" && TOKEN.test(name)
      ? read(name.toLowerCase()) !== null
      : built().has(name);
  // `built` is the proxy's build too: one real Headers, whichever side makes it first.
  return lazyProxy(
    Headers.prototype,
    (property) => (property === "get" ? get : property === "has" ? has : BUILD),
    built,
  );
}
