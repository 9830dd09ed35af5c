// waitForTransaction's schedule over real HTTP: the client's `sleep` seam moves the emulator's clock
// forward instead of waiting, so "a settlement is seen within one polling interval" is checked
// on emulator time, exactly, whatever the load on the machine.
import {
  DEFAULT_POLLING_INTERVAL_MS,
  executeQuote,
  getQuote,
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
