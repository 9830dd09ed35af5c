// Mounting a fetch handler in Node's http server (or Express) without touching the body bytes.
// A relay made by createRelay is served natively: its checks read Node's request, and its answer
// is written to Node's response, with no `Response` built nor read back.
import { rememberRemoteAddress } from "./endUserIp.js";
import { errorAnswer, type RelayAnswer, RelayRefusal, relayErrorResponse } from "./errors.js";
import type { RelayIncoming } from "./incoming.js";
import { lazyHeaders } from "./lazyHeaders.js";
import { lazyRequest } from "./lazyRequest.js";
import { nativeRelay } from "./nativeRelay.js";
import { readBody } from "./readBody.js";
import { checkRequestTarget } from "./requestPath.js";

/** The parts of `node:http`'s `IncomingMessage` the adapter reads (Express's `req` fits too). */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  method?: string | undefined;
  url?: string | undefined;
  /** Express sets it to the full target when a router strips the mount path from `url`. */
  originalUrl?: string | undefined;
  rawHeaders: string[];
  headers: { host?: string | undefined };
  /** A TLS socket (`encrypted: true`) makes the request URL `https:`; `remoteAddress` is the peer. */
  socket?: { encrypted?: boolean; remoteAddress?: string | undefined } | null | undefined;
  destroy?(error?: Error): unknown;
}

/** The parts of `node:http`'s `ServerResponse` the adapter writes. */
export interface NodeResponseLike {
  statusCode: number;
  setHeader(name: string, value: string | string[]): unknown;
  /**
   * Writes the status and headers at once (`node:http`'s and Express's responses have it);
   * headers set before with `setHeader` are kept. Without it, `statusCode` and `setHeader`.
   */
  writeHead?(statusCode: number, headers: Record<string, string>): unknown;
  end(chunk?: Uint8Array): unknown;
  headersSent?: boolean;
}

/** A `node:http` request listener (or Express middleware). */
export type NodeHandler = (request: NodeRequestLike, response: NodeResponseLike) => Promise<void>;

const HOST = /^[A-Za-z0-9.-]+(?::[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?$/;

/** A Node request's raw headers as web `Headers`, appended one by one. */
function toHeaders(req: NodeRequestLike): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    // Repeated headers are appended, so they reach the relay as one combined value it refuses.
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  return headers;
}

/** Builds a web `Request` from a Node request and its headers, the body streamed as bytes. */
function toRequest(req: NodeRequestLike, target: string, headers = toHeaders(req)): Request {
  const host =
    req.headers.host !== undefined && HOST.test(req.headers.host) ? req.headers.host : "localhost";
  const tls = req.socket?.encrypted === true;
  const scheme = tls ? "https" : "http";
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers };
  if (method !== "GET" && method !== "HEAD") {
    const source = req[Symbol.asyncIterator]();
    init.body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await source.next();
        if (done) controller.close();
        else
          controller.enqueue(typeof value === "string" ? new TextEncoder().encode(value) : value);
      },
      // On cancel (a body over the limit) the rest is left unread: the 413 goes out with
      // `Connection: close` and Node drops the connection after it.
    });
    init.duplex = "half";
  }
  const request = new Request(`${scheme}://${host}${target}`, init);
  rememberRemoteAddress(request, req.socket?.remoteAddress);
  return request;
}

// HTTP whitespace, which `Headers` strips from both ends of a value.
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
// The methods `Request` upper-cases (Fetch standard, "normalize a method").
const NORMALIZED_METHODS = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);

function normalizeMethod(method: string): string {
  const upper = method.toUpperCase();
  return NORMALIZED_METHODS.has(upper) ? upper : method;
}

/**
 * A request's header by lower-case name, repeated ones combined as `Headers` combines them, or
 * `null`. Read from the raw headers in place: a request's few reads (the forwarded headers, a
 * session cookie) compare lengths first, which costs less than a map of every header, each
 * name lower-cased and each value trimmed, made for them.
 */
function rawHeader(rawHeaders: readonly string[], name: string): string | null {
  let value: string | null = null;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const raw = rawHeaders[i]!;
    if (raw.length !== name.length || (raw !== name && raw.toLowerCase() !== name)) continue;
    const one = rawHeaders[i + 1]!.replace(HTTP_WHITESPACE, "");
    value = value === null ? one : `${value}, ${one}`;
  }
  return value;
}

/**
 * The relay's reading of a Node request: the raw target and headers as they came. The web
 * `Request` is built only when something reads more of it than its headers and method
 * (lazyRequest.ts): `resolveUser` reading a cookie never builds it, a body is read through it,
 * so a body is read once, as the fetch handler reads it. A class, not a closure per member: one
 * object per request, its parts made when first read.
 */
class NodeIncoming implements RelayIncoming {
  readonly method: string;
  private webHeaders: Headers | undefined;
  private headersView: Headers | undefined;
  private built: Request | undefined;
  private view: Request | undefined;

  constructor(
    private readonly req: NodeRequestLike,
    private readonly raw: string,
    private readonly segments: string[],
  ) {
    this.method = normalizeMethod(req.method ?? "GET");
  }

  target(): { path: string; search: string; segments: string[] } {
    const target = this.raw;
    const query = target.indexOf("?");
    return query === -1
      ? { path: target, search: "", segments: this.segments }
      : {
          path: target.slice(0, query),
          search: query === target.length - 1 ? "" : target.slice(query),
          segments: this.segments,
        };
  }

  /** A header by its lower-case name, from Node's parse. */
  private read(name: string): string | null {
    return rawHeader(this.req.rawHeaders, name);
  }

  // An arrow: handed on alone (pickForwardedHeaders), it must not lose its `this`.
  readonly header = (name: string): string | null => this.read(name.toLowerCase());

  private requestHeaders(): Headers {
    this.webHeaders ??= toHeaders(this.req);
    return this.webHeaders;
  }

  private webRequest(): Request {
    this.built ??= toRequest(this.req, this.raw, this.requestHeaders());
    return this.built;
  }

  request(): Request {
    this.view ??= lazyRequest({
      method: this.method,
      // A header read answers from Node's parse; the `Headers` are filled only when needed.
      headers: () => {
        this.headersView ??= lazyHeaders(
          (name) => this.read(name),
          () => this.requestHeaders(),
        );
        return this.headersView;
      },
      build: () => this.webRequest(),
      peerAddress: this.req.socket?.remoteAddress,
    });
    return this.view;
  }

  readBody(maxBodyBytes: number): Promise<Uint8Array<ArrayBuffer>> {
    return readBody(this.webRequest(), maxBodyBytes);
  }
}

function write(res: NodeResponseLike, answer: RelayAnswer, head: boolean): void {
  const headers: Record<string, string> = { ...answer.headers };
  if (answer.status === 413) headers.connection = "close";
  if (res.writeHead !== undefined) {
    // One call that writes the status line and headers, as a bare server does: no header
    // object kept on the response for later reads, no validation per `setHeader`. The length
    // is given, as `end(body)` gives it after `setHeader`: written first, the headers would
    // otherwise frame the body as chunks. A HEAD answer has no body, so no length, as before.
    if (answer.body !== null && !head) headers["content-length"] = String(answer.body.byteLength);
    res.writeHead(answer.status, headers);
  } else {
    res.statusCode = answer.status;
    for (const name in headers) res.setHeader(name, headers[name]!);
  }
  res.end(answer.body ?? undefined);
}

/** Writes the answer; a failure to write ends the response, with a 500 if nothing was sent yet. */
function respond(res: NodeResponseLike, answer: RelayAnswer, head: boolean): void {
  try {
    write(res, answer, head);
  } catch {
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  }
}

async function send(res: NodeResponseLike, response: Response): Promise<void> {
  res.statusCode = response.status;
  if (response.status === 413) res.setHeader("Connection", "close");
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  const body = response.body === null ? undefined : new Uint8Array(await response.arrayBuffer());
  res.end(body);
}

/**
 * Adapts a fetch handler (the relay) to Node's `http.createServer` and to Express. The request
 * target is checked raw, before any URL parsing can normalise it: `..`, `%2e%2e`, `%2f`,
 * backslashes, `//` and absolute-form targets are refused with 400 `INVALID_INPUT`. The body
 * is streamed to the handler as raw bytes (never parsed), and repeated headers are kept
 * repeated so the relay can refuse them. Under Express, mount it before any body parser.
 *
 * @example
 * import { createServer } from "node:http";
 * createServer(toNodeHandler(relay)).listen(3000);
 */
export function toNodeHandler(handler: (request: Request) => Promise<Response>): NodeHandler {
  const native = nativeRelay(handler);
  if (native !== undefined) {
    // Not an async function: the answer's promise is the only one made, with no frame of this
    // function suspended on it and no extra turn of the microtask queue per request.
    return (req, res) => {
      const target = req.originalUrl ?? req.url ?? "/";
      let answered: Promise<RelayAnswer>;
      try {
        answered = native(new NodeIncoming(req, target, checkRequestTarget(target)));
      } catch (error) {
        answered = Promise.reject(error);
      }
      return answered.then(
        (answer) => respond(res, answer, req.method === "HEAD"),
        (error: unknown) =>
          respond(
            res,
            errorAnswer(
              error instanceof RelayRefusal
                ? error
                : new RelayRefusal("INTERNAL_ERROR", "The relay failed."),
            ),
            req.method === "HEAD",
          ),
      );
    };
  }
  return async (req, res) => {
    const target = req.originalUrl ?? req.url ?? "/";
    let response: Response;
    try {
      checkRequestTarget(target);
      response = await handler(toRequest(req, target));
    } catch (error) {
      response = relayErrorResponse(
        error instanceof RelayRefusal
          ? error
          : new RelayRefusal("INTERNAL_ERROR", "The relay failed."),
      );
    }
    try {
      await send(res, response);
    } catch {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    }
  };
}
