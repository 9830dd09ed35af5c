// Picks the held session a signed endpoint needs (docs/protocol.md §2, "Which key signs") and stamps
// with it, refusing to stamp with a session that has expired.
import type { SignetClient } from "../client.js";
import { SignetError } from "../errors/errors.js";
import type { SignPayload } from "../transport/signedRequest.js";
import { isExpired } from "./expiry/lapse.js";
import type { ActiveSession } from "./sessionStore.js";

export type RequireSessionParameters = {
  accountId: string;
  /** A specific held session. */
  sessionId?: string | undefined;
  /** Skip sessions issued by this credential (credential revoke needs another one). */
  excludeCredentialId?: string | undefined;
};

/**
 * The newest held, unexpired session of an account that fits.
 * @throws {SignetError} `NO_SESSION` when none fits (sign in first).
 */
export async function requireSession(
  client: SignetClient,
  { accountId, sessionId, excludeCredentialId }: RequireSessionParameters,
): Promise<ActiveSession> {
  const held = await client.sessions.list(accountId);
  const session = held.find(
    (s) =>
      (sessionId === undefined || s.id === sessionId) &&
      (excludeCredentialId === undefined ||
        (s.credentialId !== undefined && s.credentialId !== excludeCredentialId)),
  );
  if (session) return session;
  throw new SignetError(
    "NO_SESSION",
    excludeCredentialId === undefined
      ? "No session on this device for this account: sign in first"
      : "This needs a session from another credential of the account: sign in with it first",
    { details: { accountId, ...(sessionId ? { sessionId } : {}) } },
  );
}

/**
 * A `SignPayload` that stamps with `session`'s key, checking expiry at the moment of signing, and
 * notes which session stamped which request: a 401 that ends it clears that session
 * (`SessionStore.ended`).
 */
export function signWithSession(client: SignetClient, session: ActiveSession): SignPayload {
  return (payload, context) => {
    // Expired by both clocks (the service's and the device's), or `list` would have asked.
    if (isExpired(session, Math.min(client.clock.now(), client.timer.now()))) {
      throw new SignetError("SESSION_EXPIRED", "The session expired: sign in again", {
        details: { accountId: session.accountId, sessionId: session.id },
      });
    }
    const { key: _key, ...signer } = session;
    client.sessions.noteSignature(signer, context);
    return client.crypto.stampPayload(payload, session.key);
  };
}
