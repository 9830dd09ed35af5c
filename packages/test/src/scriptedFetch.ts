// Test-only: a scripted `fetch` that records what was sent, and a fake clock.
import type { FetchFunction } from "../../core/src/transport/http.js";

export type RecordedRequest = {
  url: string;
  method: string;
  headers: Headers;
  /** Exactly what was handed to fetch. */
  body: unknown;
};

export type ScriptedReply =
  | { status: number; json?: unknown; text?: string; headers?: Record<string, string> }
  | Error
  | ((request: RecordedRequest, init: RequestInit) => Promise<Response> | Response);

export function scriptedFetch(replies: ScriptedReply[]) {
  const calls: RecordedRequest[] = [];
  const fetch: FetchFunction = async (url, init) => {
    const recorded: RecordedRequest = {
      url,
      method: init.method ?? "GET",
      headers: new Headers(init.headers),
      body: init.body,
    };
    calls.push(recorded);
    const reply = replies.shift();
    if (reply === undefined) throw new Error(`unexpected request #${calls.length}: ${url}`);
    if (reply instanceof Error) throw reply;
    if (typeof reply === "function") return reply(recorded, init);
    const text = reply.text ?? (reply.json === undefined ? "" : JSON.stringify(reply.json));
    const nullBody = reply.status === 204 || reply.status === 304;
    return new Response(nullBody ? null : text, {
      status: reply.status,
      headers: { "Content-Type": "application/json", ...reply.headers },
    });
  };
  return { fetch, calls, remaining: () => replies.length };
}

export function fakeClock(start = Date.parse("2025-10-13T12:00:00.000Z")) {
  let now = start;
  const sleeps: number[] = [];
  return {
    clock: { now: () => now },
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
    sleeps,
    get now() {
      return now;
    },
  };
}

let counter = 0;
/** A fresh, well-formed `Request:<uuid>`. */
export function requestId(): string {
  counter += 1;
  return `Request:7c0b7b4e-0000-4000-8000-${counter.toString(16).padStart(12, "0")}`;
}

/** A 202 body expiring `ttlMs` after `now`. */
export function challengeJson(
  now: number,
  overrides: Record<string, unknown> = {},
  ttlMs = 300_000,
) {
  return {
    payloadToSign: `eyJhbGciOiJub25lIn0.payload-secret-${counter + 1}.sig`,
    requestId: requestId(),
    expiresAt: new Date(now + ttlMs).toISOString(),
    ...overrides,
  };
}
