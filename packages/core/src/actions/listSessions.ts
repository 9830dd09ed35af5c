import type { SignetClient } from "../client.js";
import type { SignetError } from "../errors.js";
import type { AuthSessionJson } from "../wire.js";
import { assertCall, assertServiceId, query } from "./arguments.js";
import { expectList } from "./responseShape.js";

export type ListSessionsParameters = { accountId: string; signal?: AbortSignal | undefined };
export type ListSessionsReturnType = AuthSessionJson[];
export type ListSessionsErrorType = SignetError;

/**
 * Lists the account's active sessions on every device (`GET /auth/sessions?accountId=`).
 *
 * @throws {SignetError} `RELAY_FORBIDDEN`, `NETWORK`, `MALFORMED_RESPONSE`.
 * @example
 * ```ts
 * const sessions = await listSessions(client, { accountId });
 * ```
 */
export async function listSessions(
  client: SignetClient,
  parameters: ListSessionsParameters,
): Promise<ListSessionsReturnType> {
  const { accountId, signal } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  const body = await client.request<unknown>({
    method: "GET",
    path: `/auth/sessions${query({ accountId })}`,
    ...(signal ? { signal } : {}),
  });
  return expectList<AuthSessionJson>(body, ["id", "accountId", "expiresAt"], "sessions");
}
