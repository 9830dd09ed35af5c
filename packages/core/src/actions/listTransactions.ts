// docs/protocol.md §7: the customer's transactions, newest first, one page at a time (the relay
// names the customer).

import { assertCall, query } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, SignetError, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { expectList } from "../transport/responseShape.js";
import type { TransactionJson, TransactionStatus } from "../transport/wire.js";

export type ListTransactionsParameters = CallOptions & {
  /** Only transactions in this status. */
  status?: TransactionStatus | undefined;
  /** `INCOMING` or `OUTGOING`. */
  type?: "INCOMING" | "OUTGOING" | undefined;
  /** Transactions of this account (an internal account id or another identifier the service knows). */
  accountIdentifier?: string | undefined;
  /** RFC 3339 bounds. */
  startDate?: string | undefined;
  endDate?: string | undefined;
  /** Page size, 1–100. Default 20 (the service's). */
  limit?: number | undefined;
  /** The `nextCursor` of the previous page. */
  cursor?: string | undefined;
  /** Default `desc` (newest first). */
  sortOrder?: "asc" | "desc" | undefined;
};
export type ListTransactionsReturnType = {
  transactions: TransactionJson[];
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor?: string | undefined;
};
export type ListTransactionsErrorType = SignetErrorOf<ActionErrorCode<"listTransactions">>;

/**
 * Lists the signed-in customer's transactions (`GET /transactions`), one page at a time.
 *
 * @throws {SignetError} `INVALID_ARGUMENT`, `RELAY_FORBIDDEN`, `NETWORK`.
 * @example
 * ```ts
 * let page = await listTransactions(client, { limit: 20 });
 * while (page.nextCursor) page = await listTransactions(client, { cursor: page.nextCursor });
 * ```
 */
export async function listTransactions(
  client: SignetClient,
  parameters: ListTransactionsParameters = {},
): Promise<ListTransactionsReturnType> {
  const p = assertCall(client, parameters);
  assertArgument(
    p.limit === undefined || (Number.isSafeInteger(p.limit) && p.limit >= 1 && p.limit <= 100),
    "limit",
    "an integer from 1 to 100",
    String(p.limit),
  );
  for (const name of ["startDate", "endDate"] as const) {
    const value = p[name];
    assertArgument(
      value === undefined || (typeof value === "string" && Number.isFinite(Date.parse(value))),
      name,
      "an RFC 3339 date-time",
      String(value),
    );
  }
  const body = await client.request<unknown>(
    {
      ...at(
        TRANSACTIONS_LIST,
        [],
        query({
          status: p.status,
          type: p.type,
          accountIdentifier: p.accountIdentifier,
          startDate: p.startDate,
          endDate: p.endDate,
          limit: p.limit === undefined ? undefined : String(p.limit),
          cursor: p.cursor,
          sortOrder: p.sortOrder,
        }),
      ),
    },
    parameters,
  );
  const transactions = expectList<TransactionJson>(body, ["id", "status"], "transactions");
  const { hasMore, nextCursor } = body as { hasMore?: unknown; nextCursor?: unknown };
  if (hasMore === true && (typeof nextCursor !== "string" || nextCursor === "")) {
    throw new SignetError("MALFORMED_RESPONSE", "The transactions list has more but no cursor");
  }
  return {
    transactions,
    ...(hasMore === true ? { nextCursor: nextCursor as string } : {}),
  };
}

/** `GET /transactions`. */
export const TRANSACTIONS_LIST = {
  method: "GET",
  path: "/transactions",
} as const satisfies ActionRoute;

/** listTransactions's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const listTransactionsRow = {
  chunk: "wallet",
  summary: "the customer's transactions, a page at a time (`nextCursor`)",
  parameters:
    "`{ status?, type?, accountIdentifier?, startDate?, endDate?, limit?, cursor?, sortOrder? }`",
  resolvesTo: "`{ transactions, nextCursor? }`",
  requests: [{ route: TRANSACTIONS_LIST }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "query",
    name: "useTransactions",
    reads: "transactions",
    doc: "A page of the customer's transactions (`listTransactions`); refetched after a payment. Pass the page's `nextCursor` as `cursor` for the next.",
  },
} as const satisfies ActionSourceRow;
