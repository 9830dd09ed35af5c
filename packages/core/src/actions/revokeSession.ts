import type { SignetClient } from "../client.js";
import type { SignetError } from "../errors.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import { assertCall, assertServiceId } from "./arguments.js";

export type RevokeSessionParameters = {
  accountId: string;
  /** Any active session of the account, on this device or another (`Session:…`). */
  sessionId: string;
  signal?: AbortSignal | undefined;
};
export type RevokeSessionErrorType = SignetError;

/**
 * Revokes a session of the account, stamped by a held session (the revoked one itself if it is
 * the only one held). If this device holds the revoked session, its key is deleted.
 *
 * @throws {SignetError} `NO_SESSION`, `NOT_FOUND` (not an active session), `NETWORK`.
 * @example
 * ```ts
 * await revokeSession(client, { accountId, sessionId: lostPhoneSession.id });
 * ```
 */
export async function revokeSession(
  client: SignetClient,
  parameters: RevokeSessionParameters,
): Promise<void> {
  const { accountId, sessionId, signal } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  assertServiceId("sessionId", sessionId, "Session");
  const held = await client.sessions.list(accountId);
  const signer =
    held.find((s) => s.id !== sessionId) ?? (await requireSession(client, { accountId }));
  await client.signed({
    operation: "revokeSession",
    method: "DELETE",
    path: `/auth/sessions/${sessionId}`,
    expectedStatus: 204,
    sign: signWithSession(client, signer),
    ...(signal ? { signal } : {}),
  });
  if (held.some((s) => s.id === sessionId)) {
    await client.sessions.remove(accountId, sessionId);
    client.emit({ type: "session", action: "revoked", accountId, sessionId });
  }
}
