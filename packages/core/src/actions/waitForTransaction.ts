import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import type { RequestErrorCode, SignetError } from "../errors.js";
import type { CallOptions } from "../events.js";
import { pollUntil } from "../transport/pollUntil.js";
import { expectShape } from "../transport/responseShape.js";
import type { TransactionJson } from "../wire.js";

/** Transaction statuses that are still moving. Anything else is terminal. */
const PENDING = new Set(["CREATED", "PENDING", "PROCESSING", "SENT", "IN_PROGRESS"]);

export type WaitForTransactionParameters = CallOptions & {
  transactionId: string;
  /** Give up after this long. Default 5 minutes (sandbox withdrawals take 1–3 minutes). */
  timeoutMs?: number | undefined;
  /** Poll schedule. Default 1 s doubling to 10 s, with jitter. */
  backoff?: { baseMs?: number; maxMs?: number } | undefined;
};
export type WaitForTransactionReturnType = TransactionJson;
export type WaitForTransactionErrorType = SignetError<RequestErrorCode | "PROCESSING_TIMEOUT">;

/**
 * Polls `GET /transactions/{id}` until the transaction reaches a terminal status (`COMPLETED`,
 * `FAILED`, …) and returns it; check its `status`. Cancellable with `signal`.
 *
 * @throws {SignetError} `PROCESSING_TIMEOUT`, `ABORTED`, `NETWORK`.
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
    backoff = { baseMs: 1_000, maxMs: 10_000 },
    signal,
  } = assertCall(client, parameters);
  assertServiceId("transactionId", transactionId, "Transaction");
  return pollUntil(client, {
    operation: "waitForTransaction",
    timeoutMs,
    backoff,
    signal,
    attempt: async () => {
      const body = await client.request<unknown>(
        {
          method: "GET",
          path: `/transactions/${transactionId}`,
        },
        parameters,
      );
      const transaction = expectShape<TransactionJson>(body, ["id", "status"], "Transaction");
      return PENDING.has(transaction.status) ? undefined : transaction;
    },
  });
}
