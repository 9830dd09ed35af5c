// A fault-injecting HTTP proxy on 127.0.0.1, for one hop of the chain (device → relay, or relay →
// service): real sockets, so a dropped connection, a late answer or a request delivered after its
// sender gave up reach the client exactly as they would in production. Each request is attributed
// to a flow (a header the proxy reads and strips) and to a step (the flow's n-th request), and
// `decide` picks its fault, if any.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What can go wrong on a hop, with a name for counting it. Durations are real milliseconds. */
export type ProxyFault = {
  label?: string;
} /** The connection is cut before anything is forwarded. */ & (
  | { kind: "drop-request" }
  /** Forwarded and answered, then the connection is cut: the answer is lost. */
  | { kind: "drop-response" }
  /** Held, then forwarded, whether or not the sender is still there (a late delivery). */
  | { kind: "delay-request"; ms: number }
  /** Forwarded at once; its answer held. */
  | { kind: "delay-response"; ms: number }
  /** Answered `status` by the hop itself; nothing forwarded. */
  | { kind: "error-before"; status: number }
  /** Forwarded, and the answer replaced by `status`. */
  | { kind: "error-after"; status: number }
  /** 429 with `Retry-After` (seconds); nothing forwarded. */
  | { kind: "rate-limit"; retryAfterSeconds: number }
  /** 200 `{"status":"PROCESSING"}`; nothing forwarded (signed legs only). */
  | { kind: "processing" }
  /**
   * A signed leg held past its challenge's `expiresAt` (as the 202 that passed through said),
   * then forwarded, with every later send of the same request id: the challenge lapses with
   * all of them in flight.
   */
  | { kind: "hold-past-expiry" }
  /** Forwarded; `during` runs `afterMs` later while the request is in flight (a restart). */
  | { kind: "interrupt"; afterMs: number; during: () => Promise<void> }
);

/** One request as the proxy sees it. */
export type ProxiedRequest = {
  method: string;
  /** Path and query as received. */
  url: string;
  /** The flow it belongs to (the value of `flowHeader`), if any. */
  flow: string | undefined;
  /** This flow's request number on this hop, from 1. */
  index: number;
  /** Tags the previous hop passed on (`tagHeaders`), by header name. */
  tags: Record<string, string>;
  /** The `Request-Id` header of a signed leg. */
  requestId: string | undefined;
  signed: boolean;
};

/** What became of one request, for the soak's counts. */
export type ProxyRecord = ProxiedRequest & {
  fault: ProxyFault | undefined;
  /** The status answered to the sender; `undefined` when it got no answer. */
  status: number | undefined;
  /** Whether the next hop could not be reached (a relay restarting). */
  unreachable: boolean;
};

export type FaultProxy = {
  url: string;
  /** Requests of `flow` still being handled (held, forwarded, or answering). */
  pending(flow: string): number;
  /** The number of `flow`'s last request so far (0 before the first). */
  issued(flow: string): number;
  /** Resolves once `flow` has no request in the proxy. */
  drained(flow: string): Promise<void>;
  close(): Promise<void>;
};

export type FaultProxyOptions = {
  /** Origin (and optional base path) requests are forwarded to, or one per request. */
  target: string | ((request: ProxiedRequest) => string);
  /** Sends a request on; default the global `fetch`. */
  forward?: typeof fetch;
  /** The header naming a request's flow, read (not stripped: the next hop may need it). */
  flowHeader: string;
  /** Headers the proxy reads as tags and strips before forwarding (set by the previous hop). */
  tagHeaders?: readonly string[];
  /** Headers the proxy adds before forwarding, from the request as it saw it. */
  addHeaders?: (request: ProxiedRequest) => Record<string, string>;
  /** The fault for a request, or none. */
  decide: (request: ProxiedRequest) => ProxyFault | undefined;
  onRecord?: (record: ProxyRecord) => void;
};

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "host",
  "upgrade",
  "proxy-connection",
  "te",
  "trailer",
]);

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/**
 * Starts a proxy that forwards to `target`, injecting the faults `decide` picks.
 *
 * @example
 * ```ts
 * const proxy = await startFaultProxy({ target: relayOrigin, flowHeader: USER_HEADER, decide: () => undefined });
 * ```
 */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const forward = options.forward ?? fetch;
  const targetOf = (request: ProxiedRequest) =>
    (typeof options.target === "string" ? options.target : options.target(request)).replace(
      /\/+$/,
      "",
    );
  const tagHeaders = new Set(options.tagHeaders ?? []);
  const counters = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const waiters = new Map<string, (() => void)[]>();
  /** Challenges seen in 202 answers: request id → `expiresAt` (epoch ms). */
  const expiries = new Map<string, number>();
  /** Request ids whose sends are held, until when. */
  const held = new Map<string, number>();
  const sleepers = new Set<() => void>();
  let closed = false;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (closed || ms <= 0) return resolve();
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });
  const enter = (flow: string) => inFlight.set(flow, (inFlight.get(flow) ?? 0) + 1);
  const leave = (flow: string) => {
    const left = (inFlight.get(flow) ?? 1) - 1;
    if (left > 0) return void inFlight.set(flow, left);
    inFlight.delete(flow);
    for (const resolve of waiters.get(flow) ?? []) resolve();
    waiters.delete(flow);
  };

  /** Which request this is, and its fault. */
  function classify(request: IncomingMessage): ProxyRecord {
    const header = (name: string) => {
      const value = request.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    };
    const flow = header(options.flowHeader);
    const tags: Record<string, string> = {};
    for (const name of tagHeaders) {
      const value = header(name);
      if (value !== undefined) tags[name] = value;
    }
    const index = flow === undefined ? 0 : (counters.get(flow) ?? 0) + 1;
    if (flow !== undefined) counters.set(flow, index);
    const requestId = header("request-id");
    const proxied: ProxiedRequest = {
      method: request.method ?? "GET",
      url: request.url ?? "/",
      flow,
      index,
      tags,
      requestId,
      signed: header("grid-wallet-signature") !== undefined,
    };
    const heldUntil = requestId === undefined ? undefined : held.get(requestId);
    let fault =
      heldUntil !== undefined && heldUntil > Date.now()
        ? ({
            kind: "hold-past-expiry",
            label: "held with an earlier send of its request id",
          } as const)
        : options.decide(proxied);
    if (fault?.kind === "hold-past-expiry" && heldUntil === undefined) {
      const expiresAt = requestId === undefined ? undefined : expiries.get(requestId);
      // Only a signed leg whose challenge passed through here can be held past its expiry.
      if (requestId === undefined || expiresAt === undefined) fault = undefined;
      else held.set(requestId, expiresAt + 250);
    }
    return { ...proxied, fault, status: undefined, unreachable: false };
  }

  async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    record: ProxyRecord,
  ): Promise<void> {
    const body = await readBody(request);
    const { fault } = record;
    const cut = () => {
      request.socket.destroy();
    };
    const answer = (status: number, headers: Record<string, string>, text: Buffer | string) => {
      if (response.destroyed || request.socket.destroyed) return;
      record.status = status;
      response.writeHead(status, headers);
      response.end(text);
    };
    const injected = (status: number, code: string, extra: Record<string, string> = {}) =>
      answer(
        status,
        { "content-type": "application/json", ...extra },
        JSON.stringify({ status, code, message: "Injected by the fault proxy." }),
      );
    switch (fault?.kind) {
      case "drop-request":
        return cut();
      case "error-before":
        return injected(fault.status, fault.status === 503 ? "SERVICE_UNAVAILABLE" : "BAD_GATEWAY");
      case "rate-limit":
        return injected(429, "RATE_LIMITED", { "retry-after": String(fault.retryAfterSeconds) });
      case "processing":
        return answer(
          200,
          { "content-type": "application/json" },
          JSON.stringify({ status: "PROCESSING", message: "Injected: still settling." }),
        );
      case "delay-request":
        await wait(fault.ms);
        break;
      case "hold-past-expiry":
        await wait((held.get(record.requestId ?? "") ?? 0) - Date.now());
        break;
      case "interrupt":
        void wait(fault.afterMs).then(() => fault.during().catch(() => undefined));
        break;
      default:
    }
    if (closed) return cut();
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || tagHeaders.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    for (const [name, value] of Object.entries(options.addHeaders?.(record) ?? {}))
      headers.set(name, value);
    // A connection per request: a pooled socket the next hop closed while idle would fail the
    // request as a fault nobody injected (under load the race is likely).
    headers.set("connection", "close");
    let upstream: Response;
    let text: Buffer;
    try {
      upstream = await forward(`${targetOf(record)}${record.url}`, {
        method: record.method,
        headers,
        redirect: "manual",
        ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      });
      text = Buffer.from(await upstream.arrayBuffer());
    } catch {
      // The next hop went away (a restart): the sender loses its connection too.
      record.unreachable = true;
      return cut();
    }
    if (upstream.status === 202) rememberChallenge(text);
    if (fault?.kind === "drop-response") return cut();
    if (fault?.kind === "error-after") return injected(fault.status, "INTERNAL_ERROR");
    if (fault?.kind === "delay-response") await wait(fault.ms);
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== "content-encoding") out[name] = value;
    });
    answer(upstream.status, out, text);
  }

  function rememberChallenge(text: Buffer) {
    try {
      const { requestId, expiresAt } = JSON.parse(text.toString("utf8")) as Record<string, unknown>;
      const at = typeof expiresAt === "string" ? Date.parse(expiresAt) : Number.NaN;
      if (typeof requestId === "string" && Number.isFinite(at)) expiries.set(requestId, at);
    } catch {
      // Not a challenge.
    }
  }

  const server: Server = createServer((request, response) => {
    const record = classify(request);
    const { flow } = record;
    if (flow !== undefined) enter(flow);
    handle(request, response, record)
      .catch(() => request.socket.destroy())
      .finally(() => {
        options.onRecord?.(record);
        if (flow !== undefined) leave(flow);
      });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pending: (flow) => inFlight.get(flow) ?? 0,
    issued: (flow) => counters.get(flow) ?? 0,
    drained: (flow) =>
      (inFlight.get(flow) ?? 0) === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const list = waiters.get(flow) ?? [];
            list.push(resolve);
            waiters.set(flow, list);
          }),
    async close() {
      closed = true;
      for (const wake of [...sleepers]) wake();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
