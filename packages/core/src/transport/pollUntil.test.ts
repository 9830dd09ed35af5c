// One budget for an unsigned call that may answer PROCESSING (`requestUntilSettled`: a code
// request, a passkey sign-in's challenge): its PROCESSING re-sends and each send's own retries
// spend the same budget, the policy's `timeoutMs` unless the caller gives one. The fault soak's
// failures (RELIABILITY.md) were code requests whose first sends got no answer for 30 s each and
// whose next answer was PROCESSING: a fixed 60 s poll budget, shorter than the 120 s the policy
// gives the sends inside it, was spent before the first PROCESSING wait. A fake clock: each
// scripted answer moves it by the time the send took.
import { describe, expect, it } from "vitest";
import { fakeClock, scriptedFetch } from "../../../test/src/scriptedFetch.js";
import type { SignetClient } from "../client.js";
import type { SignetError } from "../errors/errors.js";
import { createClient, createMemoryKeyStore, requestOtp, type SignetEvent } from "../index.js";
import { requestUntilSettled } from "./pollUntil.js";
import type { RetryOptions } from "./retry.js";

const CREDENTIAL = "AuthMethod:00000000-0000-4000-8000-000000000001";
const PATH = `/auth/credentials/${CREDENTIAL}/challenge`;
const OTP_ANSWER = {
  id: CREDENTIAL,
  accountId: "InternalAccount:00000000-0000-4000-8000-000000000002",
  type: "EMAIL_OTP",
  otpEncryptionTargetBundle: "bundle",
};

/**
 * A client on a fake clock; `took(ms, reply)` is a scripted answer that arrives `ms` later (the
 * fake clock does not see the transport's own time limit, so a send may take longer than it
 * would: what the budget bounds here is when sends start and waits end).
 */
function setup(retry?: RetryOptions) {
  const time = fakeClock();
  const events: SignetEvent[] = [];
  const replies: Parameters<typeof scriptedFetch>[0] = [];
  const script = scriptedFetch(replies);
  const client = createClient({
    relayUrl: "https://relay.test/api/grid",
    fetch: script.fetch,
    keyStore: createMemoryKeyStore(),
    clock: time.clock,
    sleep: time.sleep,
    // The top of each jitter window: the longest waits the policy allows.
    random: () => 0.999,
    onEvent: (event) => events.push(event),
    ...(retry === undefined ? {} : { retry }),
  });
  const start = time.now;
  /** When each send started, from the call's start. */
  const sendsAt: number[] = [];
  const took =
    (ms: number, reply: { status: number; json?: unknown } | "no answer") => async () => {
      sendsAt.push(time.now - start);
      time.advance(ms);
      if (reply === "no answer") throw new TypeError("fetch failed");
      return new Response(JSON.stringify(reply.json), {
        status: reply.status,
        headers: { "content-type": "application/json" },
      });
    };
  return {
    client,
    script,
    events,
    elapsed: () => time.now - start,
    sendsAt,
    answers: (...steps: (() => Promise<Response>)[]) => replies.push(...steps),
    took,
  };
}

const PROCESSING = { status: 200, json: { status: "PROCESSING" } };
const settle = (client: SignetClient, timeoutMs?: number) =>
  requestUntilSettled(
    client,
    { method: "POST", path: PATH, body: "{}", idempotent: true },
    {},
    "requestOtp",
    timeoutMs,
  );

describe("requestUntilSettled: one budget for the polls and the sends' retries", () => {
  it("the soak's failure: two sends with no answer for 30 s each, then PROCESSING at 71 s, then the code: completes (the default budget is the policy's 120 s)", async () => {
    const { client, script, answers, took, elapsed, events } = setup();
    answers(
      took(30_000, "no answer"),
      took(30_000, "no answer"),
      took(11_000, PROCESSING),
      took(1_000, { status: 200, json: OTP_ANSWER }),
    );
    const otp = await requestOtp(client, { credentialId: CREDENTIAL });
    expect(otp.otpEncryptionTargetBundle).toBe("bundle");
    expect(script.calls).toHaveLength(4);
    expect(elapsed()).toBeLessThan(120_000);
    expect(
      events.flatMap((event) =>
        event.type === "retry" ? [`${event.reason} ${event.code ?? ""}`.trim()] : [],
      ),
    ).toEqual(["transient NETWORK", "transient NETWORK", "processing"]);
  });

  it("the budget follows the client's retry.timeoutMs (a scaled-down client scales it too)", async () => {
    const { client, answers, took, elapsed } = setup({ timeoutMs: 12_000 });
    for (let i = 0; i < 20; i++) answers(took(3_000, PROCESSING));
    const error = (await settle(client).catch((e: unknown) => e)) as SignetError;
    expect(error).toMatchObject({
      code: "PROCESSING_TIMEOUT",
      retryable: true,
      details: { operation: "requestOtp", polls: expect.any(Number) },
    });
    // No wait was made that would have ended past the budget.
    expect(elapsed()).toBeLessThanOrEqual(12_000);
  });

  it("a caller's own budget wins over the policy's (a passkey verify's challenge lifetime)", async () => {
    const { client, answers, took, elapsed } = setup({ timeoutMs: 5_000 });
    for (let i = 0; i < 4; i++) answers(took(3_000, PROCESSING));
    answers(took(1_000, { status: 200, json: OTP_ANSWER }));
    await expect(settle(client, 60_000)).resolves.toEqual(OTP_ANSWER);
    expect(elapsed()).toBeGreaterThan(5_000);
  });

  it("a send's retries stop at the call's end with the send's own code, not PROCESSING_TIMEOUT", async () => {
    // Retries enough to outlast the budget: the budget, not the count, ends the call.
    const { client, answers, took, sendsAt } = setup({ retryCount: 10 });
    answers(took(1_000, PROCESSING));
    for (let i = 0; i < 10; i++) answers(took(30_000, "no answer"));
    const error = (await settle(client).catch((e: unknown) => e)) as SignetError;
    expect(error.code).toBe("NETWORK");
    // The PROCESSING answer, then the sends that started within the 120 s (no retry was left
    // to wait past them, though the policy allowed 10).
    expect(sendsAt.length).toBe(5);
    expect(sendsAt.every((at) => at < 120_000)).toBe(true);
  });

  it("the service answering PROCESSING for ever ends in PROCESSING_TIMEOUT at the budget", async () => {
    const { client, answers, took, sendsAt } = setup();
    for (let i = 0; i < 400; i++) answers(took(500, PROCESSING));
    await expect(settle(client)).rejects.toMatchObject({ code: "PROCESSING_TIMEOUT" });
    // Re-sent until the next wait would end past the budget, and not after.
    expect(sendsAt.every((at) => at < 120_000)).toBe(true);
    expect(sendsAt.at(-1)).toBeGreaterThan(110_000);
  });
});

describe("client.request within a caller's deadline", () => {
  it("gives each send the policy's budget or what is left of the deadline, whichever is less", async () => {
    const seen: (number | undefined)[] = [];
    const { client } = setup();
    const fake = {
      ...client,
      request: (async (request: { deadline?: number }) => {
        seen.push(request.deadline);
        return seen.length < 3 ? { status: "PROCESSING" } : OTP_ANSWER;
      }) as SignetClient["request"],
    } as SignetClient;
    const start = client.timer.now();
    await settle(fake);
    expect(seen).toEqual([start + 120_000, start + 120_000, start + 120_000]);
  });

  it("cuts an attempt that is still waiting at the deadline (TIMEOUT), in real time", async () => {
    const client = createClient({
      relayUrl: "https://relay.test/api/grid",
      keyStore: createMemoryKeyStore(),
      // An answer that never comes: only the attempt's own time limit ends it.
      fetch: (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener("abort", () => reject(init.signal?.reason), {
            once: true,
          });
        }),
    });
    const started = performance.now();
    await expect(
      client.request(
        { method: "GET", path: "/slow", deadline: client.timer.now() + 50 },
        { retry: { retryCount: 0 } },
      ),
    ).rejects.toMatchObject({ code: "TIMEOUT" });
    // The transport's own limit is 30 s; the deadline cut it at 50 ms.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
