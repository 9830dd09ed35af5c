import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import type { SigningKey } from "../crypto/backend.js";
import { defined } from "../errors/defined.js";
import { SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import { isSignetError, SignetError, type SignetErrorOf } from "../errors/errors.js";
import {
  establishSession,
  parseAuthSession,
  sessionSigningKey,
} from "../session/establishSession.js";
import type { CallOptions } from "../session/events.js";
import { expiredSessionError } from "../session/expiry/sessionExpiry.js";
import { listSessionsJson } from "../session/listedSessions.js";
import { forgetPossibleSession, notePossibleSession } from "../session/possibleSessions.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import type { Session } from "../session/sessionStore.js";
import { revokeSessionPayload, SESSION_REVOKE } from "./revokeSession.js";
import { adoptProvenSession, refreshSessionPayload, SESSION_REFRESH } from "./settleSessions.js";

export type RefreshSessionParameters = CallOptions & {
  accountId: string;
  /** The held session to refresh. Default: the newest one. */
  sessionId?: string | undefined;
  /**
   * Use the deprecated legacy flow, as the service's own clients do: an uncompressed key, and a
   * session key made by the service and returned sealed to it (docs/protocol.md §4). Default false.
   */
  legacy?: boolean | undefined;
};
export type RefreshSessionReturnType = Session;
export type RefreshSessionErrorType = SignetErrorOf<ActionErrorCode<"refreshSession">>;

/**
 * Replaces a held session with a new one under a new client-held key, stamped by the current
 * session. The old key is deleted once the new session is stored (docs/protocol.md §8). If the device
 * is signed out of the account while the refresh runs, the new session is revoked instead of
 * held, and `NO_SESSION` is thrown. Concurrent refreshes of one session (in this client, or in
 * other tabs of the origin where Web Locks exist) make one request and share its result.
 *
 * A lapsed challenge starts over with a fresh one (as often as the retry policy allows), and so
 * does a refresh whose answer was lost while the service still lists the old session; once the
 * old session is gone, the refresh took effect and the session it made is adopted (proven by the
 * key sent for it). A session the service no longer lists, when no answer of this call was lost,
 * gives `SESSION_EXPIRED`; when one was and nothing could settle what happened, `OUTCOME_UNKNOWN`
 * (the key sent is kept, and the next sign-out revokes the session it may have made).
 *
 * @throws {SignetError} `NO_SESSION`, `SESSION_EXPIRED` (sign in again), `CHALLENGE_EXPIRED`,
 *   `OUTCOME_UNKNOWN`, `NETWORK`.
 * @example
 * ```ts
 * const session = await refreshSession(client, { accountId });
 * ```
 */
export async function refreshSession(
  client: SignetClient,
  parameters: RefreshSessionParameters,
): Promise<RefreshSessionReturnType> {
  const { accountId, sessionId, legacy = false } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  if (sessionId !== undefined) assertServiceId("sessionId", sessionId, "Session");
  const current = await requireSession(client, { accountId, sessionId });
  // One refresh per session at a time, in this client and across the origin's tabs: callers
  // meanwhile get the same new session (the first caller's signal and onEvent govern it).
  return client.coalesce(`refresh|${current.id}`, async (waited) => {
    if (waited) {
      // Another tab may have refreshed (or signed out) while this one waited for the lock.
      await client.sessions.sync();
      if (!(await client.sessions.list(accountId)).some((s) => s.id === current.id)) {
        // The newest held session (the other tab's), or NO_SESSION after a sign-out.
        const { key: _key, ...session } = await requireSession(client, { accountId });
        return session;
      }
    }
    const sent = legacy
      ? { legacy: await client.crypto.generateDecryptionKey() }
      : await client.crypto.generateSigningKey();
    const clientPublicKey = "legacy" in sent ? sent.legacy.publicKeyUncompressed : sent.publicKey;
    const startedAt = client.clock.now();
    // The key of a session adopted after a lost answer (see resolveAmbiguous), and whether the
    // key sent was noted as one whose session may exist unheld.
    let adoptedKey: SigningKey | undefined;
    let noted = false;
    const { body } = await client
      .signed(
        {
          operation: "refreshSession",
          ...at(SESSION_REFRESH, [current.id]),
          body: JSON.stringify({ clientPublicKey }),
          sign: signWithSession(client, current),
          checkPayload: refreshSessionPayload(client, { accountId, clientPublicKey }),
          parseBody: parseAuthSession,
          // A refresh whose answer was lost: while the service still lists the old session,
          // nothing happened and a fresh challenge is safe; once it is gone, the refresh took
          // effect, and the session it made is adopted only when the key sent for it proves
          // that session is its own (not in the legacy flow, whose key only the lost answer
          // carried). Until then the key is noted, so that a sign-out can end that session.
          resolveAmbiguous: async () => {
            if (!("legacy" in sent) && !noted) {
              noted = true;
              await notePossibleSession(client, {
                accountId,
                sinceMs: startedAt,
                key: sent,
                ...defined({ credentialId: current.credentialId }),
              });
            }
            const listed = await listSessionsJson(client, accountId, parameters.signal);
            if (listed.some((entry) => entry.id === current.id)) return "restart";
            if ("legacy" in sent) return undefined;
            const adopted = await adoptProvenSession(client, {
              operation: "refreshSession",
              accountId,
              listed,
              sinceMs: startedAt,
              key: sent,
              signal: parameters.signal,
              onEvent: parameters.onEvent,
            });
            if (adopted === undefined) return undefined;
            adoptedKey = adopted.key;
            return { status: 201, body: adopted.session };
          },
        },
        parameters,
      )
      .catch(async (error: unknown) => {
        // An outcome left open is not an expired session: the old one may be gone because this
        // very refresh ended it.
        if (isSignetError(error, "OUTCOME_UNKNOWN")) throw error;
        throw await expiredSessionError(client, error, current, parameters.signal);
      });
    if (noted) await forgetPossibleSession(client, accountId, clientPublicKey);
    const key = adoptedKey ?? (await sessionSigningKey(client, body, sent));
    if (!client.sessions.getSnapshot()[accountId]?.length) {
      // A sign-out (or the revoke of the last held session) ran meanwhile: holding the new session
      // would sign the device back in. A concurrent refresh of the same session is not this case:
      // it leaves a session held.
      await client
        .signed(
          {
            operation: "refreshSession",
            ...at(SESSION_REVOKE, [body.id]),
            sign: (payload) => client.crypto.stampPayload(payload, key),
            checkPayload: revokeSessionPayload(client, { accountId }),
            // No signal: the cleanup must run even when the call was cancelled.
          },
          { onEvent: parameters.onEvent },
        )
        .catch(() => {});
      throw new SignetError("NO_SESSION", "Signed out while the session was refreshed", {
        details: { accountId, sessionId: current.id },
      });
    }
    const { key: _key, ...session } = await establishSession(client, {
      onEvent: parameters.onEvent,
      session: body,
      key,
      credentialId: current.credentialId,
      action: "refreshed",
      // A refresh proves the key, not the user: the session keeps when its user last verified.
      verifiedAt: current.verifiedAt,
      verifiedAtService: current.verifiedAtService,
    });
    await client.sessions.remove(accountId, current.id);
    return session;
  });
}

/** refreshSession's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const refreshSessionRow = {
  chunk: "session",
  summary:
    "a new key per refresh, the old one deleted (`legacy: true` for a service-made one); revoked again if the device signed out meanwhile",
  parameters: "`{ accountId, sessionId?, legacy? }`",
  resolvesTo: "`Session`",
  requests: [
    {
      route: SESSION_REFRESH,
      signed: { signer: "session", check: refreshSessionPayload, signedBy: "the session itself" },
    },
    {
      route: SESSION_REVOKE,
      signed: {
        signer: "session",
        check: revokeSessionPayload,
        signedBy: "the new session itself",
      },
    },
  ],
  errors: { client: SESSION_SIGNED_ERRORS },
  hook: {
    kind: "mutation",
    name: "useRefreshSession",
    doc: "Replaces the session with a new one before it expires (`refreshSession`).",
    invalidates: ["sessions"],
  },
} as const satisfies ActionSourceRow;
