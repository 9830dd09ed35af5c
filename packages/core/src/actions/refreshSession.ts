import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import { SignetError, type SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import {
  establishSession,
  parseAuthSession,
  sessionSigningKey,
} from "../session/establishSession.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import type { Session } from "../session/sessionStore.js";
import { type CheckPayload, expectActivity, hexValue } from "../transport/payloadCheck.js";
import type { AuthSessionJson } from "../wire.js";
import type { ActionErrorCode } from "./errorCodes.js";
import { revokeSessionPayload } from "./revokeSession.js";
import { expiredSessionError } from "./sessionExpiry.js";

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
 * A lapsed challenge starts over once with a fresh one, and so does a refresh whose answer was
 * lost; a session the service no longer lists (expired on its clock) gives `SESSION_EXPIRED`.
 *
 * @throws {SignetError} `NO_SESSION`, `SESSION_EXPIRED` (sign in again), `CHALLENGE_EXPIRED`, `NETWORK`.
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
    const { body } = await client
      .signed(
        {
          operation: "refreshSession",
          method: "POST",
          path: `/auth/sessions/${current.id}/refresh`,
          body: JSON.stringify({ clientPublicKey }),
          expectedStatus: 201,
          sign: signWithSession(client, current),
          checkPayload: refreshSessionPayload(client, { accountId, clientPublicKey }),
          parseBody: parseAuthSession,
          // A refresh that went unanswered: while the service still lists the old session,
          // nothing happened and a fresh challenge is safe; once it is gone, the refresh took
          // effect and the one session made since is adopted (not in the legacy flow, whose
          // key only the lost answer carried).
          resolveAmbiguous: async () => {
            const listed = await listSessionsJson(client, accountId, parameters.signal);
            if (listed.some((entry) => entry.id === current.id)) return "restart";
            const made = legacy ? undefined : newSessionSince(client, accountId, listed, startedAt);
            return made === undefined ? undefined : { status: 201, body: made };
          },
        },
        parameters,
      )
      .catch(async (error: unknown) => {
        throw await expiredSessionError(client, error, current, parameters.signal);
      });
    const key = await sessionSigningKey(client, body, sent);
    if (!client.sessions.getSnapshot()[accountId]?.length) {
      // A sign-out (or the revoke of the last held session) ran meanwhile: holding the new session
      // would sign the device back in. A concurrent refresh of the same session is not this case:
      // it leaves a session held.
      await client
        .signed(
          {
            operation: "refreshSession",
            method: "DELETE",
            path: `/auth/sessions/${body.id}`,
            expectedStatus: 204,
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
    });
    await client.sessions.remove(accountId, current.id);
    return session;
  });
}

/**
 * What a refresh signs (docs/protocol.md §11): a read-write session for the key this device just
 * made, exactly as sent (compressed, or uncompressed in the legacy flow). Any other target key
 * would hand the new session to whoever holds that key.
 */
export function refreshSessionPayload(
  client: SignetClient,
  request: { accountId: string; clientPublicKey: string },
): CheckPayload {
  return expectActivity(client, request.accountId, [
    {
      types: ["ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2"],
      equals: { targetPublicKey: hexValue(request.clientPublicKey) },
    },
  ]);
}

/** The account's sessions as the service lists them (a read, retried under the policy). */
async function listSessionsJson(
  client: SignetClient,
  accountId: string,
  signal: AbortSignal | undefined,
): Promise<AuthSessionJson[]> {
  const listed = await client.request<{ data?: unknown }>(
    { method: "GET", path: `/auth/sessions?accountId=${encodeURIComponent(accountId)}` },
    { signal },
  );
  return Array.isArray(listed?.data) ? listed.data.flatMap(readSession) : [];
}

function readSession(entry: unknown): AuthSessionJson[] {
  try {
    return [parseAuthSession(entry)];
  } catch {
    return [];
  }
}

/**
 * The one session of `listed` that this device does not hold and that was made since
 * `sinceMs` (service time, a minute of slack): the session an unanswered sign-in or refresh
 * made. `undefined` when there is none, or more than one (another device signed in meanwhile:
 * adopting the wrong id would be worse than asking the user again).
 *
 * @throws never.
 * @example
 * ```ts
 * const made = newSessionSince(client, accountId, await listSessionsJson(...), startedAt);
 * ```
 */
export function newSessionSince(
  client: SignetClient,
  accountId: string,
  listed: readonly AuthSessionJson[],
  sinceMs: number,
): AuthSessionJson | undefined {
  const held = new Set((client.sessions.getSnapshot()[accountId] ?? []).map((s) => s.id));
  const made = listed.filter(
    (entry) => !held.has(entry.id) && Date.parse(entry.createdAt) >= sinceMs - 60_000,
  );
  return made.length === 1 ? made[0] : undefined;
}

/**
 * Finds the session an unanswered sign-in made for this device, by listing the account's
 * sessions (see {@link newSessionSince}).
 *
 * @throws {SignetError} what the read throws.
 * @example
 * ```ts
 * const made = await findNewSession(client, { accountId, sinceMs, signal });
 * ```
 */
export async function findNewSession(
  client: SignetClient,
  parameters: { accountId: string; sinceMs: number; signal?: AbortSignal | undefined },
): Promise<AuthSessionJson | undefined> {
  const listed = await listSessionsJson(client, parameters.accountId, parameters.signal);
  return newSessionSince(client, parameters.accountId, listed, parameters.sinceMs);
}
