// Recovery inside the caller's budget (docs/architecture.md "Retries"): a lapsed challenge starts
// over once with a fresh one when nothing can have happened, a 503 with Retry-After waits like a
// 429, an ambiguous re-send is resolved by the caller's `resolveAmbiguous`, and every wait is a
// `retry` event with its reason and delay.
import { describe, expect, it, vi } from "vitest";
import {
  challengeJson,
  fakeClock,
  type ScriptedReply,
  scriptedFetch,
} from "../../../test/src/scriptedFetch.js";
import { detailOf, isSignetError, SignetError } from "../errors/errors.js";
import { createTransport } from "./http.js";
import type { RetryEvent } from "./retry.js";
import { runSignedRequest } from "./signedRequest.js";
import type { SignedRequestEvent } from "./signedRequestParameters.js";

const PROCESSING = { status: 200, json: { status: "PROCESSING" } };
const CREATED = { status: 201, json: { id: "AuthMethod:1" } };

function setup(replies: (time: ReturnType<typeof fakeClock>) => ScriptedReply[]) {
  const time = fakeClock();
  const relay = scriptedFetch(replies(time));
  const events: (SignedRequestEvent | RetryEvent)[] = [];
  const sign = vi.fn(async (payload: string) => `STAMP-${payload.length}`);
  const base = {
    transport: createTransport({ relayUrl: "https://app.example/api", fetch: relay.fetch }),
    sign,
    checkPayload: () => ({ known: true as const }),
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    method: "POST" as const,
    path: "/auth/credentials",
    body: '{"type":"PASSKEY"}',
    expectedStatus: 201,
    onEvent: (event: { type: string }) => {
      if (event.type === "signedRequest" || event.type === "retry")
        events.push(event as SignedRequestEvent | RetryEvent);
    },
  };
  return { time, relay, events, sign, base };
}

async function rejection(promise: Promise<unknown>): Promise<SignetError> {
  try {
    await promise;
  } catch (error) {
    if (isSignetError(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

const retries = (events: (SignedRequestEvent | RetryEvent)[]) =>
  events.filter((event): event is RetryEvent => event.type === "retry");

describe("a lapsed challenge", () => {
  it("starts over once by default when the service says the request id expired on its first signed send", async () => {
    let first: ReturnType<typeof challengeJson> | undefined;
    let second: ReturnType<typeof challengeJson> | undefined;
    const { base, relay, events, sign } = setup((time) => {
      first = challengeJson(time.now);
      second = challengeJson(time.now);
      return [
        { status: 202, json: first },
        {
          status: 401,
          json: { status: 401, code: "UNAUTHORIZED", message: "Request id has expired" },
        },
        { status: 202, json: second },
        CREATED,
      ];
    });
    const result = await runSignedRequest(base);
    expect(result).toMatchObject({
      status: 201,
      restarts: 1,
      attempts: 4,
      requestId: second?.requestId,
    });
    expect(sign).toHaveBeenCalledTimes(2);
    // The lapsed id is never sent again; the body is the same string on every leg.
    expect(relay.calls.map((call) => call.headers.get("Request-Id"))).toEqual([
      null,
      first?.requestId,
      null,
      second?.requestId,
    ]);
    expect(new Set(relay.calls.map((call) => call.body))).toEqual(new Set([base.body]));
    expect(retries(events)).toEqual([
      expect.objectContaining({ type: "retry", reason: "restart", attempt: 1, delayMs: 0 }),
    ]);
  });

  it("starts over when the challenge lapses locally before the signed send", async () => {
    const { base, relay, time } = setup((clock) => [
      { status: 202, json: challengeJson(clock.now, {}, 10_000) },
      { status: 202, json: challengeJson(clock.now, {}, 600_000) },
      CREATED,
    ]);
    let calls = 0;
    const result = await runSignedRequest({
      ...base,
      sign: async () => {
        if (calls++ === 0) time.advance(20_000); // a slow prompt
        return "STAMP";
      },
    });
    expect(result.restarts).toBe(1);
    expect(relay.calls).toHaveLength(3);
  });

  it("does not start over when a signed send may have been taken (PROCESSING until it lapsed)", async () => {
    const { base } = setup((time) => [
      { status: 202, json: challengeJson(time.now, {}, 1_000) },
      PROCESSING,
      PROCESSING,
      PROCESSING,
    ]);
    const error = await rejection(runSignedRequest({ ...base, random: () => 0.99 }));
    expect(error.code).toBe("CHALLENGE_EXPIRED");
  });

  it("starts over as often as the policy's retryCount allows, then gives CHALLENGE_EXPIRED", async () => {
    const expired = { status: 401, json: { status: 401, code: "REQUEST_EXPIRED", message: "x" } };
    const { base, relay, events } = setup((time) =>
      Array.from({ length: 4 }, () => [
        { status: 202, json: challengeJson(time.now) },
        expired,
      ]).flat(),
    );
    const error = await rejection(runSignedRequest(base));
    expect(error.code).toBe("CHALLENGE_EXPIRED");
    // The default policy: 3 retries, so 3 fresh starts after the first pass.
    expect(relay.calls).toHaveLength(8);
    expect(retries(events).map((event) => [event.reason, event.attempt])).toEqual([
      ["restart", 1],
      ["restart", 2],
      ["restart", 3],
    ]);
  });
});

describe("a relay that answers PROCESSING forever", () => {
  const FAR = { expiresAt: "9999-12-31T00:00:00Z" };
  const endless = () => Array.from({ length: 5_000 }, () => PROCESSING);

  it("is not honoured past 15 minutes of challenge, whatever its expiresAt says", async () => {
    const { base, time, relay } = setup((clock) => [
      { status: 202, json: challengeJson(clock.now, FAR) },
      ...endless(),
    ]);
    const startedAt = time.now;
    const error = await rejection(runSignedRequest({ ...base, random: () => 0.99 }));
    // Sent and answered PROCESSING: the lapse is not restarted, and nothing is signed twice.
    expect(error.code).toBe("CHALLENGE_EXPIRED");
    expect(time.now - startedAt).toBeLessThanOrEqual(15 * 60_000);
    expect(base.sign).toHaveBeenCalledTimes(1);
    expect(relay.remaining()).toBeGreaterThan(4_000);
  });

  it("ends at the run's ceiling (30 minutes) even across a restart", async () => {
    const { base, time } = setup((clock) => [
      { status: 202, json: challengeJson(clock.now, FAR) },
      { status: 202, json: challengeJson(clock.now, FAR) },
      ...endless(),
    ]);
    const startedAt = time.now;
    let signs = 0;
    const error = await rejection(
      runSignedRequest({
        ...base,
        random: () => 0.99,
        // The first prompt outlives the capped challenge: nothing was sent, so it starts over.
        sign: async () => {
          if (signs++ === 0) time.advance(16 * 60_000);
          return "STAMP";
        },
      }),
    );
    expect(signs).toBe(2);
    expect(error.code).toBe("PROCESSING_TIMEOUT");
    expect(time.now - startedAt).toBeLessThanOrEqual(30 * 60_000);
  });
});

describe("rate limits and 5xx", () => {
  it("waits for a 503's Retry-After, announced as a retry event", async () => {
    const { base, time, events } = setup((clock) => [
      {
        status: 503,
        json: { status: 503, code: "UPSTREAM_UNAVAILABLE", message: "x" },
        headers: { "Retry-After": "3" },
      },
      { status: 202, json: challengeJson(clock.now) },
      CREATED,
    ]);
    await runSignedRequest(base);
    expect(time.sleeps).toEqual([3_000]);
    expect(retries(events)).toEqual([
      expect.objectContaining({
        reason: "rate-limited",
        attempt: 1,
        delayMs: 3_000,
        status: 503,
        code: "UPSTREAM_UNAVAILABLE",
      }),
    ]);
    const [event] = retries(events);
    expect(event?.retryAt).toBe(Date.parse("2025-10-13T12:00:00.000Z") + 3_000);
  });

  it("uses the retry policy's count and lets shouldRetry veto a retry", async () => {
    const down = { status: 500, json: { status: 500, code: "INTERNAL_ERROR", message: "x" } };
    const { base, relay } = setup(() => [down, down, down]);
    const shouldRetry = vi.fn(({ attempt }: { attempt: number }) => attempt < 2);
    const error = await rejection(
      runSignedRequest({ ...base, retry: { retryCount: 5, shouldRetry } }),
    );
    expect(error.code).toBe("INTERNAL_ERROR");
    expect(relay.calls).toHaveLength(2);
    expect(shouldRetry).toHaveBeenCalledTimes(2);
  });
});

describe("an ambiguous re-send", () => {
  const spent = {
    status: 401,
    json: { status: 401, code: "UNAUTHORIZED", message: "Unknown request id" },
  };
  const lost = new TypeError("socket hang up");

  it("is resolved by resolveAmbiguous: the outcome it finds is the result", async () => {
    const { base, events } = setup((time) => [
      { status: 202, json: challengeJson(time.now) },
      lost,
      spent,
    ]);
    const resolveAmbiguous = vi.fn(async (error: SignetError) => {
      expect(detailOf(error, "ambiguousResend")).toBe(true);
      return { status: 201, body: { id: "AuthMethod:found" } };
    });
    const result = await runSignedRequest({ ...base, resolveAmbiguous });
    expect(result).toMatchObject({ status: 201, body: { id: "AuthMethod:found" }, resolved: true });
    expect(events.at(-1)).toMatchObject({ type: "signedRequest", stage: "done" });
  });

  it("starts over with a fresh challenge when resolveAmbiguous says so, never reusing the spent id", async () => {
    let first: ReturnType<typeof challengeJson> | undefined;
    const { base, relay } = setup((time) => {
      first = challengeJson(time.now);
      return [
        { status: 202, json: first },
        lost,
        spent,
        { status: 202, json: challengeJson(time.now) },
        CREATED,
      ];
    });
    const result = await runSignedRequest({ ...base, resolveAmbiguous: async () => "restart" });
    expect(result).toMatchObject({ status: 201, restarts: 1 });
    const ids = relay.calls.map((call) => call.headers.get("Request-Id"));
    expect(ids.filter((id) => id === first?.requestId)).toHaveLength(2);
    expect(ids[4]).not.toBe(first?.requestId);
  });

  it("is OUTCOME_UNKNOWN when resolveAmbiguous finds nothing, and is not asked without ambiguity", async () => {
    const { base } = setup((time) => [{ status: 202, json: challengeJson(time.now) }, lost, spent]);
    const error = await rejection(
      runSignedRequest({ ...base, resolveAmbiguous: async () => undefined }),
    );
    expect([error.code, error.details]).toEqual([
      "OUTCOME_UNKNOWN",
      { step: "leg 2", requestId: expect.any(String), code: "UNAUTHORIZED", status: 401 },
    ]);
    expect(detailOf(error.cause as SignetError, "ambiguousResend")).toBe(true);

    const plain = setup((time) => [{ status: 202, json: challengeJson(time.now) }, spent]);
    const resolveAmbiguous = vi.fn(async () => "restart" as const);
    const direct = await rejection(runSignedRequest({ ...plain.base, resolveAmbiguous }));
    expect(direct.code).toBe("UNAUTHORIZED");
    expect(resolveAmbiguous).not.toHaveBeenCalled();
  });

  it("is not asked after a definite refusal: a wrong code or a 400 after a 5xx is thrown as is", async () => {
    const down = { status: 500, json: { status: 500, code: "INTERNAL_ERROR", message: "x" } };
    const refusals = [
      {
        status: 401,
        json: {
          code: "UNAUTHORIZED",
          message: "Invalid OTP code",
          details: { reason: "OTP_CODE_INVALID" },
        },
      },
      { status: 400, json: { code: "INVALID_INPUT", message: "bad" } },
      { status: 401, json: { code: "WALLET_SIGNATURE_INVALID", message: "bad stamp" } },
    ];
    for (const refusal of refusals) {
      const { base } = setup((time) => [
        { status: 202, json: challengeJson(time.now) },
        down,
        refusal,
      ]);
      const resolveAmbiguous = vi.fn(async () => ({ status: 201, body: { id: "AuthMethod:x" } }));
      const error = await rejection(runSignedRequest({ ...base, resolveAmbiguous }));
      expect(error.code).toBe(refusal.json.code);
      expect(resolveAmbiguous).not.toHaveBeenCalled();
    }
  });

  it("is asked after a 401 for a used request id, and after retries ran out", async () => {
    const used = {
      status: 401,
      json: {
        code: "UNAUTHORIZED",
        message: "This Request-Id has already been used.",
        details: { reason: "REQUEST_ID_ALREADY_USED" },
      },
    };
    const down = { status: 502, json: { code: "UPSTREAM_UNAVAILABLE", message: "x" } };
    for (const tail of [[used], [down, down, down]]) {
      const { base } = setup((time) => [
        { status: 202, json: challengeJson(time.now) },
        down,
        ...tail,
      ]);
      const resolveAmbiguous = vi.fn(async () => ({ status: 201, body: { id: "AuthMethod:x" } }));
      const result = await runSignedRequest({ ...base, resolveAmbiguous });
      expect(result.resolved).toBe(true);
      expect(resolveAmbiguous).toHaveBeenCalledTimes(1);
    }
  });

  it("is OUTCOME_UNKNOWN at the recovery step, with a failed event, when resolveAmbiguous throws", async () => {
    const { base, events } = setup((time) => [
      { status: 202, json: challengeJson(time.now) },
      lost,
      spent,
    ]);
    const error = await rejection(
      runSignedRequest({
        ...base,
        resolveAmbiguous: async () => {
          throw new TypeError("the list read failed");
        },
      }),
    );
    expect([error.code, detailOf(error, "step"), detailOf(error, "code")]).toEqual([
      "OUTCOME_UNKNOWN",
      "recovery",
      "UNAUTHORIZED",
    ]);
    expect(events.at(-1)).toMatchObject({ stage: "failed", code: "OUTCOME_UNKNOWN" });
  });

  it("asks again after the question's own transient faults, by the policy, with retry events", async () => {
    const { base, events, time } = setup((clock) => [
      { status: 202, json: challengeJson(clock.now) },
      lost,
      spent,
    ]);
    let asked = 0;
    const result = await runSignedRequest({
      ...base,
      resolveAmbiguous: async () => {
        asked += 1;
        if (asked < 3) throw new SignetError("NETWORK", "lost too", { retryable: true });
        return { status: 201, body: { id: "AuthMethod:found" } };
      },
    });
    expect(result).toMatchObject({ resolved: true, body: { id: "AuthMethod:found" } });
    expect(asked).toBe(3);
    expect(time.sleeps).toHaveLength(3);
    expect(retries(events).map((event) => [event.reason, event.attempt, event.code])).toEqual([
      ["transient", 1, "NETWORK"],
      ["transient", 1, "NETWORK"],
      ["transient", 2, "NETWORK"],
    ]);
  });

  it("stops asking when the policy's retries are spent: OUTCOME_UNKNOWN names the look-up's code", async () => {
    const { base } = setup((time) => [{ status: 202, json: challengeJson(time.now) }, lost, spent]);
    const resolveAmbiguous = vi.fn(async () => {
      throw new SignetError("UPSTREAM_TIMEOUT", "the relay's look-up timed out", {
        status: 504,
        retryable: true,
      });
    });
    const error = await rejection(
      runSignedRequest({ ...base, retry: { retryCount: 2 }, resolveAmbiguous }),
    );
    expect(resolveAmbiguous).toHaveBeenCalledTimes(3);
    expect(error.details).toMatchObject({
      step: "recovery",
      code: "UNAUTHORIZED",
      recoveryCode: "UPSTREAM_TIMEOUT",
    });
  });

  it("keeps a lost answer's own code when no answer ever came: NETWORK says so already", async () => {
    const { base } = setup((time) => [
      { status: 202, json: challengeJson(time.now) },
      lost,
      lost,
      lost,
      lost,
    ]);
    const error = await rejection(
      runSignedRequest({ ...base, resolveAmbiguous: async () => undefined }),
    );
    expect([error.code, detailOf(error, "ambiguousResend")]).toEqual(["NETWORK", undefined]);
  });

  it("reads the relay's 403 for a resource it no longer lists as the earlier send's doing", async () => {
    const forbidden = {
      status: 403,
      json: {
        code: "RELAY_FORBIDDEN",
        message: "not yours",
        details: { field: "path", kind: "Session" },
      },
    };
    const { base } = setup((time) => [
      { status: 202, json: challengeJson(time.now) },
      lost,
      forbidden,
    ]);
    const resolveAmbiguous = vi.fn(async (error: SignetError) => {
      expect(error.code).toBe("RELAY_FORBIDDEN");
      return { status: 201, body: { id: "Session:adopted" } };
    });
    const result = await runSignedRequest({ ...base, resolveAmbiguous });
    expect(result).toMatchObject({ resolved: true, body: { id: "Session:adopted" } });
    // Without an earlier send that may have been taken, the same 403 is a refusal.
    const plain = setup((time) => [{ status: 202, json: challengeJson(time.now) }, forbidden]);
    const notAsked = vi.fn(async () => "restart" as const);
    const refused = await rejection(
      runSignedRequest({ ...plain.base, resolveAmbiguous: notAsked }),
    );
    expect(refused.code).toBe("RELAY_FORBIDDEN");
    expect(notAsked).not.toHaveBeenCalled();
  });

  it("stays ambiguous across a fresh start: an earlier send delivered late is still resolved", async () => {
    // The first send is lost; the look-up finds nothing yet and says restart; the late first
    // send then ends what the fresh start needs, and the fresh challenge's leg 1 is refused.
    const gone = {
      status: 401,
      json: {
        code: "UNAUTHORIZED",
        message: "The session is not active.",
        details: { reason: "SESSION_NOT_ACTIVE" },
      },
    };
    const { base } = setup((time) => [
      { status: 202, json: challengeJson(time.now) },
      lost,
      spent,
      gone,
    ]);
    const answers: ("restart" | { status: number; body: unknown })[] = [
      "restart",
      { status: 201, body: { id: "Session:late" } },
    ];
    const resolveAmbiguous = vi.fn(async () => answers.shift()!);
    const result = await runSignedRequest({ ...base, resolveAmbiguous });
    expect(resolveAmbiguous).toHaveBeenCalledTimes(2);
    expect(result).toMatchObject({ resolved: true, restarts: 1, body: { id: "Session:late" } });
  });
});

describe("a 503 whose body names a wait but sends no Retry-After", () => {
  it("waits by the backoff as for any 5xx: the body never chooses the wait", async () => {
    const { base, time, events } = setup((clock) => [
      {
        status: 503,
        json: { code: "UNAVAILABLE", message: "m", details: { retryAfterMs: 25_000 } },
      },
      { status: 202, json: challengeJson(clock.now) },
      CREATED,
    ]);
    await runSignedRequest(base);
    expect(time.sleeps).toEqual([250]);
    expect(retries(events)).toEqual([
      expect.objectContaining({ reason: "transient", delayMs: 250 }),
    ]);
  });
});

describe("a 503 with Retry-After on a signed send", () => {
  it("counts as possibly taken: a later expiry is CHALLENGE_EXPIRED, never a second signature", async () => {
    const { base, relay } = setup((time) => [
      { status: 202, json: challengeJson(time.now) },
      {
        status: 503,
        json: { code: "UNAVAILABLE", message: "busy" },
        headers: { "Retry-After": "1" },
      },
      {
        status: 401,
        json: {
          code: "UNAUTHORIZED",
          message: "The signed-retry challenge has expired.",
          details: { reason: "REQUEST_ID_EXPIRED" },
        },
      },
      { status: 202, json: challengeJson(time.now) },
      CREATED,
    ]);
    const error = await rejection(runSignedRequest(base));
    expect(error.code).toBe("CHALLENGE_EXPIRED");
    expect(base.sign).toHaveBeenCalledTimes(1);
    expect(relay.calls).toHaveLength(3);
  });

  it("a 429 proves the send untaken: the same expiry then starts over once", async () => {
    const { base } = setup((time) => [
      { status: 202, json: challengeJson(time.now) },
      {
        status: 429,
        json: { code: "RATE_LIMITED", message: "slow" },
        headers: { "Retry-After": "1" },
      },
      {
        status: 401,
        json: {
          code: "UNAUTHORIZED",
          message: "The signed-retry challenge has expired.",
          details: { reason: "REQUEST_ID_EXPIRED" },
        },
      },
      { status: 202, json: challengeJson(time.now) },
      CREATED,
    ]);
    const result = await runSignedRequest(base);
    expect(result).toMatchObject({ status: 201, restarts: 1 });
  });
});
