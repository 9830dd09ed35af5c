// The engine's one seam for pushes (`waitForPush`): raced with the wait after PROCESSING, once a
// leg; a push ends the wait and the next re-send collects the result; no push leaves the backoff;
// the caller's abort still ends the call, and stops the listener.
import { describe, expect, it } from "vitest";
import { challengeJson, fakeClock, scriptedFetch } from "../../../test/src/scriptedFetch.js";
import { isSignetError } from "../errors/errors.js";
import { abortedError } from "./abort.js";
import { createTransport } from "./http.js";
import {
  runSignedRequest,
  type SignedRequestEvent,
  type WalletOperationPush,
} from "./signedRequest.js";

const PROCESSING = { status: 200, json: { status: "PROCESSING" } };
const PATH = "/internal-accounts/InternalAccount:1/export";
const DONE = { status: 200, json: { id: "InternalAccount:1", encryptedWalletCredentials: "b" } };

/** A wait that ends only when its signal aborts (as `abortableSleep` does): only a push can end it. */
function endlessSleep() {
  const signals: AbortSignal[] = [];
  const sleep = (_ms: number, signal?: AbortSignal) =>
    new Promise<void>((_resolve, reject) => {
      if (signal) signals.push(signal);
      signal?.addEventListener("abort", () => reject(abortedError(signal)), { once: true });
    });
  return { sleep, signals };
}

function setup(replies: number) {
  const time = fakeClock();
  let requestId = "";
  const script = [
    (() => {
      const challenge = challengeJson(time.now);
      requestId = challenge.requestId;
      return { status: 202, json: challenge };
    })(),
    ...Array.from({ length: replies }, () => PROCESSING),
    DONE,
  ];
  const relay = scriptedFetch(script);
  const events: SignedRequestEvent[] = [];
  const base = {
    transport: createTransport({ relayUrl: "https://app.example/api/grid", fetch: relay.fetch }),
    sign: () => "STAMP",
    checkPayload: () => ({ known: true as const }),
    clock: time.clock,
    random: () => 0.5,
    method: "POST" as const,
    path: PATH,
    body: "{}",
    expectedStatus: 200,
    onEvent: (event: { type: string }) => {
      if (event.type === "signedRequest") events.push(event as SignedRequestEvent);
    },
  };
  return { relay, events, base, time, requestId: () => requestId };
}

const pushOf = (requestId: string): WalletOperationPush => ({
  requestId,
  operationType: "wallet.export",
  status: "completed",
  resourceId: "InternalAccount:1",
});

describe("waitForPush", () => {
  it("ends the wait after PROCESSING when the push comes; one re-send collects the result", async () => {
    const { relay, events, base, requestId } = setup(1);
    const { sleep, signals } = endlessSleep();
    const asked: { requestId: string; method: string; path: string }[] = [];
    const result = await runSignedRequest({
      ...base,
      sleep,
      waitForPush: async (id, _signal, request) => {
        asked.push({ requestId: id, method: request.method, path: request.path });
        return pushOf(id);
      },
    });
    expect(result.body).toEqual(DONE.json);
    expect(relay.calls).toHaveLength(3);
    expect(asked).toEqual([{ requestId: requestId(), method: "POST", path: PATH }]);
    // The wait was stopped, not slept out.
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    const pushed = events.find((event) => event.stage === "pushed");
    expect(pushed).toMatchObject({ push: pushOf(requestId()), requestId: requestId() });
  });

  it("leaves the backoff as it was when no push will come", async () => {
    const { relay, events, base, time } = setup(2);
    const heard: AbortSignal[] = [];
    const result = await runSignedRequest({
      ...base,
      sleep: time.sleep,
      waitForPush: async (_id, signal) => {
        heard.push(signal);
        return undefined;
      },
    });
    expect(result.body).toEqual(DONE.json);
    expect(relay.calls).toHaveLength(4);
    expect(time.sleeps).toEqual([250, 500]);
    expect(events.some((event) => event.stage === "pushed")).toBe(false);
    // Each listener is stopped when its wait ends.
    expect(heard.every((signal) => signal.aborted)).toBe(true);
  });

  it("is raced once a leg: after a push, a further PROCESSING waits the backoff", async () => {
    const { relay, base, time } = setup(2);
    let asked = 0;
    await runSignedRequest({
      ...base,
      sleep: time.sleep,
      waitForPush: async (id) => {
        asked++;
        return pushOf(id);
      },
    });
    expect(asked).toBe(1);
    expect(relay.calls).toHaveLength(4);
    // The first wait was cut short by the push (its sleep aborted at once); the second slept.
    expect(time.sleeps).toEqual([250, 500]);
  });

  it("still ends on the caller's abort, and stops the listener", async () => {
    const { base } = setup(1);
    const { sleep } = endlessSleep();
    const controller = new AbortController();
    let listening: AbortSignal | undefined;
    const run = runSignedRequest({
      ...base,
      sleep,
      signal: controller.signal,
      waitForPush: (_id, signal) => {
        listening = signal;
        setTimeout(() => controller.abort(), 5);
        return new Promise<undefined>(() => {});
      },
    });
    const error = await run.catch((caught: unknown) => caught);
    expect(isSignetError(error) && error.code).toBe("ABORTED");
    expect(listening?.aborted).toBe(true);
  });
});
