import { describe, expect, it, vi } from "vitest";
import {
  challengeJson,
  fakeClock,
  type ScriptedReply,
  scriptedFetch,
} from "../../../test/src/scriptedFetch.js";
import { detailOf, isSignetError, SignetError } from "../errors/errors.js";
import { parseSignedRequestChallenge } from "./challenge.js";
import { createTransport, type RequestEvent } from "./http.js";
import { generateIdempotencyKey } from "./idempotencyKey.js";
import type { PayloadEvent } from "./payloadCheck.js";
import { WALLET_SIGNATURE_HEADER } from "./protocol.js";
import { isProcessingBody } from "./responseShape.js";
import type { RetryEvent } from "./retry.js";
import {
  type RunSignedRequestParameters,
  runSignedRequest,
  type SignContext,
  type SignedRequestEnd,
  type SignedRequestEvent,
} from "./signedRequest.js";

const PROCESSING = {
  status: 200,
  json: { status: "PROCESSING", message: "wallet provider is settling" },
};
const SESSION_ID = "Session:3f0c1d2e-0000-4000-8000-000000000001";

async function rejection(promise: Promise<unknown>): Promise<SignetError> {
  try {
    await promise;
  } catch (error) {
    if (isSignetError(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

/** Everything a test needs: a scripted relay, a fake clock, a recording signer and event log. */
function setup(replies: (time: ReturnType<typeof fakeClock>) => ScriptedReply[]) {
  const time = fakeClock();
  const relay = scriptedFetch(replies(time));
  const events: Array<SignedRequestEvent | RequestEvent> = [];
  const transport = createTransport({
    relayUrl: "https://app.example/api/grid",
    fetch: relay.fetch,
    clock: time.clock,
    onEvent: (event) => events.push(event),
  });
  const stamps: string[] = [];
  const sign = vi.fn(async (payloadToSign: string, context: SignContext) => {
    const stamp = `STAMP-SECRET-${context.leg}-${payloadToSign.length}-${stamps.length}`;
    stamps.push(stamp);
    return stamp;
  });
  const base = {
    transport,
    sign,
    // The engine's own behaviour is tested here; the checks have their table (payloadCheck.test.ts).
    checkPayload: () => ({ known: true as const }),
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    // Only the engine's stages: the payload events have their own tests (payloadCheck.test.ts).
    onEvent: (event: SignedRequestEvent | PayloadEvent | RetryEvent) => {
      if (event.type === "signedRequest") events.push(event);
    },
  };
  return { time, relay, events, stamps, sign, base };
}

/** Replies whose bodies are computed when the test starts (challenges need the clock). */
function signedEvents(events: Array<SignedRequestEvent | RequestEvent>) {
  return events.filter((event): event is SignedRequestEvent => event.type === "signedRequest");
}

describe("runSignedRequest, challenge mode", () => {
  it("sends leg 1 bare, then the same body with both headers, and returns the 201 body", async () => {
    const body =
      '{"clientPublicKey":"02aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899"}';
    let challenge: ReturnType<typeof challengeJson> | undefined;
    const { relay, base, sign, stamps } = setup((time) => {
      challenge = challengeJson(time.now);
      return [
        { status: 202, json: challenge },
        { status: 201, json: { id: "Session:new", expiresAt: "2025-10-13T12:15:00Z" } },
      ];
    });
    const result = await runSignedRequest<{ id: string }>({
      ...base,
      method: "POST",
      path: `/auth/sessions/${SESSION_ID}/refresh`,
      body,
      expectedStatus: 201,
    });
    expect(result).toEqual({
      status: 201,
      body: { id: "Session:new", expiresAt: "2025-10-13T12:15:00Z" },
      requestId: challenge?.requestId,
      legs: 2,
      attempts: 2,
      restarts: 0,
    });
    const [leg1, leg2] = relay.calls;
    expect(leg1?.url).toBe(`https://app.example/api/grid/auth/sessions/${SESSION_ID}/refresh`);
    expect(leg1?.headers.get(WALLET_SIGNATURE_HEADER)).toBeNull();
    expect(leg1?.headers.get("Request-Id")).toBeNull();
    expect(leg2?.headers.get("Grid-Wallet-Signature")).toBe(stamps[0]);
    expect(leg2?.headers.get("Request-Id")).toBe(challenge?.requestId);
    expect(leg2?.headers.get("Idempotency-Key")).toBeNull();
    expect(relay.calls.map((call) => call.body)).toEqual([body, body]);
    expect(
      relay.calls.every((call) => call.headers.get("content-type") === "application/json"),
    ).toBe(true);
    expect(sign).toHaveBeenCalledTimes(1);
    expect(sign.mock.calls[0]?.[0]).toBe(challenge?.payloadToSign);
    expect(sign.mock.calls[0]?.[1]).toMatchObject({ leg: 2, requestId: challenge?.requestId });
  });

  it("stamps payloadToSign byte for byte and passes the challenge's type to the signer", async () => {
    // Not alphabetical, with spacing and non-ASCII: any re-serialisation would change it.
    const payloadToSign = '{"z":1, "a":"é\\u00e9",  "m":[2,1]}\n';
    const { base, sign } = setup((time) => [
      { status: 202, json: challengeJson(time.now, { payloadToSign, type: "EMAIL_OTP" }) },
      { status: 200, json: { id: "Session:1" } },
    ]);
    await runSignedRequest({
      ...base,
      method: "POST",
      path: "/auth/credentials/AuthMethod:1/verify",
      body: '{"type":"EMAIL_OTP","encryptedOtpBundle":"x"}',
      expectedStatus: 200,
    });
    expect(sign.mock.calls[0]?.[0]).toBe(payloadToSign);
    expect(sign.mock.calls[0]?.[1]).toMatchObject({ leg: 2, type: "EMAIL_OTP" });
  });

  it("sends a bodiless DELETE without a body on every leg and resolves a 204 with undefined", async () => {
    const { relay, base } = setup((time) => [
      { status: 202, json: challengeJson(time.now) },
      { status: 204 },
    ]);
    const result = await runSignedRequest({
      ...base,
      method: "DELETE",
      path: `/auth/sessions/${SESSION_ID}`,
      expectedStatus: 204,
    });
    expect(result.status).toBe(204);
    expect(result.body).toBeUndefined();
    expect(relay.calls.map((call) => [call.method, call.body])).toEqual([
      ["DELETE", undefined],
      ["DELETE", undefined],
    ]);
    expect(relay.calls[0]?.headers.get("content-type")).toBe("application/json");
  });

  it("re-sends the identical request on PROCESSING with the backoff schedule, then succeeds", async () => {
    const body = '{"clientPublicKey":"04' + "ab".repeat(64) + '"}';
    let challenge: ReturnType<typeof challengeJson> | undefined;
    const { relay, base, sign, time } = setup((clock) => {
      challenge = challengeJson(clock.now);
      return [
        { status: 202, json: challenge },
        PROCESSING,
        PROCESSING,
        PROCESSING,
        { status: 200, json: { id: "InternalAccount:1", encryptedWalletCredentials: "bundle" } },
      ];
    });
    const result = await runSignedRequest({
      ...base,
      method: "POST",
      path: "/internal-accounts/InternalAccount:1/export",
      body,
      expectedStatus: 200,
    });
    expect(result.body).toEqual({ id: "InternalAccount:1", encryptedWalletCredentials: "bundle" });
    expect(result.attempts).toBe(5);
    expect(result.legs).toBe(2);
    // random 0.5: half of the ceilings 500, 1000, 2000.
    expect(time.sleeps).toEqual([250, 500, 1000]);
    expect(sign).toHaveBeenCalledTimes(1);
    const signed = relay.calls.slice(1);
    expect(new Set(signed.map((call) => call.body))).toEqual(new Set([body]));
    expect(new Set(signed.map((call) => call.headers.get("Grid-Wallet-Signature"))).size).toBe(1);
    expect(new Set(signed.map((call) => call.headers.get("Request-Id")))).toEqual(
      new Set([challenge?.requestId]),
    );
  });

  it("treats a 200 on a 201/204 endpoint as processing unless its body is the resource", async () => {
    const { base, time } = setup((clock) => [
      { status: 202, json: challengeJson(clock.now) },
      { status: 200, text: "" },
      { status: 200, text: "not json" },
      PROCESSING,
      // Not what parseBody accepts: still processing, as the service documents.
      { status: 200, json: { id: "AuthMethod:1" } },
      { status: 201, json: { id: "AuthMethod:1", type: "EMAIL_OTP" } },
    ]);
    const result = await runSignedRequest({
      ...base,
      method: "POST",
      path: "/auth/credentials",
      body: '{"type":"EMAIL_OTP","accountId":"InternalAccount:1"}',
      expectedStatus: 201,
      parseBody: (body) => {
        if (typeof (body as { type?: unknown }).type !== "string") throw new Error("no type");
        return body as { id: string; type: string };
      },
    });
    expect(result.status).toBe(201);
    expect(time.sleeps).toHaveLength(4);
  });

  it("settles on a 200 whose body is the resource, never re-sending under a spent request id", async () => {
    const { base, relay, time } = setup((clock) => [
      { status: 202, json: challengeJson(clock.now) },
      { status: 200, json: { id: "AuthMethod:1", type: "EMAIL_OTP" } },
    ]);
    const result = await runSignedRequest({
      ...base,
      method: "POST",
      path: "/auth/credentials",
      body: '{"type":"EMAIL_OTP","accountId":"InternalAccount:1"}',
      expectedStatus: 201,
      parseBody: (body) => body as { id: string },
    });
    expect(result).toMatchObject({ status: 200, body: { id: "AuthMethod:1" }, attempts: 2 });
    expect(relay.calls).toHaveLength(2);
    expect(time.sleeps).toEqual([]);
    // Without a resource to read (a 204 endpoint), a 200 stays PROCESSING.
    const bodiless = setup((clock) => [
      { status: 202, json: challengeJson(clock.now) },
      { status: 200, json: { id: "AuthMethod:1" } },
      { status: 204 },
    ]);
    const revoked = await runSignedRequest({
      ...bodiless.base,
      method: "DELETE",
      path: `/auth/sessions/${SESSION_ID}`,
      expectedStatus: 204,
    });
    expect([revoked.status, bodiless.relay.calls.length]).toEqual([204, 3]);
  });

  it("keeps a 200 body with an id as success (a Quote in PROCESSING is executed)", () => {
    expect(isProcessingBody({ status: "PROCESSING" })).toBe(true);
    expect(isProcessingBody({ status: "PROCESSING", message: "m" })).toBe(true);
    expect(isProcessingBody({ id: "Quote:1", status: "PROCESSING" })).toBe(false);
    expect(isProcessingBody({ id: "Session:1" })).toBe(false);
    expect(isProcessingBody([{ status: "PROCESSING" }])).toBe(false);
    expect(isProcessingBody(undefined)).toBe(false);
  });

  it("uses a caller's isProcessing predicate", async () => {
    const { base, time } = setup((clock) => [
      { status: 202, json: challengeJson(clock.now) },
      { status: 200, json: { state: "PENDING" } },
      { status: 200, json: { state: "DONE" } },
    ]);
    const result = await runSignedRequest({
      ...base,
      method: "PATCH",
      path: "/customers/Customer:1",
      body: '{"email":"a@example.com"}',
      expectedStatus: 200,
      isProcessing: (body) => (body as { state?: string }).state === "PENDING",
    });
    expect(result.body).toEqual({ state: "DONE" });
    expect(time.sleeps).toHaveLength(1);
  });

  it("runs three legs for delegated keys, each stamp over its own payload", async () => {
    const body =
      '{"cardId":"Card:1","internalAccountId":"InternalAccount:1","nickname":"card key"}';
    let first: ReturnType<typeof challengeJson> | undefined;
    let second: ReturnType<typeof challengeJson> | undefined;
    const { relay, base, sign, stamps } = setup((time) => {
      first = challengeJson(time.now);
      second = challengeJson(time.now);
      return [
        { status: 202, json: first },
        { status: 202, json: second },
        { status: 201, json: { id: "DelegatedKey:1", status: "ACTIVE" } },
      ];
    });
    const result = await runSignedRequest({
      ...base,
      method: "POST",
      path: "/auth/delegated-keys",
      body,
      maxLegs: 3,
      expectedStatus: 201,
    });
    expect(result).toMatchObject({
      status: 201,
      legs: 3,
      attempts: 3,
      requestId: second?.requestId,
    });
    expect(sign.mock.calls.map(([payload, context]) => [payload, context.leg])).toEqual([
      [first?.payloadToSign, 2],
      [second?.payloadToSign, 3],
    ]);
    expect(relay.calls.map((call) => call.body)).toEqual([body, body, body]);
    expect(relay.calls.map((call) => call.headers.get("Request-Id"))).toEqual([
      null,
      first?.requestId,
      second?.requestId,
    ]);
    expect(relay.calls.map((call) => call.headers.get("Grid-Wallet-Signature"))).toEqual([
      null,
      stamps[0],
      stamps[1],
    ]);
  });

  it("bounds the legs with maxLegs", async () => {
    const { base, relay } = setup((time) => [
      { status: 202, json: challengeJson(time.now) },
      { status: 202, json: challengeJson(time.now) },
    ]);
    const error = await rejection(
      runSignedRequest({
        ...base,
        method: "DELETE",
        path: "/auth/sessions/x",
        expectedStatus: 204,
        maxLegs: 2,
      }),
    );
    expect(error.code).toBe("CHALLENGE_INVALID");
    expect(relay.calls).toHaveLength(2);
  });

  it("refuses a second 202 that repeats a used request id", async () => {
    const { base } = setup((time) => {
      const challenge = challengeJson(time.now);
      return [
        { status: 202, json: challenge },
        { status: 202, json: { ...challenge, payloadToSign: "other" } },
      ];
    });
    const error = await rejection(
      runSignedRequest({
        ...base,
        method: "POST",
        path: "/auth/delegated-keys",
        body: "{}",
        expectedStatus: 201,
      }),
    );
    expect(error.code).toBe("CHALLENGE_INVALID");
  });

  describe("malformed challenges", () => {
    const cases: Array<[string, (now: number) => ScriptedReply, string, string?]> = [
      [
        "missing payloadToSign",
        (now) => ({ status: 202, json: { ...challengeJson(now), payloadToSign: undefined } }),
        "CHALLENGE_INVALID",
        "payloadToSign",
      ],
      [
        "empty payloadToSign",
        (now) => ({ status: 202, json: challengeJson(now, { payloadToSign: "" }) }),
        "CHALLENGE_INVALID",
        "payloadToSign",
      ],
      [
        "numeric payloadToSign",
        (now) => ({ status: 202, json: challengeJson(now, { payloadToSign: 7 }) }),
        "CHALLENGE_INVALID",
        "payloadToSign",
      ],
      [
        "requestId without prefix",
        (now) => ({
          status: 202,
          json: challengeJson(now, { requestId: "7c0b7b4e-0000-4000-8000-000000000001" }),
        }),
        "CHALLENGE_INVALID",
        "requestId",
      ],
      [
        "requestId of another kind",
        (now) => ({
          status: 202,
          json: challengeJson(now, { requestId: "Session:7c0b7b4e-0000-4000-8000-000000000001" }),
        }),
        "CHALLENGE_INVALID",
        "requestId",
      ],
      [
        "requestId not a uuid",
        (now) => ({ status: 202, json: challengeJson(now, { requestId: "Request:abc" }) }),
        "CHALLENGE_INVALID",
        "requestId",
      ],
      [
        "expiresAt in the past",
        (now) => ({
          status: 202,
          json: challengeJson(now, { expiresAt: new Date(now - 1).toISOString() }),
        }),
        "CHALLENGE_INVALID",
        "expiresAt",
      ],
      [
        "expiresAt now",
        (now) => ({
          status: 202,
          json: challengeJson(now, { expiresAt: new Date(now).toISOString() }),
        }),
        "CHALLENGE_INVALID",
        "expiresAt",
      ],
      [
        "expiresAt not RFC 3339",
        (now) => ({ status: 202, json: challengeJson(now, { expiresAt: "tomorrow" }) }),
        "CHALLENGE_INVALID",
        "expiresAt",
      ],
      [
        "expiresAt a number",
        (now) => ({ status: 202, json: challengeJson(now, { expiresAt: now + 60_000 }) }),
        "CHALLENGE_INVALID",
        "expiresAt",
      ],
      [
        "expiresAt without zone",
        (now) => ({ status: 202, json: challengeJson(now, { expiresAt: "2099-01-01T00:00:00" }) }),
        "CHALLENGE_INVALID",
        "expiresAt",
      ],
      [
        "a body that is not JSON",
        () => ({ status: 202, text: "<html>Accepted</html>" }),
        "MALFORMED_RESPONSE",
      ],
      ["an empty body", () => ({ status: 202, text: "" }), "MALFORMED_RESPONSE"],
      ["a JSON array", () => ({ status: 202, json: [] }), "MALFORMED_RESPONSE"],
    ];
    for (const [name, reply, code, field] of cases) {
      it(`rejects ${name} with ${code}`, async () => {
        const { base, sign, relay } = setup((time) => [reply(time.now)]);
        const error = await rejection(
          runSignedRequest({
            ...base,
            method: "DELETE",
            path: "/auth/sessions/x",
            expectedStatus: 204,
          }),
        );
        expect(error.code).toBe(code);
        expect(error.status).toBe(202);
        if (field !== undefined) expect(error.details).toEqual({ field });
        expect(sign).not.toHaveBeenCalled();
        expect(relay.calls).toHaveLength(1);
      });
    }

    it("accepts offsets, fractions and mixed-case uuids", () => {
      const now = Date.parse("2025-10-13T12:00:00Z");
      const challenge = parseSignedRequestChallenge({
        now,
        text: JSON.stringify({
          payloadToSign: "p",
          requestId: "Request:7C0B7B4E-aaaa-4000-8000-00000000000F",
          expiresAt: "2025-10-13T14:04:59.123456+02:00",
          type: "SMS_OTP",
        }),
      });
      expect(challenge.expiresAtMs).toBe(Date.parse("2025-10-13T12:04:59.123Z"));
      expect(challenge.type).toBe("SMS_OTP");
    });
  });

  describe("expiry", () => {
    it("throws CHALLENGE_EXPIRED when the challenge lapses while signing, without sending", async () => {
      const { base, relay, time } = setup((clock) => [
        { status: 202, json: challengeJson(clock.now, {}, 60_000) },
      ]);
      const error = await rejection(
        runSignedRequest({
          ...base,
          // The default starts over once (below); this test is about the error itself.
          restartOnExpiry: false,
          sign: async () => {
            time.advance(60_000); // a slow passkey prompt, say
            return "STAMP";
          },
          method: "DELETE",
          path: "/auth/sessions/x",
          expectedStatus: 204,
        }),
      );
      expect(error.code).toBe("CHALLENGE_EXPIRED");
      expect(detailOf(error, "requestId")).toMatch(/^Request:/);
      expect(relay.calls).toHaveLength(1);
    });

    it("throws CHALLENGE_EXPIRED when PROCESSING outlasts expiresAt, without waiting past it", async () => {
      const { base, relay, time } = setup((clock) => [
        { status: 202, json: challengeJson(clock.now, {}, 2_000) },
        PROCESSING,
        PROCESSING,
        PROCESSING,
      ]);
      const error = await rejection(
        runSignedRequest({
          ...base,
          random: () => 0.99,
          method: "POST",
          path: "/internal-accounts/InternalAccount:1/export",
          body: "{}",
          expectedStatus: 200,
        }),
      );
      expect(error.code).toBe("CHALLENGE_EXPIRED");
      // waits 495 and 990 (ends at 1485 ms); the next 1980 ms would pass the 2 s expiry.
      expect(time.sleeps).toEqual([495, 990]);
      expect(relay.calls).toHaveLength(4);
    });

    it("reads a 401 about an expired request id as CHALLENGE_EXPIRED", async () => {
      const { base } = setup((time) => [
        { status: 202, json: challengeJson(time.now) },
        {
          status: 401,
          json: { status: 401, code: "UNAUTHORIZED", message: "Request id has expired" },
        },
      ]);
      const error = await rejection(
        runSignedRequest({
          ...base,
          restartOnExpiry: false,
          method: "DELETE",
          path: "/auth/sessions/x",
          expectedStatus: 204,
        }),
      );
      expect(error.code).toBe("CHALLENGE_EXPIRED");
      expect(isSignetError(error.cause, "UNAUTHORIZED")).toBe(true);
    });

    it("keeps wallet-signature 401s as they are, and hands the end to onEnd", async () => {
      const { base, events } = setup((time) => [
        { status: 202, json: challengeJson(time.now) },
        {
          status: 401,
          json: {
            status: 401,
            code: "WALLET_SIGNATURE_INVALID",
            message: "request expired? no: bad signature",
          },
        },
      ]);
      const ends: SignedRequestEnd[] = [];
      const error = await rejection(
        runSignedRequest({
          ...base,
          method: "DELETE",
          path: "/auth/sessions/x",
          expectedStatus: 204,
          // The session store's seat: told of the end by a call, before the terminal event.
          onEnd: (end) => {
            ends.push(end);
            expect(signedEvents(events).at(-1)?.stage).not.toBe("failed");
          },
        }),
      );
      expect([error.code, error.status]).toEqual(["WALLET_SIGNATURE_INVALID", 401]);
      expect(ends).toEqual([
        expect.objectContaining({
          stage: "failed",
          mode: "challenge",
          status: 401,
          code: "WALLET_SIGNATURE_INVALID",
          requestId: expect.any(String),
        }),
      ]);
      expect(signedEvents(events).at(-1)?.stage).toBe("failed");
    });

    it("with restartOnExpiry starts over from leg 1 once, with a new request id", async () => {
      let first: ReturnType<typeof challengeJson> | undefined;
      let second: ReturnType<typeof challengeJson> | undefined;
      const { base, relay, sign, events } = setup((time) => {
        first = challengeJson(time.now, {}, 1_000);
        second = challengeJson(time.now, {}, 300_000);
        return [
          { status: 202, json: first },
          PROCESSING,
          PROCESSING,
          { status: 202, json: second },
          PROCESSING,
          { status: 200, json: { id: "InternalAccount:1", encryptedWalletCredentials: "bundle" } },
        ];
      });
      const result = await runSignedRequest({
        ...base,
        random: () => 0.99,
        restartOnExpiry: true,
        method: "POST",
        path: "/internal-accounts/InternalAccount:1/export",
        body: "{}",
        expectedStatus: 200,
      });
      expect(result).toMatchObject({
        status: 200,
        restarts: 1,
        legs: 2,
        attempts: 6,
        requestId: second?.requestId,
      });
      expect(sign).toHaveBeenCalledTimes(2);
      expect(relay.calls.map((call) => call.headers.get("Request-Id"))).toEqual([
        null,
        first?.requestId,
        first?.requestId,
        null,
        second?.requestId,
        second?.requestId,
      ]);
      expect(signedEvents(events).find((event) => event.retryReason === "restart")).toMatchObject({
        stage: "challenge",
        leg: 1,
      });
    });

    it("restarts as often as the retry policy allows (retryCount), then CHALLENGE_EXPIRED", async () => {
      const { base, relay } = setup((time) => [
        { status: 202, json: challengeJson(time.now, {}, 100) },
        PROCESSING,
        { status: 202, json: challengeJson(time.now, {}, 100) },
        PROCESSING,
        { status: 202, json: challengeJson(time.now, {}, 100) },
        PROCESSING,
      ]);
      const error = await rejection(
        runSignedRequest({
          ...base,
          random: () => 0.99,
          restartOnExpiry: true,
          retry: { retryCount: 2 },
          method: "POST",
          path: "/internal-accounts/InternalAccount:1/export",
          body: "{}",
          expectedStatus: 200,
        }),
      );
      expect(error.code).toBe("CHALLENGE_EXPIRED");
      expect(relay.calls).toHaveLength(6);
    });

    it("does not restart without restartOnExpiry", async () => {
      const { base, relay } = setup((time) => [
        { status: 202, json: challengeJson(time.now, {}, 100) },
        PROCESSING,
      ]);
      const error = await rejection(
        runSignedRequest({
          ...base,
          random: () => 0.99,
          method: "POST",
          path: "/internal-accounts/InternalAccount:1/export",
          body: "{}",
          expectedStatus: 200,
        }),
      );
      expect(error.code).toBe("CHALLENGE_EXPIRED");
      expect(relay.calls).toHaveLength(2);
    });
  });

  it("throws PROCESSING_TIMEOUT at the deadline", async () => {
    const { base, relay, time } = setup((clock) => [
      { status: 202, json: challengeJson(clock.now) },
      ...Array.from({ length: 20 }, () => PROCESSING),
    ]);
    const started = time.now;
    const error = await rejection(
      runSignedRequest({
        ...base,
        timeoutMs: 3_000,
        method: "DELETE",
        path: "/auth/sessions/x",
        expectedStatus: 204,
      }),
    );
    expect(error.code).toBe("PROCESSING_TIMEOUT");
    expect(time.now - started).toBeLessThan(3_000);
    expect(time.sleeps).toEqual([250, 500, 1000]);
    expect(relay.calls).toHaveLength(5);
  });

  it("measures its time budget on the local timer: a service clock learnt mid-request moves no deadline", async () => {
    // The client learns mid-request that the service's clock is 10 minutes ahead of the device's:
    // challenge expiry follows the service clock, the 3-second budget does not jump with it.
    let skewMs = 0;
    const { base, relay } = setup((clock) => [
      { status: 202, json: challengeJson(clock.now + 10 * 60_000) },
      PROCESSING,
      { status: 204 },
    ]);
    const serviceClock = { now: () => base.clock.now() + skewMs };
    const transport = base.transport;
    await runSignedRequest({
      ...base,
      transport: {
        ...transport,
        request: async (request) => {
          const answer = await transport.request(request);
          skewMs = 10 * 60_000;
          return answer;
        },
      },
      clock: serviceClock,
      timer: base.clock,
      timeoutMs: 3_000,
      method: "DELETE",
      path: "/auth/sessions/x",
      expectedStatus: 204,
    });
    expect(relay.calls).toHaveLength(3);
  });

  it("honours an absolute deadline too", async () => {
    const { base, time } = setup((clock) => [
      { status: 202, json: challengeJson(clock.now) },
      PROCESSING,
    ]);
    const error = await rejection(
      runSignedRequest({
        ...base,
        deadline: time.now + 100,
        method: "DELETE",
        path: "/auth/sessions/x",
        expectedStatus: 204,
      }),
    );
    expect(error.code).toBe("PROCESSING_TIMEOUT");
  });

  describe("abort", () => {
    it("aborts promptly in the middle of a backoff wait, with real timers", async () => {
      const controller = new AbortController();
      const relay = scriptedFetch([{ status: 202, json: challengeJson(Date.now()) }, PROCESSING]);
      const transport = createTransport({ relayUrl: "/r", fetch: relay.fetch });
      const started = Date.now();
      const pending = runSignedRequest({
        transport,
        sign: () => "STAMP",
        checkPayload: () => ({ known: true }),
        retry: { backoff: { baseMs: 60_000 } },
        random: () => 0.9,
        signal: controller.signal,
        method: "DELETE",
        path: "/auth/sessions/x",
        expectedStatus: 204,
      });
      setTimeout(() => controller.abort(), 20);
      const error = await rejection(pending);
      expect(error.code).toBe("ABORTED");
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(relay.calls).toHaveLength(2);
    });

    it("aborts even when an injected sleep ignores the signal", async () => {
      const controller = new AbortController();
      const { base, relay } = setup((time) => [
        { status: 202, json: challengeJson(time.now) },
        PROCESSING,
      ]);
      const pending = runSignedRequest({
        ...base,
        sleep: () => new Promise(() => {}),
        signal: controller.signal,
        method: "DELETE",
        path: "/auth/sessions/x",
        expectedStatus: 204,
      });
      setTimeout(() => controller.abort(), 5);
      expect((await rejection(pending)).code).toBe("ABORTED");
      expect(relay.calls).toHaveLength(2);
    });

    it("aborts while the signer waits (a passkey prompt, say)", async () => {
      const controller = new AbortController();
      const { base, relay } = setup((time) => [{ status: 202, json: challengeJson(time.now) }]);
      const pending = runSignedRequest({
        ...base,
        sign: () => new Promise<string>(() => {}),
        signal: controller.signal,
        method: "DELETE",
        path: "/auth/sessions/x",
        expectedStatus: 204,
      });
      setTimeout(() => controller.abort(), 5);
      expect((await rejection(pending)).code).toBe("ABORTED");
      expect(relay.calls).toHaveLength(1);
    });

    it("sends nothing when already aborted", async () => {
      const controller = new AbortController();
      controller.abort();
      const { base, relay } = setup(() => []);
      const error = await rejection(
        runSignedRequest({
          ...base,
          signal: controller.signal,
          method: "DELETE",
          path: "/x",
          expectedStatus: 204,
        }),
      );
      expect(error.code).toBe("ABORTED");
      expect(relay.calls).toHaveLength(0);
    });
  });

  describe("rate limits", () => {
    it("waits for Retry-After and re-sends the same signed leg", async () => {
      const { base, relay, time, sign } = setup((clock) => [
        { status: 202, json: challengeJson(clock.now) },
        {
          status: 429,
          json: { status: 429, code: "RATE_LIMITED", message: "slow down" },
          headers: { "Retry-After": "2" },
        },
        { status: 204 },
      ]);
      const result = await runSignedRequest({
        ...base,
        method: "DELETE",
        path: "/auth/sessions/x",
        expectedStatus: 204,
      });
      expect(result).toMatchObject({ status: 204, attempts: 3 });
      expect(time.sleeps).toEqual([2000]);
      expect(sign).toHaveBeenCalledTimes(1);
      const [, first, second] = relay.calls;
      expect(second?.headers.get("Request-Id")).toBe(first?.headers.get("Request-Id"));
      expect(second?.headers.get("Grid-Wallet-Signature")).toBe(
        first?.headers.get("Grid-Wallet-Signature"),
      );
    });

    it("waits for an HTTP-date Retry-After on leg 1", async () => {
      const { base, time } = setup((clock) => [
        {
          status: 429,
          text: "",
          headers: { "Retry-After": new Date(clock.now + 5_000).toUTCString() },
        },
        { status: 202, json: challengeJson(clock.now + 5_000) },
        { status: 204 },
      ]);
      await runSignedRequest({
        ...base,
        method: "DELETE",
        path: "/auth/sessions/x",
        expectedStatus: 204,
      });
      expect(time.sleeps).toEqual([5000]);
    });

    it("gives up after the policy's rate-limit retries with the mapped 429", async () => {
      const limited = {
        status: 429,
        json: { status: 429, code: "RATE_LIMITED", message: "slow" },
        headers: { "Retry-After": "1" },
      };
      const { base, relay } = setup(() => [limited, limited, limited]);
      const error = await rejection(
        runSignedRequest({
          ...base,
          method: "DELETE",
          path: "/x",
          expectedStatus: 204,
          retry: { retryCount: 2 },
        }),
      );
      expect([error.code, error.status, error.retryable]).toEqual(["RATE_LIMITED", 429, true]);
      expect(error.details).toMatchObject({ retryAfterMs: 1000 });
      expect(relay.calls).toHaveLength(3);
    });

    it("does not wait past the challenge's expiry or a too-long Retry-After", async () => {
      const { base, relay, time } = setup((clock) => [
        { status: 202, json: challengeJson(clock.now, {}, 10_000) },
        {
          status: 429,
          json: { status: 429, code: "RATE_LIMITED", message: "slow" },
          headers: { "Retry-After": "20" },
        },
      ]);
      const error = await rejection(
        runSignedRequest({ ...base, method: "DELETE", path: "/x", expectedStatus: 204 }),
      );
      expect(error.code).toBe("RATE_LIMITED");
      expect(time.sleeps).toEqual([]);
      expect(relay.calls).toHaveLength(2);

      const long = setup(() => [
        {
          status: 429,
          json: { status: 429, code: "RATE_LIMITED", message: "slow" },
          headers: { "Retry-After": "3600" },
        },
      ]);
      const longError = await rejection(
        runSignedRequest({ ...long.base, method: "DELETE", path: "/x", expectedStatus: 204 }),
      );
      expect(detailOf(longError, "retryAfterMs")).toBe(3_600_000);
      expect(long.time.sleeps).toEqual([]);
    });
  });

  describe("transient failures", () => {
    it("retries leg 1 after a 503 and a network failure", async () => {
      const { base, relay, time } = setup((clock) => [
        { status: 503, text: "<html>busy</html>" },
        new TypeError("socket hang up"),
        { status: 202, json: challengeJson(clock.now) },
        { status: 204 },
      ]);
      const result = await runSignedRequest({
        ...base,
        retry: { retryCount: 2 },
        method: "DELETE",
        path: "/x",
        expectedStatus: 204,
      });
      expect(result.attempts).toBe(4);
      expect(time.sleeps).toEqual([250, 500]);
      expect(
        relay.calls.slice(0, 3).every((call) => call.headers.get("Grid-Wallet-Signature") === null),
      ).toBe(true);
    });

    it("re-sends the identical signed request after a network failure while processing", async () => {
      const { base, relay } = setup((clock) => [
        { status: 202, json: challengeJson(clock.now) },
        PROCESSING,
        new TypeError("offline"),
        { status: 201, json: { id: "AuthMethod:1" } },
      ]);
      const body = '{"type":"PASSKEY"}';
      await runSignedRequest({
        ...base,
        method: "POST",
        path: "/auth/credentials",
        body,
        expectedStatus: 201,
      });
      const signed = relay.calls.slice(1);
      expect(signed.map((call) => call.body)).toEqual([body, body, body]);
      expect(new Set(signed.map((call) => call.headers.get("Grid-Wallet-Signature"))).size).toBe(1);
      expect(new Set(signed.map((call) => call.headers.get("Request-Id"))).size).toBe(1);
    });

    it("flags an error answer after an ambiguous re-send of a signed leg", async () => {
      const { base } = setup((clock) => [
        { status: 202, json: challengeJson(clock.now) },
        new TypeError("connection reset after the request was written"),
        {
          status: 401,
          json: {
            status: 401,
            code: "UNAUTHORIZED",
            message: "This Request-Id has already been used.",
            details: { reason: "REQUEST_ID_ALREADY_USED" },
          },
        },
      ]);
      const error = await rejection(
        runSignedRequest({
          ...base,
          method: "DELETE",
          path: "/auth/sessions/x",
          expectedStatus: 204,
        }),
      );
      // Not UNAUTHORIZED, whose documented remedy is the relay's platform credentials: the first
      // send may have been taken, and nothing asked the service what happened.
      expect([error.code, error.status]).toEqual(["OUTCOME_UNKNOWN", undefined]);
      expect(error.details).toEqual({
        step: "leg 2",
        requestId: expect.stringMatching(/^Request:/),
        code: "UNAUTHORIZED",
        status: 401,
      });
      expect((error.cause as SignetError).details).toMatchObject({
        ambiguousResend: true,
        reason: "REQUEST_ID_ALREADY_USED",
      });
    });

    it("throws the last transient error when retries run out", async () => {
      const { base, relay } = setup(() => [
        new TypeError("a"),
        new TypeError("b"),
        new TypeError("c"),
      ]);
      const error = await rejection(
        runSignedRequest({
          ...base,
          method: "DELETE",
          path: "/x",
          expectedStatus: 204,
          retry: { retryCount: 2 },
        }),
      );
      expect([error.code, error.retryable]).toEqual(["NETWORK", true]);
      expect(relay.calls).toHaveLength(3);
      const server = setup(() => [
        { status: 500, json: { status: 500, code: "INTERNAL_ERROR", message: "boom" } },
        { status: 500, json: { status: 500, code: "INTERNAL_ERROR", message: "boom" } },
      ]);
      const serverError = await rejection(
        runSignedRequest({
          ...server.base,
          method: "DELETE",
          path: "/x",
          expectedStatus: 204,
          retry: { retryCount: 1 },
        }),
      );
      expect([serverError.code, serverError.status, serverError.retryable]).toEqual([
        "INTERNAL_ERROR",
        500,
        true,
      ]);
    });
  });

  describe("error answers", () => {
    it("maps a 4xx body with code, status, message and details plus the request id", async () => {
      let challenge: ReturnType<typeof challengeJson> | undefined;
      const { base } = setup((time) => {
        challenge = challengeJson(time.now);
        return [
          { status: 202, json: challenge },
          {
            status: 400,
            json: {
              status: 400,
              code: "INVALID_INPUT",
              message: "cannot revoke the only credential",
              details: { reason: "LAST_CREDENTIAL" },
            },
          },
        ];
      });
      const error = await rejection(
        runSignedRequest({
          ...base,
          operation: "revokeCredential",
          method: "DELETE",
          path: "/auth/credentials/AuthMethod:1",
          expectedStatus: 204,
        }),
      );
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.status).toBe(400);
      expect(error.message).toBe("cannot revoke the only credential");
      expect(error.retryable).toBe(false);
      expect(error.details).toEqual({
        reason: "LAST_CREDENTIAL",
        operation: "revokeCredential",
        requestId: challenge?.requestId,
      });
    });

    it("keeps an unknown code and maps a 404 on leg 1", async () => {
      const { base } = setup(() => [
        { status: 409, json: { status: 409, code: "BRAND_NEW_CODE", message: "new" } },
      ]);
      const error = await rejection(
        runSignedRequest({ ...base, method: "DELETE", path: "/x", expectedStatus: 204 }),
      );
      expect([error.code, error.status]).toEqual(["BRAND_NEW_CODE", 409]);

      const missing = setup(() => [
        { status: 404, json: { status: 404, code: "NOT_FOUND", message: "no session" } },
      ]);
      const notFound = await rejection(
        runSignedRequest({
          ...missing.base,
          method: "DELETE",
          path: "/auth/sessions/x",
          expectedStatus: 204,
        }),
      );
      expect([notFound.code, notFound.status]).toEqual(["NOT_FOUND", 404]);
    });

    it("gives UNEXPECTED_STATUS for a 2xx/3xx that is neither success, 200 nor 202", async () => {
      const { base } = setup(() => [{ status: 206, text: "{}" }]);
      const error = await rejection(
        runSignedRequest({ ...base, method: "DELETE", path: "/x", expectedStatus: 204 }),
      );
      expect([error.code, error.status]).toEqual(["UNEXPECTED_STATUS", 206]);
    });

    it("gives MALFORMED_RESPONSE for a success body that is not JSON or fails parseBody", async () => {
      const { base } = setup((time) => [
        { status: 202, json: challengeJson(time.now) },
        { status: 200, text: "<html>" },
      ]);
      const error = await rejection(
        runSignedRequest({ ...base, method: "POST", path: "/x", body: "{}", expectedStatus: 200 }),
      );
      expect(error.code).toBe("MALFORMED_RESPONSE");

      const strict = setup((time) => [
        { status: 202, json: challengeJson(time.now) },
        { status: 201, json: { id: 7 } },
      ]);
      const invalid = await rejection(
        runSignedRequest({
          ...strict.base,
          method: "POST",
          path: "/x",
          body: "{}",
          expectedStatus: 201,
          parseBody: (body) => {
            if (typeof (body as { id?: unknown }).id !== "string") throw new TypeError("id");
            return body as { id: string };
          },
        }),
      );
      expect(invalid.code).toBe("MALFORMED_RESPONSE");
    });

    it("propagates the signer's own errors and refuses a stamp that cannot be a header", async () => {
      const keyMissing = setup((time) => [{ status: 202, json: challengeJson(time.now) }]);
      const error = await rejection(
        runSignedRequest({
          ...keyMissing.base,
          sign: () => {
            throw new SignetError("KEY_NOT_FOUND", "no session key");
          },
          method: "DELETE",
          path: "/x",
          expectedStatus: 204,
        }),
      );
      expect(error.code).toBe("KEY_NOT_FOUND");

      for (const stamp of ["", "line\nbreak", "spaced value"]) {
        const bad = setup((time) => [{ status: 202, json: challengeJson(time.now) }]);
        const invalid = await rejection(
          runSignedRequest({
            ...bad.base,
            sign: () => stamp,
            method: "DELETE",
            path: "/x",
            expectedStatus: 204,
          }),
        );
        expect(invalid.code).toBe("INVALID_ARGUMENT");
        expect(bad.relay.calls).toHaveLength(1);
      }
    });

    it("refuses a body that is not a string", async () => {
      const { base, relay } = setup(() => []);
      const parameters = {
        ...base,
        method: "POST",
        path: "/x",
        body: { a: 1 },
        expectedStatus: 201,
      } as unknown as RunSignedRequestParameters;
      expect((await rejection(runSignedRequest(parameters))).code).toBe("INVALID_ARGUMENT");
      expect(relay.calls).toHaveLength(0);
    });
  });

  describe("events", () => {
    it("emits each stage in order, redacted", async () => {
      const body = '{"clientPublicKey":"04BODY-SECRET"}';
      let challenge: ReturnType<typeof challengeJson> | undefined;
      const { base, events, stamps } = setup((time) => {
        challenge = challengeJson(time.now);
        return [
          { status: 202, json: challenge },
          {
            status: 429,
            json: { status: 429, code: "RATE_LIMITED", message: "slow" },
            headers: { "Retry-After": "1" },
          },
          PROCESSING,
          {
            status: 200,
            json: { id: "InternalAccount:1", encryptedWalletCredentials: "EXPORT-SECRET" },
          },
        ];
      });
      await runSignedRequest({
        ...base,
        operation: "exportWallet",
        method: "POST",
        path: "/internal-accounts/InternalAccount:1/export",
        body,
        expectedStatus: 200,
      });
      const requestId = challenge?.requestId;
      const common = {
        type: "signedRequest",
        operation: "exportWallet",
        mode: "challenge",
        method: "POST",
        path: "/internal-accounts/InternalAccount:1/export",
      };
      expect(signedEvents(events)).toEqual([
        { ...common, stage: "challenge", leg: 1, attempt: 1 },
        { ...common, stage: "signing", leg: 2, attempt: 0, status: 202, requestId },
        { ...common, stage: "submitting", leg: 2, attempt: 1, requestId },
        {
          ...common,
          stage: "submitting",
          leg: 2,
          attempt: 2,
          requestId,
          retryReason: "rate-limited",
          delayMs: 1000,
        },
        {
          ...common,
          stage: "processing",
          leg: 2,
          attempt: 1,
          status: 200,
          delayMs: 250,
          requestId,
        },
        {
          ...common,
          stage: "submitting",
          leg: 2,
          attempt: 3,
          requestId,
          retryReason: "processing",
          delayMs: 250,
        },
        { ...common, stage: "done", leg: 2, attempt: 3, status: 200, requestId },
      ]);
      expect(
        events
          .filter((event) => event.type === "request")
          .map((event) => [event.status, event.signed]),
      ).toEqual([
        [202, false],
        [429, true],
        [200, true],
        [200, true],
      ]);
      const serialized = JSON.stringify(events);
      for (const secret of [
        stamps[0] ?? "?",
        challenge?.payloadToSign ?? "?",
        "BODY-SECRET",
        "EXPORT-SECRET",
        "STAMP-SECRET",
      ]) {
        expect(serialized).not.toContain(secret);
      }
    });

    it("emits failed with the code and no secret", async () => {
      let challenge: ReturnType<typeof challengeJson> | undefined;
      const { base, events, stamps } = setup((time) => {
        challenge = challengeJson(time.now);
        return [
          { status: 202, json: challenge },
          {
            status: 401,
            json: { status: 401, code: "WALLET_SIGNATURE_INVALID", message: "bad stamp" },
          },
        ];
      });
      await rejection(
        runSignedRequest({
          ...base,
          method: "DELETE",
          path: "/auth/sessions/x",
          body: '{"otpCode":"913527"}',
          expectedStatus: 204,
        }),
      );
      expect(signedEvents(events).at(-1)).toMatchObject({
        stage: "failed",
        code: "WALLET_SIGNATURE_INVALID",
        status: 401,
        leg: 2,
        requestId: challenge?.requestId,
      });
      const serialized = JSON.stringify(events);
      expect(serialized).not.toContain(stamps[0] ?? "?");
      expect(serialized).not.toContain(challenge?.payloadToSign ?? "?");
      expect(serialized).not.toContain("913527");
    });
  });
});

describe("runSignedRequest, direct mode (quote execute)", () => {
  const quotePayload = '{"quoteId":"Quote:1","amount":"1000000","nonce":"PAYLOAD-SECRET"}';
  const executed = {
    status: 200,
    json: { id: "Quote:1", status: "PROCESSING", transactionId: "Transaction:1" },
  };

  it("sends one signed request with the signature and an Idempotency-Key, no Request-Id", async () => {
    const { base, relay, sign, stamps } = setup(() => [executed]);
    const result = await runSignedRequest({
      ...base,
      mode: "direct",
      payloadToSign: quotePayload,
      generateId: () => "idem-1",
      method: "POST",
      path: "/quotes/Quote:1/execute",
      expectedStatus: 200,
    });
    expect(result).toEqual({
      status: 200,
      body: { id: "Quote:1", status: "PROCESSING", transactionId: "Transaction:1" },
      idempotencyKey: "idem-1",
      legs: 1,
      attempts: 1,
      restarts: 0,
    });
    expect(sign).toHaveBeenCalledWith(quotePayload, expect.objectContaining({ leg: 1 }));
    const [call] = relay.calls;
    expect(call?.headers.get("Grid-Wallet-Signature")).toBe(stamps[0]);
    expect(call?.headers.get("Idempotency-Key")).toBe("idem-1");
    expect(call?.headers.get("Request-Id")).toBeNull();
    expect(call?.body).toBeUndefined();
  });

  it("idempotencyKey: false sends the stamp alone (a contact-change submit, #853), on every re-send", async () => {
    const applied = { status: 200, json: { id: "ContactChange:1", status: "APPLIED" } };
    const { base, relay, stamps } = setup(() => [
      { status: 200, json: { status: "PROCESSING" } },
      applied,
    ]);
    const result = await runSignedRequest({
      ...base,
      mode: "direct",
      payloadToSign: quotePayload,
      idempotencyKey: false,
      generateId: () => "never-sent",
      method: "POST",
      path: "/customers/Customer:1/contact-changes/ContactChange:1/submit",
      expectedStatus: 200,
    });
    expect(result.body).toEqual(applied.json);
    expect(result.idempotencyKey).toBeUndefined();
    expect(relay.calls).toHaveLength(2);
    for (const call of relay.calls) {
      expect(call.headers.get("Grid-Wallet-Signature")).toBe(stamps[0]);
      expect(call.headers.get("Idempotency-Key")).toBeNull();
      expect(call.headers.get("Request-Id")).toBeNull();
      expect(call.body).toBeUndefined();
    }
  });

  it("retries a network failure mid-execute with the same key and the same stamp", async () => {
    const { base, relay, sign } = setup(() => [
      new TypeError("connection reset"),
      { status: 502, text: "Bad Gateway" },
      executed,
    ]);
    const generateId = vi.fn(() => "idem-once");
    const result = await runSignedRequest({
      ...base,
      mode: "direct",
      payloadToSign: quotePayload,
      generateId,
      method: "POST",
      path: "/quotes/Quote:1/execute",
      body: "{}",
      expectedStatus: 200,
    });
    expect(result.attempts).toBe(3);
    expect(generateId).toHaveBeenCalledTimes(1);
    expect(sign).toHaveBeenCalledTimes(1);
    expect(new Set(relay.calls.map((call) => call.headers.get("Idempotency-Key")))).toEqual(
      new Set(["idem-once"]),
    );
    expect(new Set(relay.calls.map((call) => call.headers.get("Grid-Wallet-Signature"))).size).toBe(
      1,
    );
    expect(relay.calls.map((call) => call.body)).toEqual(["{}", "{}", "{}"]);
  });

  it("uses a caller's idempotency key and the default generator otherwise", async () => {
    const given = setup(() => [executed]);
    const result = await runSignedRequest({
      ...given.base,
      mode: "direct",
      payloadToSign: quotePayload,
      idempotencyKey: "checkout-42",
      method: "POST",
      path: "/quotes/Quote:1/execute",
      expectedStatus: 200,
    });
    expect(result.idempotencyKey).toBe("checkout-42");

    const generated = setup(() => [executed]);
    const second = await runSignedRequest({
      ...generated.base,
      mode: "direct",
      payloadToSign: quotePayload,
      method: "POST",
      path: "/quotes/Quote:1/execute",
      expectedStatus: 200,
    });
    expect(second.idempotencyKey).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("generates a v4 UUID from the random source it is given (the client passes its crypto backend's)", () => {
    const original = globalThis.crypto;
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    try {
      vi.stubGlobal("crypto", { getRandomValues: original.getRandomValues.bind(original) });
      expect(generateIdempotencyKey()).toMatch(uuid);
      vi.stubGlobal("crypto", undefined);
      expect(generateIdempotencyKey((length) => new Uint8Array(length).fill(0xff))).toBe(
        "ffffffff-ffff-4fff-bfff-ffffffffffff",
      );
      // Without any secure source there is no key to make: never a Math.random one.
      expect(() => generateIdempotencyKey()).toThrow(
        expect.objectContaining({ code: "CRYPTO_UNAVAILABLE" }),
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("maps an error answer as received (a bad stamp may surface as 500) and refuses a 202", async () => {
    const failing = setup(() => [
      {
        status: 409,
        json: { status: 409, code: "QUOTE_ALREADY_EXECUTED", message: "already executed" },
      },
    ]);
    const conflict = await rejection(
      runSignedRequest({
        ...failing.base,
        mode: "direct",
        payloadToSign: quotePayload,
        method: "POST",
        path: "/quotes/Quote:1/execute",
        expectedStatus: 200,
      }),
    );
    expect([conflict.code, conflict.status]).toEqual(["QUOTE_ALREADY_EXECUTED", 409]);

    const challenged = setup((time) => [{ status: 202, json: challengeJson(time.now) }]);
    const unexpected = await rejection(
      runSignedRequest({
        ...challenged.base,
        mode: "direct",
        payloadToSign: quotePayload,
        method: "POST",
        path: "/quotes/Quote:1/execute",
        expectedStatus: 200,
      }),
    );
    expect([unexpected.code, unexpected.status]).toEqual(["UNEXPECTED_STATUS", 202]);
  });

  it("emits signing, submitting and done without the payload, stamp or key", async () => {
    const { base, events, stamps } = setup(() => [new TypeError("reset"), executed]);
    await runSignedRequest({
      ...base,
      mode: "direct",
      operation: "executeQuote",
      payloadToSign: quotePayload,
      idempotencyKey: "IDEMPOTENCY-VALUE",
      method: "POST",
      path: "/quotes/Quote:1/execute",
      expectedStatus: 200,
    });
    expect(
      signedEvents(events).map((event) => [event.stage, event.attempt, event.retryReason]),
    ).toEqual([
      ["signing", 0, undefined],
      ["submitting", 1, undefined],
      ["submitting", 2, "transient"],
      ["done", 2, undefined],
    ]);
    const serialized = JSON.stringify(events);
    expect(serialized).not.toContain("PAYLOAD-SECRET");
    expect(serialized).not.toContain(stamps[0] ?? "?");
    expect(serialized).not.toContain("IDEMPOTENCY-VALUE");
  });
});
