import { assertCall, assertServiceId, query } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import type { SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { expectList } from "../transport/responseShape.js";
import type { AuthSessionJson } from "../transport/wire.js";

export type ListSessionsParameters = CallOptions & { accountId: string };
export type ListSessionsReturnType = AuthSessionJson[];
export type ListSessionsErrorType = SignetErrorOf<ActionErrorCode<"listSessions">>;

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
  const { accountId } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  const body = await client.request<unknown>(
    {
      ...at(SESSIONS_LIST, [], query({ accountId })),
    },
    parameters,
  );
  return expectList<AuthSessionJson>(body, ["id", "accountId", "expiresAt"], "sessions");
}

/** `GET /auth/sessions`. */
export const SESSIONS_LIST = {
  method: "GET",
  path: "/auth/sessions",
} as const satisfies ActionRoute;

/** listSessions's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const listSessionsRow = {
  summary: "every active session the service knows for the account, on any device",
  parameters: "`{ accountId }`",
  resolvesTo: "`AuthSessionJson[]`",
  requests: [{ route: SESSIONS_LIST }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "query",
    name: "useSessions",
    reads: "sessions",
    doc: "The account's active sessions (`listSessions`); refetched after sign-in, refresh, revoke and sign-out.",
  },
} as const satisfies ActionSourceRow;
