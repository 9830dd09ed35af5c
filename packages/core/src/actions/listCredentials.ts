import { assertCall, assertServiceId, query } from "../arguments.js";
import type { SignetClient } from "../client.js";
import type { RequestErrorCode, SignetError } from "../errors.js";
import type { CallOptions } from "../events.js";
import { expectList } from "../transport/responseShape.js";
import type { AuthMethodJson } from "../wire.js";

export type ListCredentialsParameters = CallOptions & { accountId: string };
export type ListCredentialsReturnType = AuthMethodJson[];
export type ListCredentialsErrorType = SignetError<RequestErrorCode>;

/**
 * Lists the credentials of an Embedded Wallet (`GET /auth/credentials?accountId=`).
 *
 * @throws {SignetError} `RELAY_FORBIDDEN` (not the user's account), `NETWORK`, `MALFORMED_RESPONSE`.
 * @example
 * ```ts
 * const credentials = await listCredentials(client, { accountId });
 * const email = credentials.find((c) => c.type === "EMAIL_OTP");
 * ```
 */
export async function listCredentials(
  client: SignetClient,
  parameters: ListCredentialsParameters,
): Promise<ListCredentialsReturnType> {
  const { accountId } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  const body = await client.request<unknown>(
    {
      method: "GET",
      path: `/auth/credentials${query({ accountId })}`,
    },
    parameters,
  );
  return expectList<AuthMethodJson>(body, ["id", "accountId", "type"], "credentials");
}
