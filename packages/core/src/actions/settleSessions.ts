// Sessions a sign-out must end besides those it holds (docs/architecture.md "Retries"): a sign-in
// or refresh that lost its answer may have made a session nobody holds; the device noted the key it
// sent (session/possibleSessions.ts), and a sign-out proves and revokes the session each one made.

import { at } from "../catalog/actionRow.js";
import type { SignetClient } from "../client.js";
import { defined } from "../errors/defined.js";
import type { CallOptions } from "../session/events.js";
import { listSessionsJson, sessionEnded } from "../session/listedSessions.js";
import { forgetPossibleSession, listPossibleSessions } from "../session/possibleSessions.js";
import type { AuthSessionJson } from "../transport/wire.js";
import { adoptProvenSession } from "./refreshSession.js";
import { revokeSessionPayload, SESSION_REVOKE } from "./revokeSession.js";

/**
 * Settles every key the device noted for a session it may have made in `accountId` (a sign-out
 * runs it first): the session each one made, if any, is proven and revoked, and the key is
 * forgotten either way. Returns the first failure (a request's, or the key store's), after
 * forgetting every key (a sign-out deletes keys even when the service cannot be reached).
 *
 * @throws never: it returns the failure.
 * @example
 * ```ts
 * const failure = await settlePossibleSessions(client, { accountId });
 * ```
 */
export async function settlePossibleSessions(
  client: SignetClient,
  parameters: CallOptions & { accountId: string },
): Promise<unknown> {
  const { accountId, signal, onEvent } = parameters;
  let possible: Awaited<ReturnType<typeof listPossibleSessions>>;
  try {
    possible = await listPossibleSessions(client, accountId);
  } catch (error) {
    return error;
  }
  let failure: unknown;
  let listed: AuthSessionJson[] | undefined;
  for (const entry of possible) {
    try {
      listed ??= await listSessionsJson(client, accountId, signal);
      const adopted = await adoptProvenSession(client, {
        operation: "signOut",
        accountId,
        listed,
        sinceMs: entry.sinceMs,
        key: entry.key,
        ...defined({ signal, onEvent }),
      });
      if (adopted !== undefined) {
        // Ended as a sign-out ends any session: stamped by itself.
        await client.signed(
          {
            operation: "signOut",
            ...at(SESSION_REVOKE, [adopted.session.id]),
            sign: (payload) => client.crypto.stampPayload(payload, adopted.key),
            checkPayload: revokeSessionPayload(client, { accountId }),
            resolveAmbiguous: sessionEnded(client, accountId, adopted.session.id, signal),
          },
          defined({ signal, onEvent }),
        );
        // The list changed: the proof ended one session and made another.
        listed = undefined;
      }
    } catch (error) {
      failure ??= error;
    }
    await forgetPossibleSession(client, accountId, entry.key.publicKey).catch((error: unknown) => {
      failure ??= error;
    });
  }
  return failure;
}
