import { assertCall, assertServiceId, query } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { expectList } from "../transport/responseShape.js";
import type { DelegatedKeyJson } from "../transport/wire.js";
import { DELEGATED_KEY_FIELDS } from "./createDelegatedKey.js";

export type ListDelegatedKeysParameters = CallOptions & {
  accountId?: string | undefined;
  fundingSourceId?: string | undefined;
};
export type ListDelegatedKeysReturnType = DelegatedKeyJson[];
export type ListDelegatedKeysErrorType = SignetErrorOf<ActionErrorCode<"listDelegatedKeys">>;

/**
 * Lists delegated keys by wallet and/or funding source (at least one), PENDING and REVOKED included.
 *
 * @throws {SignetError} `INVALID_ARGUMENT`, `RELAY_FORBIDDEN`, `NETWORK`.
 * @example
 * ```ts
 * const keys = await listDelegatedKeys(client, { accountId });
 * ```
 */
export async function listDelegatedKeys(
  client: SignetClient,
  parameters: ListDelegatedKeysParameters,
): Promise<ListDelegatedKeysReturnType> {
  const { accountId, fundingSourceId } = assertCall(client, parameters);
  assertArgument(
    accountId !== undefined || fundingSourceId !== undefined,
    "accountId | fundingSourceId",
    "at least one",
    "neither",
  );
  if (accountId !== undefined) assertServiceId("accountId", accountId, "InternalAccount");
  if (fundingSourceId !== undefined)
    assertServiceId("fundingSourceId", fundingSourceId, "CardFundingSource");
  const body = await client.request<unknown>(
    {
      ...at(DELEGATED_KEYS_LIST, [], query({ accountId, fundingSourceId })),
    },
    parameters,
  );
  return expectList<DelegatedKeyJson>(body, DELEGATED_KEY_FIELDS, "delegated keys");
}

/** `GET /auth/delegated-keys`. */
export const DELEGATED_KEYS_LIST = {
  method: "GET",
  path: "/auth/delegated-keys",
} as const satisfies ActionRoute;

/** listDelegatedKeys's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const listDelegatedKeysRow = {
  chunk: "wallet",
  summary: "the delegated keys of an account or a funding source, every status",
  parameters: "`{ accountId?, fundingSourceId? }`",
  resolvesTo: "`DelegatedKeyJson[]`",
  requests: [{ route: DELEGATED_KEYS_LIST }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "query",
    name: "useDelegatedKeys",
    reads: "delegatedKeys",
    doc: "The account's delegated keys (`listDelegatedKeys`).",
  },
} as const satisfies ActionSourceRow;
