import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import { isSignetError, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { sessionEnded } from "../session/listedSessions.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";

export type RevokeSessionParameters = CallOptions & {
  accountId: string;
  /** Any active session of the account, on this device or another (`Session:…`). */
  sessionId: string;
};
export type RevokeSessionReturnType = undefined;
export type RevokeSessionErrorType = SignetErrorOf<ActionErrorCode<"revokeSession">>;

/**
 * Whether a session DELETE failed because the session is no longer active: the service answers
 * 404, and a relay whose ownership lookup no longer finds the session answers 403.
 */
export const isSessionGone = (error: unknown): boolean =>
  isSignetError(error) && (error.status === 404 || error.code === "RELAY_FORBIDDEN");

/**
 * Revokes a session of the account, stamped by a held session (the revoked one itself if it is
 * the only one held). If this device holds the revoked session, its key is deleted, also when
 * the service says the session had already ended (that revoke then succeeds).
 *
 * @throws {SignetError} `NO_SESSION`, `NOT_FOUND` (not an active session, not held here), `NETWORK`.
 * @example
 * ```ts
 * await revokeSession(client, { accountId, sessionId: lostPhoneSession.id });
 * ```
 */
export async function revokeSession(
  client: SignetClient,
  parameters: RevokeSessionParameters,
): Promise<RevokeSessionReturnType> {
  const { accountId, sessionId } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  assertServiceId("sessionId", sessionId, "Session");
  const held = await client.sessions.list(accountId);
  const signer =
    held.find((s) => s.id !== sessionId) ?? (await requireSession(client, { accountId }));
  const mine = held.some((s) => s.id === sessionId);
  await client
    .signed(
      {
        operation: "revokeSession",
        ...at(SESSION_REVOKE, [sessionId]),
        sign: signWithSession(client, signer),
        checkPayload: revokeSessionPayload(client, { accountId }),
        // A revoke whose answer was lost: a session no longer listed has ended.
        resolveAmbiguous: sessionEnded(client, accountId, sessionId, parameters.signal),
        pending: {
          resumable: true,
          accountId,
          ...(mine ? { finish: { kind: "forgetSessions", accountId, sessionId } as const } : {}),
        },
      },
      parameters,
    )
    .catch((error: unknown) => {
      // A held session the service no longer knows would otherwise be picked to stamp every
      // request until it expires.
      if (!mine || !isSessionGone(error)) throw error;
    });
  if (mine) {
    await client.sessions.remove(accountId, sessionId);
    client.emit({ type: "session", action: "revoked", accountId, sessionId }, parameters.onEvent);
  }
}

/**
 * What ending a session signs (docs/protocol.md §11): the deletion of one API key. The ids in it
 * are the enclave's own, not the service's `Session:` ids, so only the type and the count bind.
 */
export function revokeSessionPayload(
  client: SignetClient,
  request: { accountId: string },
): CheckPayload {
  return expectActivity(client, request.accountId, [
    { types: ["ACTIVITY_TYPE_DELETE_API_KEYS"], counts: { apiKeyIds: 1 } },
  ]);
}

/** `DELETE /auth/sessions/{Session}`. */
export const SESSION_REVOKE = {
  method: "DELETE",
  path: "/auth/sessions/{Session}",
  expectedStatus: 204,
} as const satisfies ActionRoute;

/** revokeSession's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const revokeSessionRow = {
  summary: "revokes any session of the account",
  parameters: "`{ accountId, sessionId }`",
  resolvesTo: "`undefined`",
  requests: [
    {
      route: SESSION_REVOKE,
      signed: {
        signer: "session",
        check: revokeSessionPayload,
        signedBy: "any active session of the account, itself included",
      },
    },
  ],
  errors: { client: SESSION_SIGNED_ERRORS },
  hook: {
    kind: "mutation",
    name: "useRevokeSession",
    doc: "Ends a session of the account (`revokeSession`).",
    invalidates: ["sessions"],
  },
} as const satisfies ActionSourceRow;
