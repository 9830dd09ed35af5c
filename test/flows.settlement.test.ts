// waitForTransaction's schedule over real HTTP: the client's `sleep` seam moves the emulator's clock
// forward instead of waiting, so "a settlement is seen within one polling interval" is checked
// on emulator time, exactly, whatever the load on the machine.
import {
  DEFAULT_POLLING_INTERVAL_MS,
  executeQuote,
  getQuote,
  type SignetClient,
  SignetError,
  waitForTransaction,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  // Settles 2.5 s of emulator time after execute.
  stack = await startStack({ settlementDelayMs: 2_500 });
});
afterAll(() => stack?.close());

/** A client whose waits advance the emulator's clock, recording each one. */
async function executedPayment() {
  const user = await stack.signUp();
  const waits: number[] = [];
  const { client } = stack.client(user.customerId, {
    sleep: async (ms) => {
      waits.push(ms);
      await fetch(`${stack.emulator.url}/_emulator/clock`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ advanceMs: ms }),
      });
    },
  });
  await signInWithEmail(client, user.emailCredentialId);
  const { quoteId } = await stack.walletQuote(user);
  const executed = await executeQuote(client, { quote: await getQuote(client, { quoteId }) });
  const emulatorNow = async () =>
    Date.parse(
      ((await (await fetch(`${stack.emulator.url}/_emulator/clock`)).json()) as { now: string })
        .now,
    );
  return { client, waits, transactionId: executed.transactionId!, emulatorNow };
}

describe("waitForTransaction: the polling schedule", () => {
  it("polls every second by default and reports a settlement within one interval of it", async () => {
    expect(DEFAULT_POLLING_INTERVAL_MS).toBe(1_000);
    const { client, waits, transactionId, emulatorNow } = await executedPayment();
    const transaction = await waitForTransaction(client, { transactionId });
    expect(transaction.status).toBe("COMPLETED");
    expect(waits).toEqual([1_000, 1_000, 1_000]);
    const seenAt = await emulatorNow();
    const settledAt = Date.parse(transaction.settledAt as string);
    expect(seenAt - settledAt).toBeGreaterThanOrEqual(0);
    // Real time also passes between the polls (each a round trip): allow that, not a second interval.
    expect(seenAt - settledAt).toBeLessThan(DEFAULT_POLLING_INTERVAL_MS + 5_000);
  });

  it("follows a schedule of the caller's, given as a function of the polls made", async () => {
    const { client, waits, transactionId } = await executedPayment();
    await waitForTransaction(client, { transactionId, pollingInterval: (n) => 250 * 2 ** n });
    expect(waits).toEqual([500, 1_000, 2_000]);
  });

  it("refuses a schedule that is not a number of milliseconds, before any request", async () => {
    const { client, transactionId } = await executedPayment();
    for (const pollingInterval of [-1, Number.NaN, () => Number.POSITIVE_INFINITY]) {
      const error = await waitForTransaction(client, { transactionId, pollingInterval }).catch(
        (e) => e,
      );
      expect(error).toBeInstanceOf(SignetError);
      expect(error.code).toBe("INVALID_ARGUMENT");
    }
  });
});

describe("waitForTransaction: a read that hangs ends with the wait", () => {
  /**
   * Holds the second read of the wait that follows for 20 s; the first is answered at once. A
   * peek first (one read, `timeoutMs: 0`) lets the relay learn that the transaction is the
   * customer's, so that each read of the wait is one request to the service; it returns the
   * status the peek read.
   */
  async function holdSecondRead(client: SignetClient, transactionId: string) {
    const peek = await waitForTransaction(client, { transactionId, timeoutMs: 0 }).catch((e) => e);
    expect(peek.code).toBe("PROCESSING_TIMEOUT");
    const match = { method: "GET", path: `/transactions/${transactionId}` };
    await stack.fault({ match, kind: "delay", ms: 0 });
    await stack.fault({ match, kind: "delay", ms: 20_000 });
    return peek.details.status as string;
  }

  /** The delays still armed for the transaction (none once both reads have been held). */
  const armedDelays = async (transactionId: string) =>
    (
      (await (await fetch(`${stack.emulator.url}/_emulator/faults`)).json()) as {
        data: { kind: string; match?: { path?: string } }[];
      }
    ).data.filter((f) => f.kind === "delay" && f.match?.path?.endsWith(transactionId)).length;

  it("cuts a later read at the wait's end: the retryable PROCESSING_TIMEOUT with the last status read, within timeoutMs", async () => {
    const { client, transactionId } = await executedPayment();
    // Settles 2.5 s of emulator time after execute: one polling interval (1 s) later it is still
    // moving, so the wait makes a second read, and that read gets no answer for 20 s.
    const before = await holdSecondRead(client, transactionId);
    expect(["CREATED", "PENDING", "PROCESSING"]).toContain(before);
    const started = performance.now();
    const error = await waitForTransaction(client, { transactionId, timeoutMs: 1_500 }).catch(
      (e) => e,
    );
    const took = performance.now() - started;
    expect(error).toBeInstanceOf(SignetError);
    expect(error.code).toBe("PROCESSING_TIMEOUT");
    expect(error.retryable).toBe(true);
    // Two reads made, the second cut; the status is the first's, the only one read.
    expect(error.details).toEqual({ polls: 2, status: before });
    // Both delays were taken: the held read was sent, and its answer was 20 s away.
    expect(await armedDelays(transactionId)).toBe(0);
    // The wait's own limit, with room for a loaded machine; far below the held read's 20 s.
    expect(took).toBeLessThan(1_500 + 1_500);
  }, 40_000);

  it("the caller's signal still ends a held read with ABORTED (the cut is the wait's alone)", async () => {
    const { client, transactionId } = await executedPayment();
    await holdSecondRead(client, transactionId);
    const controller = new AbortController();
    const waiting = waitForTransaction(client, {
      transactionId,
      timeoutMs: 10_000,
      signal: controller.signal,
    }).catch((e) => e);
    // Aborted once the held read has reached the emulator (both delays taken).
    while ((await armedDelays(transactionId)) > 0) await new Promise((r) => setTimeout(r, 20));
    const aborted = performance.now();
    controller.abort();
    const error = await waiting;
    expect(error).toBeInstanceOf(SignetError);
    expect(error.code).toBe("ABORTED");
    expect(performance.now() - aborted).toBeLessThan(1_500);
  }, 40_000);
});
