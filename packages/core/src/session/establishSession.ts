// Turns a verify/refresh answer into a held session (docs/protocol.md §4, "clientPublicKey selects the flow").

import type { SignetClient } from "../client.js";
import type { DecryptionKey, SigningKey } from "../crypto/backend.js";
import { SignetError } from "../errors/errors.js";
import type { AuthSessionJson } from "../transport/wire.js";
import type { EventSink } from "./events.js";
import type { ActiveSession } from "./sessionStore.js";

export { AUTH_SESSION_FIELDS, parseAuthSession } from "./authSession.js";

/**
 * The session's signing key: the client-held one, or in the legacy flow the one opened from
 * `encryptedSessionSigningKey` with the decryption key sent as `clientPublicKey`.
 * @throws {SignetError} `MALFORMED_RESPONSE` (no sealed key in a legacy answer), bundle errors.
 */
export async function sessionSigningKey(
  client: SignetClient,
  session: AuthSessionJson,
  key: SigningKey | { legacy: DecryptionKey },
): Promise<SigningKey> {
  if (!("legacy" in key)) return key;
  if (!session.encryptedSessionSigningKey) {
    throw new SignetError(
      "MALFORMED_RESPONSE",
      "Legacy flow answer lacks encryptedSessionSigningKey",
    );
  }
  // A signer outside the page (`@signet/frame`) keeps the opened key where it opened it.
  if (client.crypto.openSessionSigningKey)
    return client.crypto.openSessionSigningKey({
      bundle: session.encryptedSessionSigningKey,
      key: key.legacy,
    });
  const scalar = await client.crypto.openSessionKeyBundle({
    bundle: session.encryptedSessionSigningKey,
    key: key.legacy,
  });
  try {
    return await client.crypto.importSigningKey(scalar);
  } finally {
    scalar.fill(0);
  }
}

/**
 * Now as a verification (`Session.verifiedAt`), on both clocks the step-up check judges: the
 * device's own (`client.timer`), which a service `Date` header does not move, and the service's
 * (`client.clock`), which a device date set back does not move.
 */
export const verifiedNow = (
  client: SignetClient,
): { verifiedAt: string; verifiedAtService: string } => ({
  verifiedAt: new Date(client.timer.now()).toISOString(),
  verifiedAtService: new Date(client.clock.now()).toISOString(),
});

/**
 * Holds the session: the client-held key, or in the legacy flow the key opened from
 * `encryptedSessionSigningKey` with `legacyKey`.
 */
export async function establishSession(
  client: SignetClient,
  parameters: {
    session: AuthSessionJson;
    key: SigningKey | { legacy: DecryptionKey };
    credentialId?: string | undefined;
    action?: "created" | "refreshed";
    /**
     * When the user last proved themselves (`Session.verifiedAt`): now (`verifiedNow`) for a
     * sign-in by passkey or code, the refreshed session's own for a refresh, absent otherwise.
     */
    verifiedAt?: string | undefined;
    /** The same moment on the service's clock (`Session.verifiedAtService`). */
    verifiedAtService?: string | undefined;
    /** The calling action's own sink, which also receives the `session` event. */
    onEvent?: EventSink | undefined;
  },
): Promise<ActiveSession> {
  const { session } = parameters;
  const key = await sessionSigningKey(client, session, parameters.key);
  const held = {
    id: session.id,
    accountId: session.accountId,
    ...(parameters.credentialId ? { credentialId: parameters.credentialId } : {}),
    expiresAt: new Date(Date.parse(session.expiresAt)).toISOString(),
    publicKey: key.publicKey,
    ...(parameters.verifiedAt ? { verifiedAt: parameters.verifiedAt } : {}),
    ...(parameters.verifiedAt && parameters.verifiedAtService
      ? { verifiedAtService: parameters.verifiedAtService }
      : {}),
  };
  await client.holdSession(held, key);
  client.emit(
    {
      type: "session",
      action: parameters.action ?? "created",
      accountId: held.accountId,
      sessionId: held.id,
      expiresAt: held.expiresAt,
    },
    parameters.onEvent,
  );
  return { ...held, key };
}
