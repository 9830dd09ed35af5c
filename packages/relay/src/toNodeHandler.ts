// Mounting a fetch handler in Node's http server (or Express) without touching the body bytes.
import { rememberRemoteAddress } from "./endUserIp.js";
import { RelayRefusal, relayErrorResponse } from "./errors.js";
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
  end(chunk?: Uint8Array): unknown;
  headersSent?: boolean;
}

/** A `node:http` request listener (or Express middleware). */
export type NodeHandler = (request: NodeRequestLike, response: NodeResponseLike) => Promise<void>;

const HOST = /^[A-Za-z0-9.-]+(?::[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?$/;

/** Builds a web `Request` from a Node request: raw headers appended one by one, the body streamed as bytes. */
function toRequest(req: NodeRequestLike, target: string): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    // Repeated headers are appended, so they reach the relay as one combined value it refuses.
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
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
