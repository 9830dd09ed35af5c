import { assertCall, assertServiceId } from "../arguments/arguments.js";
import type { ActionSourceRow } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import type { SignetErrorOf } from "../errors/errors.js";
import type { Session } from "../session/sessionStore.js";

export type GetSessionParameters = { accountId: string };
export type GetSessionReturnType = Session | undefined;
export type GetSessionErrorType = SignetErrorOf<ActionErrorCode<"getSession">>;

/**
 * The newest unexpired session this device holds for the account, or `undefined`. Expired
 * sessions are dropped (and their keys deleted) on the way, and reported as `session` events.
 *
 * @throws {SignetError} `KEY_STORAGE_UNAVAILABLE`.
 * @example
 * ```ts
 * if (!(await getSession(client, { accountId }))) showSignIn();
 * ```
 */
export async function getSession(
  client: SignetClient,
  parameters: GetSessionParameters,
): Promise<GetSessionReturnType> {
  const { accountId } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  const [newest] = await client.sessions.list(accountId);
  if (!newest) return undefined;
  const { key: _key, ...session } = newest;
  return session;
}

/** getSession's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const getSessionRow = {
  summary: "the session this device holds for the account, from the key store",
  parameters: "`{ accountId }`",
  resolvesTo: "`Session | undefined` (the one this device holds)",
  requests: [],
  errors: { client: ["INVALID_ARGUMENT", "KEY_STORAGE_UNAVAILABLE", "KEY_INVALID"] },
  hook: {
    kind: "none",
    why: "`useSession` follows the client's session store instead (`useSyncExternalStore`)",
  },
} as const satisfies ActionSourceRow;
