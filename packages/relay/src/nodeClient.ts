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
  /** The full URL (the base URL's origin, path and query). */
  readonly url: string;
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
}
interface HttpModuleLike {
  Agent: new (options: AgentOptions) => unknown;
  request(
    url: string,
    options: { method: string; headers: Record<string, string>; agent: unknown },
  ): ClientRequestLike;
}

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
  const https = baseUrl.startsWith("https:");
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
  });
  return {
    send(call, resolve, reject) {
      let settled = false;
      const fail = (error: unknown): void => {
        if (settled) return;
        settled = true;
        reject(error);
      };
      const request = http.request(call.url, {
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
