// Follows a transaction to a terminal status on a fixed, documented schedule (docs/protocol.md §9:
// PENDING_AUTHORIZATION is not terminal).

import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import { assertArgument, type RequestErrorCode, SignetError } from "../errors.js";
import type { CallOptions } from "../events.js";
import { expectShape } from "../transport/responseShape.js";
import type { TransactionJson, TransactionStatus } from "../wire.js";

/**
 * Transaction statuses that are still moving. Anything else is terminal, including statuses
 * this version does not know, so that a new final status never keeps a caller waiting.
 */
const PENDING: ReadonlySet<string> = new Set<TransactionStatus>([
  "CREATED",
  "PENDING",
  // Awaiting the customer's Strong Customer Authentication: `authorizeQuote` releases it.
  "PENDING_AUTHORIZATION",
  "PROCESSING",
]);

/** The default wait between two polls: a settlement is seen within about a second. */
export const DEFAULT_POLLING_INTERVAL_MS = 1_000;

export type WaitForTransactionParameters = CallOptions & {
  transactionId: string;
  /** Give up after this long (on the device's own timer). Default 5 minutes (sandbox withdrawals take 1–3 minutes). */
  timeoutMs?: number | undefined;
  /**
   * The wait before each next poll, in ms: a number for a fixed interval, or a function of the
   * number of polls made so far (1, 2, …) for a schedule of your own, such as
   * `(n) => Math.min(250 * 2 ** n, 5_000)`. Default 1 000: a transaction that settles is
   * reported within about a second plus one round trip. Each poll is one `GET /transactions/{id}`.
   */
  pollingInterval?: number | ((polls: number) => number) | undefined;
};
export type WaitForTransactionReturnType = TransactionJson;
export type WaitForTransactionErrorType = SignetError<RequestErrorCode | "PROCESSING_TIMEOUT">;

/**
 * Polls `GET /transactions/{id}` until the transaction reaches a terminal status (`COMPLETED`,
 * `FAILED`, `REJECTED`, `REFUNDED`, `EXPIRED`, or one this version does not know) and returns it;
 * check its `status`. It keeps polling through `PENDING_AUTHORIZATION`, which `authorizeQuote`
 * ends. The first poll goes at once, the next after `pollingInterval`. Cancellable with `signal`.
 *
 * @throws {SignetError} `PROCESSING_TIMEOUT` (retryable: call again to keep waiting), `ABORTED`, `TRANSACTION_NOT_FOUND`, `NETWORK`, `INVALID_ARGUMENT`.
 * @example
 * ```ts
 * const tx = await waitForTransaction(client, { transactionId, signal: controller.signal });
 * if (tx.status !== "COMPLETED") showFailure(tx);
 * ```
 */
export async function waitForTransaction(
  client: SignetClient,
  parameters: WaitForTransactionParameters,
): Promise<WaitForTransactionReturnType> {
  const {
    transactionId,
    timeoutMs = 300_000,
    pollingInterval = DEFAULT_POLLING_INTERVAL_MS,
    signal,
  } = assertCall(client, parameters);
  assertServiceId("transactionId", transactionId, "Transaction");
  assertArgument(
    Number.isFinite(timeoutMs) && timeoutMs >= 0,
    "timeoutMs",
    "a number of milliseconds, 0 or more",
    String(timeoutMs),
  );
  const intervalAfter = (polls: number): number => {
    const ms = typeof pollingInterval === "function" ? pollingInterval(polls) : pollingInterval;
    assertArgument(
      Number.isFinite(ms) && ms >= 0,
      "pollingInterval",
      "a number of milliseconds, 0 or more",
      String(ms),
    );
    return ms;
  };
  intervalAfter(1);
  // Measured on the local timer: learning the service's clock mid-poll must not end the wait.
  const deadline = client.timer.now() + timeoutMs;
  for (let polls = 1; ; polls++) {
    const body = await client.request<unknown>(
      { method: "GET", path: `/transactions/${transactionId}` },
      parameters,
    );
    const transaction = expectShape<TransactionJson>(body, ["id", "status"], "Transaction");
    if (!PENDING.has(transaction.status)) return transaction;
    const delay = intervalAfter(polls);
    if (client.timer.now() + delay > deadline) {
      throw new SignetError("PROCESSING_TIMEOUT", "The transaction did not settle in time", {
        retryable: true,
        details: { polls, status: transaction.status },
      });
    }
    await client.sleep(delay, signal);
  }
}
