// What the relay's checks read of a request and what it answers, whatever carries them: a web
// `Request` and `Response` (the fetch handler), or Node's request and response (toNodeHandler),
// which then never build a `Response` nor parse a URL the relay reads as a raw target anyway.
import { invalidInput } from "./checkQuery.js";
import { readBody } from "./readBody.js";

export type { RelayAnswer } from "./errors.js";

/** A request as the relay reads it. */
export interface RelayIncoming {
  /** The method, as `Request.method` normalises it. */
  readonly method: string;
  /**
   * The path (percent-encoded, without the query) and the query (`?…`, or `""`), and the path's
   * decoded segments when the reader has already checked and split it (`splitPath`).
   *
   * @throws {RelayRefusal} 400 `INVALID_INPUT` when the request's URL is malformed.
   */
  target(): { path: string; search: string; segments?: string[] };
  /** A header by name, repeated values combined with `, ` (as `Headers.get`), or `null`. */
  header(name: string): string | null;
  /** The web request handed to `resolveUser` and `endUserIpAddress`, built once when first asked. */
  request(): Request;
  /** The body's raw bytes, at most `maxBodyBytes` (readBody.ts). */
  readBody(maxBodyBytes: number): Promise<Uint8Array<ArrayBuffer>>;
}

/** The relay's reading of a web `Request`. */
export function webIncoming(request: Request): RelayIncoming {
  let url: URL | undefined;
  return {
    method: request.method,
    target() {
      try {
        url ??= new URL(request.url);
      } catch {
        throw invalidInput("The request URL is malformed.");
      }
      return { path: url.pathname, search: url.search };
    },
    header: (name) => request.headers.get(name),
    request: () => request,
    readBody: (maxBodyBytes) => readBody(request, maxBodyBytes),
  };
}
