// Each step of the signed-request engine's loop on its own (signedRequestSteps.ts), over a run state made
// by `createRunState` and a pass's leg state (`freshLeg`) with a fake transport, clock and sleep: a table per step where it decides
// something. The whole loop is tested in signedRequest.test.ts and signedRequestRecovery.test.ts.
import { describe, expect, it } from "vitest";
import { challengeJson, fakeClock } from "../../../test/src/scriptedFetch.js";
import { isSignetError, SignetError } from "../errors/errors.js";
import type { TransportRequest, TransportResponse } from "./http.js";
import type { Answer, Step } from "./nextStep.js";
import type { RetryEvent, ShouldRetryContext } from "./retry.js";
import type { RunSignedRequestParameters, SignedRequestEvent } from "./signedRequestParameters.js";
import {
  ChallengeLapse,
  createRunState,
  freshLeg,
  MAX_CHALLENGE_LIFETIME_MS,
  MAX_SIGNED_RUN_MS,
} from "./signedRequestRun.js";
import {
  decide,
  failure,
  isAmbiguous,
  lapse,
  noteSent,
  prepareDirect,
  send,
  signNext,
  startSend,
  succeed,
  waitToResend,
} from "./signedRequestSteps.js";

type Event = SignedRequestEvent | RetryEvent | { type: string };
type Reply = TransportResponse | SignetError | Error;

const reply = (
  status: number,
  json?: unknown,
  headers: Record<string, string> = {},
): TransportResponse => ({
  status,
  headers: new Headers(headers),
  text: json === undefined ? "" : JSON.stringify(json),
  durationMs: 1,
});

const networkError = () =>
  new SignetError("NETWORK", "no answer", { retryable: true, details: { sent: true } });

/** A run over a fake transport that answers `replies` in order, on a fake clock. */
function setup(
  overrides: Partial<RunSignedRequestParameters<unknown>> = {},
  replies: Reply[] = [],
) {
  const time = fakeClock();
  const events: Event[] = [];
  const requests: TransportRequest[] = [];
  const signed: string[] = [];
  const parameters = {
    transport: {
      relayUrl: "https://app.example/api",
      request: async (request: TransportRequest) => {
        requests.push(request);
        const next = replies.shift();
        if (next === undefined) throw new Error("unexpected request");
        if (next instanceof Error) throw next;
        return next;
      },
    },
    operation: "addPasskey",
    method: "POST" as const,
    path: "/auth/credentials",
    body: '{"type":"PASSKEY"}',
    expectedStatus: 201,
    sign: async (payload: string) => {
      signed.push(payload);
      return `STAMP-${payload.length}`;
    },
    checkPayload: () => ({ known: true as const }),
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    onEvent: (event: Event) => events.push(event),
    ...overrides,
  } as RunSignedRequestParameters<unknown>;
  const run = createRunState(parameters);
  // The pass's leg state, as the loop holds it.
  const leg = freshLeg();
  const stages = () =>
    events.filter((e): e is SignedRequestEvent => e.type === "signedRequest").map((e) => e.stage);
  const retries = () => events.filter((e): e is RetryEvent => e.type === "retry");
  return { run, leg, time, events, requests, signed, stages, retries };
}

/** The run standing on a signed leg 2 with a challenge that expires `ttlMs` from now. */
function onLeg2(setupResult: ReturnType<typeof setup>, ttlMs = 300_000) {
  const { leg, time } = setupResult;
  const challenge = challengeJson(time.now, {}, ttlMs);
  Object.assign(leg, {
    leg: 2,
    challenge: { ...challenge, expiresAtMs: Date.parse(challenge.expiresAt) },
    headers: { "Grid-Wallet-Signature": "STAMP", "Request-Id": challenge.requestId },
  });
  return challenge;
}

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

const codeOf = (error: unknown) =>
  error instanceof ChallengeLapse
    ? `lapse(${error.error.code})`
    : isSignetError(error)
      ? error.code
      : String(error);

describe("prepareDirect", () => {
  it("does nothing in challenge mode", async () => {
    const s = setup();
    await prepareDirect(s.run, s.leg);
    expect(s.leg.headers).toEqual({});
    expect(s.signed).toEqual([]);
    expect(s.events).toEqual([]);
  });

  it.each([
    ["the caller's key", { idempotencyKey: "idem-given" }, "idem-given"],
    ["a generated key", { generateId: () => "idem-generated" }, "idem-generated"],
  ])(
    "direct mode with %s: one stamp of payloadToSign and the key, before any send",
    async (_, extra, key) => {
      const s = setup({ mode: "direct", payloadToSign: "quote-payload", ...extra } as never);
      await prepareDirect(s.run, s.leg);
      expect(s.signed).toEqual(["quote-payload"]);
      expect(s.leg.idempotencyKey).toBe(key);
      expect(s.leg.headers).toEqual({
        "Grid-Wallet-Signature": "STAMP-13",
        "Idempotency-Key": key,
      });
      expect(s.stages()).toEqual(["signing"]);
    },
  );

  it("a payload the check refuses is never signed", async () => {
    const s = setup({
      mode: "direct",
      payloadToSign: "someone-else",
      checkPayload: () => ({ known: false, activityType: "ACTIVITY_TYPE_UNKNOWN" }),
    } as never);
    expect(codeOf(await rejectionOf(prepareDirect(s.run, s.leg)))).toBe("PAYLOAD_MISMATCH");
    expect(s.signed).toEqual([]);
    expect(s.leg.headers).toEqual({});
  });
});

describe("startSend", () => {
  type Row = [name: string, arrange: (s: ReturnType<typeof setup>) => void, outcome: string];
  const rows: Row[] = [
    ["first leg", () => {}, "sent: challenge"],
    ["signed leg", (s) => onLeg2(s), "sent: submitting"],
    [
      "aborted",
      (s) => {
        const controller = new AbortController();
        controller.abort();
        (s.run.config.parameters as { signal?: AbortSignal }).signal = controller.signal;
      },
      "ABORTED",
    ],
    [
      "challenge lapsed, nothing taken",
      (s) => {
        onLeg2(s, 1_000);
        s.time.advance(1_000);
      },
      "lapse(CHALLENGE_EXPIRED)",
    ],
    [
      "challenge lapsed after a send that may have been taken",
      (s) => {
        onLeg2(s, 1_000);
        s.leg.touched = true;
        s.time.advance(1_000);
      },
      "CHALLENGE_EXPIRED",
    ],
    [
      "budget spent",
      (s) => {
        s.run.deadline = s.time.now;
      },
      "PROCESSING_TIMEOUT",
    ],
  ];
  it.each(rows)("%s → %s", (_, arrange, outcome) => {
    const s = setup();
    arrange(s);
    const before = { attempt: s.leg.attempt, attempts: s.run.attempts };
    let result: string;
    try {
      startSend(s.run, s.leg);
      result = `sent: ${s.stages().at(-1)}`;
    } catch (error) {
      result = codeOf(error);
    }
    expect(result).toBe(outcome);
    const counted = outcome.startsWith("sent") ? 1 : 0;
    expect(s.leg.attempt).toBe(before.attempt + counted);
    expect(s.run.attempts).toBe(before.attempts + counted);
  });

  it("tells the re-send's reason and wait once, then forgets them", () => {
    const s = setup();
    s.leg.retryReason = "rate-limited";
    s.leg.retryDelayMs = 1_000;
    startSend(s.run, s.leg);
    startSend(s.run, s.leg);
    const sends = s.events.filter((e): e is SignedRequestEvent => e.type === "signedRequest");
    expect(sends.map((e) => [e.attempt, e.retryReason, e.delayMs])).toEqual([
      [1, "rate-limited", 1_000],
      [2, undefined, undefined],
    ]);
  });
});

describe("send", () => {
  it("no answer is an answer: the transport's SignetError becomes `failure`", async () => {
    const failed = networkError();
    const s = setup({}, [failed]);
    const sent = await send(s.run, s.leg);
    expect(sent).toEqual({ answer: { failure: failed }, response: undefined, parsed: undefined });
  });

  it("anything else the transport throws is a bug and goes through", async () => {
    const s = setup({}, [new TypeError("boom")]);
    await expect(send(s.run, s.leg)).rejects.toThrow(TypeError);
  });

  it("sends the body, the leg's headers and the smaller of the attempt limit and the budget left", async () => {
    const s = setup({ attemptTimeoutMs: 5_000, timeoutMs: 3_000 }, [reply(202, challengeJson(0))]);
    s.leg.headers = { "Request-Id": "Request:x" };
    await send(s.run, s.leg);
    expect(s.requests[0]).toMatchObject({
      method: "POST",
      path: "/auth/credentials",
      body: '{"type":"PASSKEY"}',
      headers: { "Request-Id": "Request:x" },
      timeoutMs: 3_000,
    });
  });

  type Row = [name: string, response: TransportResponse, expected: Partial<Answer>];
  const rows: Row[] = [
    ["202", reply(202, challengeJson(0)), { status: 202 }],
    ["201", reply(201, { id: "AuthMethod:1" }), { status: 201, processing: false }],
    [
      "429 with Retry-After",
      reply(429, { code: "RATE_LIMITED" }, { "Retry-After": "2" }),
      { status: 429, delayMs: 2_000 },
    ],
    [
      "429 without it: the backoff",
      reply(429, { code: "RATE_LIMITED" }),
      { status: 429, delayMs: 250 },
    ],
    [
      "503 with Retry-After",
      reply(503, { code: "UNAVAILABLE" }, { "Retry-After": "1" }),
      { status: 503, delayMs: 1_000 },
    ],
    ["500", reply(500, { code: "INTERNAL_ERROR" }), { status: 500 }],
  ];
  it.each(rows)("reads a %s", async (_, response, expected) => {
    const s = setup({}, [response]);
    const { answer } = await send(s.run, s.leg);
    expect(answer).toMatchObject(expected);
    if (response.status >= 400)
      expect("error" in answer && answer.error?.status).toBe(response.status);
  });

  it("a 429 without Retry-After asks no wait once the rate-limit retries are spent", async () => {
    const s = setup({ retry: { retryCount: 1 } }, [reply(429, { code: "RATE_LIMITED" })]);
    s.leg.rateLimitRetries = 1;
    const { answer } = await send(s.run, s.leg);
    expect("delayMs" in answer ? answer.delayMs : undefined).toBeUndefined();
  });

  it("an error answer after an unanswered signed send says it may follow a send that was taken", async () => {
    const s = setup({}, [reply(401, { code: "UNAUTHORIZED", message: "used request id" })]);
    onLeg2(s);
    s.run.mayHaveActed = true;
    const { answer } = await send(s.run, s.leg);
    expect("error" in answer && answer.error?.details).toMatchObject({
      operation: "addPasskey",
      ambiguousResend: true,
    });
  });
});

describe("isAmbiguous", () => {
  it("holds for the whole run once a signed send may have been taken, in any pass", () => {
    const s = setup();
    expect(isAmbiguous(s.run)).toBe(false);
    onLeg2(s);
    noteSent(s.run, s.leg, { failure: networkError() });
    expect(isAmbiguous(s.run)).toBe(true);
    // A fresh start (a new challenge, leg 1) does not make the earlier send any less possible.
    Object.assign(s.leg, { leg: 1, touched: false, challenge: undefined });
    expect(isAmbiguous(s.run)).toBe(true);
  });
});

describe("noteSent: which answers leave a signed send possibly taken", () => {
  const refused = new SignetError("NETWORK", "refused", {
    retryable: true,
    details: { sent: false },
  });
  const aborted = new SignetError("ABORTED", "stop");
  it.each<[string, Answer, boolean, boolean]>([
    ["no answer on leg 2", { failure: networkError() }, true, true],
    ["no answer on leg 1 (unsigned: nothing to take)", { failure: networkError() }, false, false],
    ["a refused connection on leg 2 (it never left)", { failure: refused }, true, false],
    ["the caller's abort", { failure: aborted }, true, false],
    ["a 500 on leg 2", { status: 500 }, true, true],
    [
      "a 503 with Retry-After (a gateway may answer it after the service committed)",
      { status: 503, delayMs: 1_000 },
      true,
      true,
    ],
    ["a 429 (given before anything is done)", { status: 429, delayMs: 1_000 }, true, false],
    ["PROCESSING on a 200 endpoint", { status: 200, processing: true }, true, true],
    [
      "a 200 that is not the resource on a 201 endpoint (read as processing)",
      { status: 200, processing: true },
      true,
      true,
    ],
    [
      "a 200 that is the resource on a 201 endpoint (read as settled)",
      { status: 200, processing: false },
      true,
      false,
    ],
    ["a 401 (terminal)", { status: 401 }, true, false],
    ["a 201 (terminal)", { status: 201 }, true, false],
  ])("%s → %s", (_, answer, signedLeg, taken) => {
    const s = setup();
    if (signedLeg) onLeg2(s);
    noteSent(s.run, s.leg, answer);
    expect(s.leg.touched).toBe(taken);
    expect(s.run.mayHaveActed).toBe(taken);
  });

  it("counts in direct mode, whose one leg is signed", () => {
    const s = setup({ mode: "direct", payloadToSign: "p" } as never);
    noteSent(s.run, s.leg, { failure: networkError() });
    expect(isAmbiguous(s.run)).toBe(true);
  });
});

describe("decide", () => {
  it.each<[string, (s: ReturnType<typeof setup>) => Answer, Step["type"]]>([
    [
      "a TIMEOUT within the budget is re-sent",
      () => ({ failure: new SignetError("TIMEOUT", "t", { retryable: true }) }),
      "resend",
    ],
    [
      "a TIMEOUT past the budget is the run's timeout",
      (s) => {
        s.run.deadline = s.time.now;
        return { failure: new SignetError("TIMEOUT", "t", { retryable: true }) };
      },
      "timeout",
    ],
    [
      "no answer once the transient retries are spent fails",
      (s) => {
        s.leg.transientRetries = s.run.config.maxTransientRetries;
        return { failure: networkError() };
      },
      "fail",
    ],
    [
      "a 401 past the held challenge's expiry is a lapse",
      (s) => {
        onLeg2(s, 1_000);
        s.time.advance(2_000);
        return { status: 401, error: new SignetError("UNAUTHORIZED", "no", { status: 401 }) };
      },
      "lapse",
    ],
    ["a 201 succeeds", () => ({ status: 201, processing: false }), "succeed"],
  ])("%s (%s)", (_, answer, type) => {
    const s = setup();
    expect(decide(s.run, s.leg, answer(s)).type).toBe(type);
  });
});

describe("signNext", () => {
  it("validates the challenge, stamps it (checked first) and moves to the next leg afresh", async () => {
    const s = setup({ timeoutMs: undefined, deadline: undefined });
    const challenge = challengeJson(s.time.now);
    Object.assign(s.leg, {
      attempt: 3,
      transientRetries: 2,
      rateLimitRetries: 1,
      processingCount: 1,
      touched: true,
    });
    s.run.deadline = s.time.now + 10;
    await signNext(s.run, s.leg, reply(202, challenge));
    expect(s.signed).toEqual([challenge.payloadToSign]);
    expect(s.leg).toMatchObject({
      leg: 2,
      attempt: 0,
      transientRetries: 0,
      rateLimitRetries: 0,
      processingCount: 0,
      touched: false,
      headers: {
        "Grid-Wallet-Signature": `STAMP-${challenge.payloadToSign.length}`,
        "Request-Id": challenge.requestId,
      },
    });
    expect(s.run.usedRequestIds.has(challenge.requestId)).toBe(true);
    // Without a time limit of the caller's, re-sends may go on until the challenge expires,
    // within the run's ceiling.
    expect(s.run.deadline).toBe(s.run.config.startedAt + MAX_SIGNED_RUN_MS);
    expect(s.stages()).toEqual(["signing"]);
  });

  it("honours a challenge for at most MAX_CHALLENGE_LIFETIME_MS, whatever its expiresAt", async () => {
    const s = setup({ timeoutMs: undefined, deadline: undefined });
    const far = challengeJson(s.time.now, { expiresAt: "9999-12-31T00:00:00Z" });
    await signNext(s.run, s.leg, reply(202, far));
    expect(s.leg.challenge?.expiresAtMs).toBe(s.time.now + MAX_CHALLENGE_LIFETIME_MS);
    const near = challengeJson(s.time.now, {}, 60_000);
    const t = setup({ timeoutMs: undefined, deadline: undefined });
    await signNext(t.run, t.leg, reply(202, near));
    expect(t.leg.challenge?.expiresAtMs).toBe(Date.parse(near.expiresAt));
  });

  it("keeps the caller's time limit", async () => {
    const s = setup({ timeoutMs: 5_000 });
    const deadline = s.run.deadline;
    await signNext(s.run, s.leg, reply(202, challengeJson(s.time.now)));
    expect(s.run.deadline).toBe(deadline);
  });

  type Row = [
    name: string,
    arrange: (s: ReturnType<typeof setup>) => TransportResponse,
    code: string,
  ];
  const rows: Row[] = [
    [
      "a request id used before",
      (s) => {
        const challenge = challengeJson(s.time.now);
        s.run.usedRequestIds.add(challenge.requestId);
        return reply(202, challenge);
      },
      "CHALLENGE_INVALID",
    ],
    [
      "one leg too many",
      (s) => {
        s.leg.leg = s.run.config.maxLegs;
        return reply(202, challengeJson(s.time.now));
      },
      "CHALLENGE_INVALID",
    ],
    [
      "an expired challenge",
      (s) => reply(202, challengeJson(s.time.now, {}, -1_000)),
      "CHALLENGE_INVALID",
    ],
    [
      "a malformed request id",
      (s) => reply(202, challengeJson(s.time.now, { requestId: "nope" })),
      "CHALLENGE_INVALID",
    ],
    [
      "no payload",
      (s) => reply(202, challengeJson(s.time.now, { payloadToSign: 7 })),
      "CHALLENGE_INVALID",
    ],
  ];
  it.each(rows)("refuses %s, signing nothing", async (_, arrange, code) => {
    const s = setup();
    const response = arrange(s);
    const leg = s.leg.leg;
    const error = await rejectionOf(signNext(s.run, s.leg, response));
    expect(codeOf(error)).toBe(code);
    expect(s.signed).toEqual([]);
    expect(s.leg.leg).toBe(leg);
  });
});

describe("succeed", () => {
  it("returns the body, the request id and the counts, and says done", () => {
    const s = setup();
    const challenge = onLeg2(s);
    s.run.attempts = 3;
    s.leg.attempt = 2;
    const result = succeed(s.run, s.leg, 201, { id: "AuthMethod:1" });
    expect(result).toEqual({
      status: 201,
      body: { id: "AuthMethod:1" },
      requestId: challenge.requestId,
      legs: 2,
      attempts: 3,
      restarts: 0,
    });
    expect(s.events.at(-1)).toMatchObject({
      type: "signedRequest",
      stage: "done",
      status: 201,
      attempt: 2,
    });
  });

  it.each([
    ["a plain throw", () => new TypeError("bad shape"), "MALFORMED_RESPONSE"],
    ["its own SignetError", () => new SignetError("BUNDLE_MALFORMED", "no"), "BUNDLE_MALFORMED"],
  ])("parseBody refusing with %s → %s", (_, thrown, code) => {
    const s = setup({
      parseBody: () => {
        throw thrown();
      },
    });
    expect(codeOf(thrownBy(() => succeed(s.run, s.leg, 201, {})))).toBe(code);
    expect(s.stages()).not.toContain("done");
  });
});

describe("waitToResend", () => {
  const cause = (code: string, status?: number) =>
    new SignetError(code as "RATE_LIMITED", code, {
      retryable: true,
      ...(status ? { status } : {}),
    });

  type Row = [
    name: string,
    step: Extract<Step, { type: "resend" }>,
    signedLeg: boolean,
    expected: {
      delayMs: number;
      counter: "processingCount" | "rateLimitRetries" | "transientRetries";
    },
  ];
  const rows: Row[] = [
    // random 0.5 with full jitter: half the first ceiling (500 ms).
    [
      "PROCESSING on leg 2",
      { type: "resend", reason: "processing" },
      true,
      { delayMs: 250, counter: "processingCount" },
    ],
    [
      "a 429 on leg 2",
      { type: "resend", reason: "rate-limited", delayMs: 3_000, cause: cause("RATE_LIMITED", 429) },
      true,
      { delayMs: 3_000, counter: "rateLimitRetries" },
    ],
    [
      "a 503 with Retry-After on leg 2 (a gateway may answer it after the service took the send)",
      {
        type: "resend",
        reason: "rate-limited",
        delayMs: 3_000,
        cause: cause("UPSTREAM_UNAVAILABLE", 503),
      },
      true,
      { delayMs: 3_000, counter: "rateLimitRetries" },
    ],
    [
      "no answer on leg 2",
      { type: "resend", reason: "transient", cause: networkError() },
      true,
      { delayMs: 250, counter: "transientRetries" },
    ],
    [
      "no answer on leg 1",
      { type: "resend", reason: "transient", cause: networkError() },
      false,
      { delayMs: 250, counter: "transientRetries" },
    ],
  ];
  it.each(rows)("%s: waits, counts, and tells why", async (_, step, signedLeg, expected) => {
    const s = setup();
    if (signedLeg) onLeg2(s);
    await waitToResend(
      s.run,
      s.leg,
      step,
      step.reason === "rate-limited" ? step.cause.status : 500,
    );
    expect(s.time.sleeps).toEqual([expected.delayMs]);
    expect(s.leg[expected.counter]).toBe(1);
    expect(s.leg).toMatchObject({
      retryReason: step.reason,
      retryDelayMs: expected.delayMs,
    });
    expect(s.retries()).toEqual([
      expect.objectContaining({
        reason: step.reason,
        attempt: 1,
        delayMs: expected.delayMs,
        retryAt: s.time.now,
      }),
    ]);
    // PROCESSING is a stage as well.
    expect(s.stages()).toEqual(step.reason === "processing" ? ["processing"] : []);
  });

  it.each<
    [string, (s: ReturnType<typeof setup>) => void, Extract<Step, { type: "resend" }>, string]
  >([
    [
      "a wait past the budget throws the cause",
      (s) => (s.run.deadline = s.time.now + 100),
      { type: "resend", reason: "transient", cause: networkError() },
      "NETWORK",
    ],
    [
      "a PROCESSING wait past the budget is PROCESSING_TIMEOUT",
      (s) => (s.run.deadline = s.time.now + 100),
      { type: "resend", reason: "processing" },
      "PROCESSING_TIMEOUT",
    ],
    [
      "a PROCESSING wait past the challenge's expiry is a lapse (not restartable: the send was taken)",
      (s) => {
        onLeg2(s, 100);
        noteSent(s.run, s.leg, { status: 200, processing: true });
      },
      { type: "resend", reason: "processing" },
      "CHALLENGE_EXPIRED",
    ],
    [
      "a 429's wait past the challenge's expiry throws the 429",
      (s) => onLeg2(s, 100),
      { type: "resend", reason: "rate-limited", delayMs: 1_000, cause: cause("RATE_LIMITED", 429) },
      "RATE_LIMITED",
    ],
  ])("%s", async (_, arrange, step, code) => {
    const s = setup();
    arrange(s);
    expect(codeOf(await rejectionOf(waitToResend(s.run, s.leg, step, undefined)))).toBe(code);
    expect(s.time.sleeps).toEqual([]);
    expect(s.retries()).toEqual([]);
  });

  it("shouldRetry vetoes a retry: the cause is thrown, with what it was asked", async () => {
    const asked: ShouldRetryContext[] = [];
    const s = setup({
      retry: {
        shouldRetry: (context) => {
          asked.push(context);
          return false;
        },
      },
    });
    const failed = networkError();
    const thrown = await rejectionOf(
      waitToResend(s.run, s.leg, { type: "resend", reason: "transient", cause: failed }, undefined),
    );
    expect(thrown).toBe(failed);
    expect(asked).toEqual([
      { error: failed, reason: "transient", attempt: 1, method: "POST", path: "/auth/credentials" },
    ]);
    expect(s.time.sleeps).toEqual([]);
  });

  it("shouldRetry is not asked about PROCESSING, which is the protocol", async () => {
    const s = setup({ retry: { shouldRetry: () => false } });
    await waitToResend(s.run, s.leg, { type: "resend", reason: "processing" }, 200);
    expect(s.time.sleeps).toEqual([250]);
  });
});

describe("lapse", () => {
  it.each<
    [
      string,
      Partial<RunSignedRequestParameters<unknown>>,
      { touched?: boolean; restarts?: number },
      string,
    ]
  >([
    ["untouched, first pass", {}, {}, "lapse(CHALLENGE_EXPIRED)"],
    ["a send may have been taken", {}, { touched: true }, "CHALLENGE_EXPIRED"],
    ["restarted once: more are allowed", {}, { restarts: 1 }, "lapse(CHALLENGE_EXPIRED)"],
    ["the policy's restarts spent (retryCount)", {}, { restarts: 3 }, "CHALLENGE_EXPIRED"],
    ["retry: false keeps one restart", { retry: false }, {}, "lapse(CHALLENGE_EXPIRED)"],
    ["retry: false, restarted once", { retry: false }, { restarts: 1 }, "CHALLENGE_EXPIRED"],
    [
      "the flow allows it though touched",
      { restartOnExpiry: true },
      { touched: true },
      "lapse(CHALLENGE_EXPIRED)",
    ],
    ["the flow forbids it", { restartOnExpiry: false }, {}, "CHALLENGE_EXPIRED"],
  ])("%s → %s", (_, parameters, state, expected) => {
    const s = setup(parameters);
    const challenge = onLeg2(s);
    if (state.touched) s.leg.touched = true;
    if (state.restarts) s.run.restarts = state.restarts;
    const error = lapse(s.run, s.leg);
    expect(codeOf(error)).toBe(expected);
    const inner = error instanceof ChallengeLapse ? error.error : error;
    expect(inner.details).toMatchObject({
      operation: "addPasskey",
      requestId: challenge.requestId,
    });
  });

  it("direct mode never starts over", () => {
    const s = setup({ mode: "direct", payloadToSign: "p" } as never);
    onLeg2(s);
    expect(codeOf(lapse(s.run, s.leg))).toBe("CHALLENGE_EXPIRED");
  });

  it("without a challenge it is a bug", () => {
    expect(() => lapse(setup().run, freshLeg())).toThrow(TypeError);
  });
});

describe("failure", () => {
  it.each<
    [string, (cause: SignetError) => Extract<Step, { type: "timeout" | "lapse" | "fail" }>, string]
  >([
    ["timeout", (cause) => ({ type: "timeout", cause }), "PROCESSING_TIMEOUT"],
    ["lapse", (cause) => ({ type: "lapse", cause }), "lapse(CHALLENGE_EXPIRED)"],
    ["fail", (error) => ({ type: "fail", error }), "CONFLICT"],
  ])("%s → %s", (_, step, expected) => {
    const s = setup();
    onLeg2(s);
    const cause = new SignetError("CONFLICT", "no", { status: 409 });
    const error = failure(s.run, s.leg, step(cause));
    expect(codeOf(error)).toBe(expected);
    if (expected !== "CONFLICT") {
      const inner = error instanceof ChallengeLapse ? error.error : error;
      expect(inner.cause).toBe(cause);
    } else expect(error).toBe(cause);
  });
});
