// Calls to the service with Node's own `http`/`https` client over a keep-alive agent of the
// relay's, in place of `fetch`, where that is Node's own and would send through undici's default
// dispatcher anyway: a call costs about a third less CPU there (no WHATWG request, response,
// headers and stream objects, no promise per chunk). Reached through `process.getBuiltinModule`
// only, never imported: the package stays bundler-safe and web-standard everywhere else.

/** The answer's headers as the relay reads them: one name at a time, as `Headers.get` would. */
export interface HeaderReader {
  /** The header's values combined with `", "` (as `Headers.get`), any case of `name`; else `null`. */
  get(name: string): string | null;
}

/** One call, as the relay sends it. */
export interface NodeCall {
  readonly method: string;
  /** The path and query after the base URL's origin (its own path included). */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array | undefined;
}

/** A call under way: `end` stops it (its connection destroyed, never reused). */
export interface NodeCallHandle {
  end(reason: Error): void;
}

/** The answer, buffered whole. */
export interface NodeAnswer {
  readonly status: number;
  readonly headers: HeaderReader;
  readonly body: Uint8Array<ArrayBuffer>;
}

/** The relay's client to one service: `send` starts a call, settled through the callbacks once. */
export interface NodeClient {
  send(
    call: NodeCall,
    resolve: (answer: NodeAnswer) => void,
    reject: (error: unknown) => void,
  ): NodeCallHandle;
}

// The parts of `node:http` used here, typed locally (the package has no Node types).
interface NodeSocketLike {
  destroy(error?: Error): void;
}
interface IncomingLike {
  statusCode?: number;
  rawHeaders: string[];
  complete: boolean;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}
interface ClientRequestLike {
  on(event: "response", listener: (response: IncomingLike) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  end(body?: Uint8Array): unknown;
  destroy(error?: Error): unknown;
  socket?: NodeSocketLike | null;
}
interface AgentOptions {
  keepAlive: boolean;
  maxSockets: number;
  maxFreeSockets: number;
  timeout: number;
}
interface RequestOptions {
  protocol: string;
  hostname: string;
  port: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  agent: unknown;
}
interface HttpModuleLike {
  Agent: new (options: AgentOptions) => unknown;
  request(options: RequestOptions): ClientRequestLike;
}

/** How long an idle connection is kept (less when the service names less), as undici keeps one. */
const IDLE_MS = 4_000;

type GetBuiltinModule = (id: string) => unknown;

function builtinModules(): GetBuiltinModule | undefined {
  const get = (globalThis as { process?: { getBuiltinModule?: unknown } }).process
    ?.getBuiltinModule;
  return typeof get === "function" ? (get as GetBuiltinModule) : undefined;
}

/**
 * Reads one header from Node's raw list (names as sent, values in order): repeated values are
 * combined with `", "`, as `Headers.get` combines them (Node's own `headers` object keeps only
 * the first of some, `Content-Type` and `Retry-After` among them).
 */
class RawHeaders implements HeaderReader {
  constructor(private readonly raw: string[]) {}

  get(name: string): string | null {
    const lower = name.toLowerCase();
    let value: string | null = null;
    for (let i = 0; i < this.raw.length; i += 2) {
      const key = this.raw[i]!;
      if (key.length !== lower.length || key.toLowerCase() !== lower) continue;
      value = value === null ? this.raw[i + 1]! : `${value}, ${this.raw[i + 1]!}`;
    }
    return value;
  }
}

/** The chunks as one `Uint8Array` of its own (a chunk may be a view into a larger shared buffer). */
function joined(chunks: Uint8Array[], length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * The client for `baseUrl`'s protocol over a keep-alive agent of `maxConnections` sockets (the
 * bound is the relay's too: its slots hand out no more calls than that), or `undefined` where
 * Node's modules cannot be reached (not Node, or Node before 20.16).
 */
export function createNodeClient(baseUrl: string, maxConnections: number): NodeClient | undefined {
  const get = builtinModules();
  if (get === undefined) return undefined;
  const target = new URL(baseUrl);
  const https = target.protocol === "https:";
  // As Node reads a URL into request options: an IPv6 host without its brackets.
  const hostname = target.hostname.startsWith("[") ? target.hostname.slice(1, -1) : target.hostname;
  const prefix = target.pathname === "/" ? "" : target.pathname;
  let http: HttpModuleLike;
  try {
    http = get(https ? "node:https" : "node:http") as HttpModuleLike;
  } catch {
    return undefined;
  }
  if (typeof http?.request !== "function" || typeof http.Agent !== "function") return undefined;
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: maxConnections,
    maxFreeSockets: maxConnections,
    // An idle socket's life: Node's agent takes the service's `Keep-Alive: timeout` hint (less
    // a second) only below it, and keeps an idle socket for ever without one.
    timeout: IDLE_MS,
  });
  return {
    send(call, resolve, reject) {
      let settled = false;
      const fail = (error: unknown): void => {
        if (settled) return;
        settled = true;
        reject(error);
      };
      // Options, not a URL: the base URL was read once, not once per call.
      const request = http.request({
        protocol: target.protocol,
        hostname,
        port: target.port,
        path: prefix + call.path,
        method: call.method,
        headers: call.headers,
        agent,
      });
      request.on("error", fail);
      request.on("response", (response) => {
        const chunks: Uint8Array[] = [];
        let length = 0;
        response.on("data", (chunk) => {
          chunks.push(chunk);
          length += chunk.byteLength;
        });
        response.on("error", fail);
        response.on("end", () => {
          if (settled) return;
          settled = true;
          resolve({
            status: response.statusCode ?? 0,
            headers: new RawHeaders(response.rawHeaders),
            body: joined(chunks, length),
          });
        });
        // Closed before its end (the connection lost mid-body): a connection error.
        response.on("close", () => {
          if (!response.complete) fail(new Error("The connection closed mid-answer."));
        });
      });
      request.end(call.body);
      return {
        end(reason) {
          fail(reason);
          // The socket with it: a connection whose answer is late is never handed to another call.
          request.destroy(reason);
        },
      };
    },
  };
}
