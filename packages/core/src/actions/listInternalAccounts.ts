import { assertCall, assertServiceId, query } from "../arguments.js";
import type { SignetClient } from "../client.js";
import type { RequestErrorCode, SignetError } from "../errors.js";
import type { CallOptions } from "../events.js";
import { expectList } from "../transport/responseShape.js";
import type { InternalAccountJson } from "../wire.js";

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
export type ListInternalAccountsErrorType = SignetError<RequestErrorCode>;

/**
 * Lists the user's internal accounts with balances (`GET /customers/internal-accounts`).
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
  const body = await client.request<unknown>(
    {
      method: "GET",
      path: `/customers/internal-accounts${query({ customerId, type })}`,
    },
    parameters,
  );
  return expectList<InternalAccountJson>(body, ["id", "type"], "internal accounts");
}
