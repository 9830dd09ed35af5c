import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import type { SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { sessionEnded } from "../session/listedSessions.js";
import { signWithSession } from "../session/sessionSigner.js";
import { isSessionGone, revokeSessionPayload, SESSION_REVOKE } from "./revokeSession.js";
import { settlePossibleSessions } from "./settleSessions.js";

export type SignOutParameters = CallOptions & { accountId: string };
export type SignOutReturnType = undefined;
export type SignOutErrorType = SignetErrorOf<ActionErrorCode<"signOut">>;

/**
 * Signs this device out of the account: revokes every session it holds (each stamped by itself)
 * and deletes their keys. First it settles the sessions the device may have made without
 * holding them (a sign-in or refresh whose answer was lost and could not be read back): each is
 * proven by the key sent for it and revoked, so no session of this device stays usable at the
 * service. Keys are deleted even when the service cannot be reached or the session had already
 * ended; other errors are thrown after the local cleanup. A revoke whose answer was lost is
 * settled by the service's list: a session no longer listed has ended. Sign-outs of one
 * account at the same time (in this client, or in other tabs of the origin where Web Locks exist)
 * send one revoke per session: a caller in this client shares the running sign-out (the first
 * caller's signal and onEvent govern it), and a tab that waited for another tab's sign-out finds
 * the sessions gone from the shared key store and sends nothing (the `signedOut` events are the
 * other tab's).
 *
 * @throws {SignetError} `NETWORK` and other service errors, after the keys are deleted.
 * @example
 * ```ts
 * await signOut(client, { accountId });
 * ```
 */
export async function signOut(
  client: SignetClient,
  parameters: SignOutParameters,
): Promise<SignOutReturnType> {
  const { accountId } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  // One sign-out per account at a time across the origin's tabs, which share one key store.
  return client.coalesce(`signOut|${accountId}`, async (waited): Promise<SignOutReturnType> => {
    // Another tab may have signed out while this one waited for the lock: read the store again.
    if (waited) await client.sessions.sync();
    let failure = await settlePossibleSessions(client, { ...parameters, accountId });
    for (const session of await client.sessions.list(accountId)) {
      try {
        await client.signed(
          {
            operation: "signOut",
            ...at(SESSION_REVOKE, [session.id]),
            sign: signWithSession(client, session),
            checkPayload: revokeSessionPayload(client, { accountId }),
            resolveAmbiguous: sessionEnded(client, accountId, session.id, parameters.signal),
            pending: {
              resumable: true,
              accountId,
              finish: { kind: "forgetSessions", accountId, sessionId: session.id },
            },
          },
          parameters,
        );
      } catch (error) {
        // A session the service no longer knows is as signed out as it gets.
        if (!isSessionGone(error)) failure ??= error;
      }
      await client.sessions.remove(accountId, session.id);
      client.emit(
        { type: "session", action: "signedOut", accountId, sessionId: session.id },
        parameters.onEvent,
      );
    }
    if (failure !== undefined) throw failure;
  });
}

/** signOut's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const signOutRow = {
  summary:
    "revokes each session this device holds, and any a lost answer may have made; the keys are deleted even offline",
  parameters: "`{ accountId }`",
  resolvesTo: "`undefined`",
  requests: [
    {
      route: SESSION_REVOKE,
      signed: { signer: "session", check: revokeSessionPayload, signedBy: "the session itself" },
    },
  ],
  errors: { client: SESSION_SIGNED_ERRORS },
  hook: {
    kind: "mutation",
    name: "useSignOut",
    doc: "Ends this device's sessions of the account and deletes their keys (`signOut`).",
    invalidates: ["sessions"],
  },
} as const satisfies ActionSourceRow;
