import { assertCall, assertServiceId, query } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { SignetError, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { expectList } from "../transport/responseShape.js";
import type { InternalAccountJson } from "../transport/wire.js";

export type ListInternalAccountsParameters = CallOptions & {
  /**
   * The customer (`Customer:…`). Optional behind `@signet/relay`, which fills in the signed-in
   * user's customer (and refuses another's).
   */
  customerId?: string | undefined;
  /** Filter by type. Default `EMBEDDED_WALLET`. */
  type?: string | undefined;
};
export type ListInternalAccountsReturnType = InternalAccountJson[];
export type ListInternalAccountsErrorType = SignetErrorOf<ActionErrorCode<"listInternalAccounts">>;

/**
 * Lists the user's internal accounts with balances (`GET /customers/internal-accounts`), every
 * page of them.
 *
 * @throws {SignetError} `RELAY_FORBIDDEN` (another customer), `NETWORK`.
 * @example
 * ```ts
 * const [wallet] = await listInternalAccounts(client); // the signed-in user's, through the relay
 * ```
 */
export async function listInternalAccounts(
  client: SignetClient,
  parameters: ListInternalAccountsParameters = {},
): Promise<ListInternalAccountsReturnType> {
  const { customerId, type = "EMBEDDED_WALLET" } = assertCall(client, parameters);
  if (customerId !== undefined) assertServiceId("customerId", customerId, "Customer");
  // The service pages at 20 by default: every page is read, at 100 a page (docs/protocol.md §1).
  const accounts: InternalAccountJson[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body = await client.request<unknown>(
      {
        ...at(INTERNAL_ACCOUNTS_LIST, [], query({ customerId, type, limit: "100", cursor })),
      },
      parameters,
    );
    accounts.push(...expectList<InternalAccountJson>(body, ["id", "type"], "internal accounts"));
    const { hasMore, nextCursor } = body as { hasMore?: unknown; nextCursor?: unknown };
    if (hasMore !== true) return accounts;
    if (typeof nextCursor !== "string" || nextCursor === "" || cursors.has(nextCursor)) {
      throw new SignetError(
        "MALFORMED_RESPONSE",
        "The accounts list has more pages but no new cursor",
      );
    }
    cursors.add(nextCursor);
    cursor = nextCursor;
  }
  throw new SignetError("MALFORMED_RESPONSE", `The accounts list has more than ${MAX_PAGES} pages`);
}

/** At 100 accounts a page, far more than a customer has; a bound, so no answer loops forever. */
const MAX_PAGES = 50;

/** `GET /customers/internal-accounts`. */
export const INTERNAL_ACCOUNTS_LIST = {
  method: "GET",
  path: "/customers/internal-accounts",
} as const satisfies ActionRoute;

/** listInternalAccounts's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const listInternalAccountsRow = {
  summary: "the user's wallets with balances, every page",
  parameters:
    "`{ customerId?, type? }` (or none: the relay fills in the user's customer); every page",
  resolvesTo: "`InternalAccountJson[]`",
  requests: [{ route: INTERNAL_ACCOUNTS_LIST }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "query",
    name: "useInternalAccounts",
    reads: "balances",
    doc: "The customer's internal accounts with balances (`listInternalAccounts`); refetched after an execute.",
  },
} as const satisfies ActionSourceRow;
