// Follows a transaction to a terminal status on a fixed, documented schedule (docs/protocol.md §9:
// PENDING_AUTHORIZATION is not terminal).

import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, SignetError, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { DEFAULT_POLLING_INTERVAL_MS } from "../transport/pollingInterval.js";
import { pollReads } from "../transport/pollReads.js";
import { expectShape } from "../transport/responseShape.js";
import type { TransactionJson, TransactionStatus } from "../transport/wire.js";

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

export type WaitForTransactionParameters = CallOptions & {
  transactionId: string;
  /**
   * Give up after this long (on the device's own timer): `PROCESSING_TIMEOUT` with the last
   * status read. Default 5 minutes (sandbox withdrawals take 1–3 minutes). The first poll always
   * runs whole (under the request's own time limit), so `0` is a peek: one read, its status in
   * the error; every later poll, with its retries, is cut at this limit.
   */
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
export type WaitForTransactionErrorType = SignetErrorOf<ActionErrorCode<"waitForTransaction">>;

/**
 * Polls `GET /transactions/{id}` until the transaction reaches a terminal status (`COMPLETED`,
 * `FAILED`, `REJECTED`, `REFUNDED`, `EXPIRED`, or one this version does not know) and returns it;
 * check its `status`. It keeps polling through `PENDING_AUTHORIZATION`, which `authorizeQuote`
 * ends. The first poll goes at once, the next after `pollingInterval`; each wait is a `retry`
 * event (reason `processing`). A poll that gets no answer, a 5xx or a 429 is retried under the
 * client's retry policy (`retry` refines it). The wait ends within `timeoutMs`: a poll after the
 * first still unanswered then is cut there, and ends it as the limit does (the first runs whole,
 * so `timeoutMs: 0` is one read). Cancellable with `signal`.
 *
 * @throws {SignetError} `PROCESSING_TIMEOUT` (retryable: call again to keep waiting; `details.status` the last status read, `details.polls` the reads made), `ABORTED`, `TRANSACTION_NOT_FOUND`, `NETWORK`, `INVALID_ARGUMENT`, `MALFORMED_RESPONSE` (an answer about another transaction, `details.field: "id"`).
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
  const interval = (polls: number): number => {
    const ms = typeof pollingInterval === "function" ? pollingInterval(polls) : pollingInterval;
    assertArgument(
      Number.isFinite(ms) && ms >= 0,
      "pollingInterval",
      "a number of milliseconds, 0 or more",
      String(ms),
    );
    return ms;
  };
  interval(1);
  let last: TransactionJson | undefined;
  const { path } = at(TRANSACTION_GET, [transactionId]);
  return pollReads(client, {
    what: "The transaction",
    timeoutMs,
    signal,
    onEvent: parameters.onEvent,
    request: { method: "GET", path, operation: "waitForTransaction" },
    interval,
    details: () => ({ status: last?.status }),
    read: async (cut) => {
      last = expectShape<TransactionJson>(
        // A read: a dropped connection or a 5xx mid-wait is retried under the retry policy
        // (the client's, refined by `parameters.retry`), never the end of the wait. Every read
        // but the first, with its retries, ends with the wait (`cut`); the first runs whole.
        await client.request<unknown>(
          { method: "GET", path, operation: "waitForTransaction" },
          { ...parameters, signal: cut },
        ),
        ["id", "status"],
        "Transaction",
      );
      // The transaction asked for, and no other: another's status is never this payment's.
      if (last.id !== transactionId) {
        throw new SignetError("MALFORMED_RESPONSE", "The answer is about another transaction", {
          details: { field: "id" },
        });
      }
      return PENDING.has(last.status) ? undefined : last;
    },
  });
}

/** `GET /transactions/{Transaction}`. */
export const TRANSACTION_GET = {
  method: "GET",
  path: "/transactions/{Transaction}",
} as const satisfies ActionRoute;

/** waitForTransaction's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const waitForTransactionRow = {
  chunk: "payments",
  summary: "polls a transaction to a terminal status every `pollingInterval` (1 s by default)",
  parameters: "`{ transactionId, timeoutMs?, pollingInterval? }`",
  resolvesTo: "`TransactionJson` (terminal)",
  requests: [{ route: TRANSACTION_GET }],
  errors: { client: [REQUEST_ERRORS, "PROCESSING_TIMEOUT"] },
  hook: {
    kind: "query",
    name: "useTransaction",
    reads: "transactions",
    doc: "A transaction, followed until it settles (`waitForTransaction`): `isFetching` while it is under way, `data` once terminal.",
  },
} as const satisfies ActionSourceRow;
