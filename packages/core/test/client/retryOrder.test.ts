// One retry order for every request a client makes (docs/architecture.md "Retries"): the
// defaults, then the client's `retry`, then the action's own default, then the call's `retry`,
// each overriding the one before it field by field. Over real HTTP against a relay stand-in on
// 127.0.0.1; the client's `sleep` records each wait instead of waiting it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { challengeJson } from "../../../test/src/scriptedFetch.js";
import { createClient, type RetryOptions, SignetError } from "../../src/index.js";

let server: Server;
let url: string;
/** What the stand-in answers next, by path; the last answer repeats. */
let script: Record<string, { status: number; json?: unknown; retryAfter?: string }[]> = {};
let sent: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? "";
    sent.push(path);
    const queue = script[path] ?? [{ status: 404, json: { code: "NOT_FOUND", message: "no" } }];
    const next = (queue.length > 1 ? queue.shift() : queue[0]) as (typeof queue)[number];
    response.writeHead(next.status, {
      "content-type": "application/json",
      ...(next.retryAfter === undefined ? {} : { "retry-after": next.retryAfter }),
    });
    response.end(next.json === undefined ? "" : JSON.stringify(next.json));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  script = {};
  sent = [];
});

const PROCESSING = { status: 200, json: { status: "PROCESSING" } };

/** A client whose waits are recorded (and not waited), drawing the top of each jitter window. */
function recordingClient(retry?: RetryOptions) {
  const waits: number[] = [];
  const client = createClient({
    relayUrl: url,
    ...(retry === undefined ? {} : { retry }),
    random: () => 0.999,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  return { client, waits };
}

/** A signed revoke whose action brings its own one-line retry default. */
function signedWithActionDefault(
  client: ReturnType<typeof createClient>,
  action: RetryOptions,
  call: { retry?: RetryOptions } = {},
) {
  return client.signed(
    {
      operation: "revokeSession",
      method: "DELETE",
      path: "/signed",
      expectedStatus: 204,
      sign: () => "STAMP",
      checkPayload: () => ({ known: true }),
      retry: action,
    },
    call,
  );
}

describe("the retry order: defaults, client, action, call", () => {
  it("a caller's backoff wins over the action's own default (signed re-sends)", async () => {
    script["/signed"] = [
      { status: 202, json: challengeJson(Date.now()) },
      PROCESSING,
      PROCESSING,
      PROCESSING,
      { status: 204 },
    ];
    const { client, waits } = recordingClient();
    await signedWithActionDefault(
      client,
      { backoff: { baseMs: 1_000 } },
      { retry: { backoff: { baseMs: 10 } } },
    );
    // Not 999, 1998, 3996: the caller's 10 ms doubling, the top of each jitter window.
    expect(waits).toEqual([9, 19, 39]);
  });

  it("without the caller's, the action's default applies over the client's", async () => {
    script["/signed"] = [
      { status: 202, json: challengeJson(Date.now()) },
      PROCESSING,
      PROCESSING,
      { status: 204 },
    ];
    const { client, waits } = recordingClient({ backoff: { baseMs: 100 } });
    await signedWithActionDefault(client, { backoff: { baseMs: 1_000 } });
    expect(waits).toEqual([999, 1_998]);
  });

  it("an action's retry refines the client's policy field by field, never dropping it", async () => {
    const failing = { status: 500, json: { code: "INTERNAL_ERROR", message: "boom" } };
    script["/signed"] = [{ status: 202, json: challengeJson(Date.now()) }, failing];
    // The client allows one retry; the action only slows the backoff.
    const { client, waits } = recordingClient({ retryCount: 1 });
    const error = await signedWithActionDefault(client, { backoff: { baseMs: 50 } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).code).toBe("INTERNAL_ERROR");
    // Leg 1, then leg 2 and the client's one retry: not the defaults' three.
    expect(sent).toEqual(["/signed", "/signed", "/signed"]);
    expect(waits).toEqual([49]);
  });

  it("the same order holds for plain requests (withRetry)", async () => {
    const busy = { status: 503, json: { code: "UNAVAILABLE", message: "later" } };
    script["/plain"] = [busy, busy, { status: 200, json: { ok: true } }];
    const { client, waits } = recordingClient({ retryCount: 2, backoff: { baseMs: 100 } });
    const read = (call: { retry?: RetryOptions }) =>
      client.request(
        { method: "GET", path: "/plain", retry: { retryCount: 0, backoff: { baseMs: 1_000 } } },
        call,
      );
    // The action's default (no retries) over the client's two: the first 503 is final.
    await expect(read({})).rejects.toMatchObject({ status: 503 });
    expect(waits).toEqual([]);
    // The caller's count and backoff win over the action's.
    script["/plain"] = [busy, busy, { status: 200, json: { ok: true } }];
    await expect(read({ retry: { retryCount: 2, backoff: { baseMs: 10 } } })).resolves.toEqual({
      ok: true,
    });
    expect(waits).toEqual([9, 19]);
  });

  it("the deprecated signedRequests.backoff is the client's backoff, under the client's retry", async () => {
    script["/signed"] = [
      { status: 202, json: challengeJson(Date.now()) },
      PROCESSING,
      { status: 204 },
    ];
    const waits: number[] = [];
    const client = createClient({
      relayUrl: url,
      signedRequests: { backoff: { baseMs: 20 } },
      random: () => 0.999,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await client.signed({
      method: "DELETE",
      path: "/signed",
      expectedStatus: 204,
      sign: () => "STAMP",
      checkPayload: () => ({ known: true }),
    });
    expect(waits).toEqual([19]);
  });
});
