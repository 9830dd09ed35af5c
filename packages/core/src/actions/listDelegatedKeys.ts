import type { SignetClient } from "../client.js";
import { assertArgument, type SignetError } from "../errors.js";
import type { DelegatedKeyJson } from "../wire.js";
import { assertCall, assertServiceId, query } from "./arguments.js";
import { DELEGATED_KEY_FIELDS } from "./createDelegatedKey.js";
import { expectList } from "./responseShape.js";

export type ListDelegatedKeysParameters = {
  accountId?: string | undefined;
  fundingSourceId?: string | undefined;
  signal?: AbortSignal | undefined;
};
export type ListDelegatedKeysReturnType = DelegatedKeyJson[];
export type ListDelegatedKeysErrorType = SignetError;

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
  const { accountId, fundingSourceId, signal } = assertCall(client, parameters);
  assertArgument(
    accountId !== undefined || fundingSourceId !== undefined,
    "accountId | fundingSourceId",
    "at least one",
    "neither",
  );
  if (accountId !== undefined) assertServiceId("accountId", accountId, "InternalAccount");
  if (fundingSourceId !== undefined)
    assertServiceId("fundingSourceId", fundingSourceId, "CardFundingSource");
  const body = await client.request<unknown>({
    method: "GET",
    path: `/auth/delegated-keys${query({ accountId, fundingSourceId })}`,
    ...(signal ? { signal } : {}),
  });
  return expectList<DelegatedKeyJson>(body, DELEGATED_KEY_FIELDS, "delegated keys");
}
