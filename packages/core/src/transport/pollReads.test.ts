// A wait made of reads ends with its own limit (`pollReads`, through `waitForTransaction`): the
// first read runs whole, every later read and its retries are cut at the wait's end, and a cut
// read ends the wait in the retryable PROCESSING_TIMEOUT with the last status read. The reads are
// answered by a `fetch` of the test's own that honours the request's signal, on real timers; what
// is asserted is how the wait ended, never how long it took.
import { describe, expect, it } from "vitest";
import type { SignetError } from "../errors/errors.js";
import { createClient, createMemoryKeyStore, waitForTransaction } from "../index.js";
import type { RetryOptions } from "./retry.js";

const TRANSACTION = "Transaction:00000000-0000-4000-8000-000000000001";

type Read = (signal: AbortSignal | undefined) => Promise<Response>;

const answer = (status: number, json: unknown) =>
  new Response(JSON.stringify(json), {
    status,
    headers: { "content-type": "application/json" },
  });

/** Answered at once with the transaction in `status`. */
const now =
  (status: string): Read =>
  async () =>
    answer(200, { id: TRANSACTION, status });

/** Answered after `ms` with the transaction in `status`, unless the request is aborted first. */
const late =
  (ms: number, status: string): Read =>
  (signal) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(answer(200, { id: TRANSACTION, status })), ms);
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });

/** A client whose n-th read (from 1) is `reads[n - 1]`. */
function setup(reads: Read[], retry?: RetryOptions, random?: () => number) {
  let made = 0;
  const client = createClient({
    relayUrl: "https://relay.test/api/grid",
    keyStore: createMemoryKeyStore(),
    fetch: (_input, init) => {
      const read = reads[made++];
      if (read === undefined) throw new Error(`read ${made} was not expected`);
      return read(init?.signal ?? undefined);
    },
    ...(retry === undefined ? {} : { retry }),
    ...(random === undefined ? {} : { random }),
  });
  return { client, made: () => made };
}

const wait = (client: ReturnType<typeof setup>["client"], more: Record<string, unknown> = {}) =>
  waitForTransaction(client, { transactionId: TRANSACTION, pollingInterval: 20, ...more }).catch(
    (error: SignetError) => error,
  );

describe("pollReads: a wait's later reads end with it", () => {
  it("a later read unanswered at the wait's end is cut there: PROCESSING_TIMEOUT with the last status read", async () => {
    // The second read would answer COMPLETED, 3 s later: past the wait's 300 ms.
    const { client, made } = setup([now("PENDING"), late(3_000, "COMPLETED")]);
    const error = await wait(client, { timeoutMs: 300 });
    expect(error).toMatchObject({
      code: "PROCESSING_TIMEOUT",
      retryable: true,
      details: { polls: 2, status: "PENDING" },
    });
    expect(made()).toBe(2);
  });

  it("a later read's retries are cut too: a 503 whose retry would wait past the end ends the wait as its limit does", async () => {
    // The retry after the 503 waits 5 s (half its 10 s ceiling); the wait has 300 ms.
    const { client, made } = setup(
      [now("PENDING"), async () => answer(503, { code: "SERVICE_UNAVAILABLE" }), now("COMPLETED")],
      { backoff: { baseMs: 10_000 } },
      () => 0.5,
    );
    const error = await wait(client, { timeoutMs: 300 });
    expect(error).toMatchObject({
      code: "PROCESSING_TIMEOUT",
      details: { polls: 2, status: "PENDING" },
    });
    expect(made()).toBe(2);
  });

  it("the first read runs whole: timeoutMs 0 is a peek, one read whose status the error carries", async () => {
    const { client, made } = setup([late(200, "PENDING_AUTHORIZATION")]);
    const error = await wait(client, { timeoutMs: 0 });
    expect(error).toMatchObject({
      code: "PROCESSING_TIMEOUT",
      retryable: true,
      details: { polls: 1, status: "PENDING_AUTHORIZATION" },
    });
    expect(made()).toBe(1);
  });

  it("the caller's signal ends a later read with ABORTED, not with the wait's timeout", async () => {
    const controller = new AbortController();
    const { client } = setup([
      now("PENDING"),
      (signal) => {
        setTimeout(() => controller.abort(), 20);
        return late(3_000, "COMPLETED")(signal);
      },
    ]);
    const error = await wait(client, { timeoutMs: 10_000, signal: controller.signal });
    expect(error).toMatchObject({ code: "ABORTED" });
  });
});
