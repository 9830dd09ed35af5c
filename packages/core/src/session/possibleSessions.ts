// Sessions this device may have made without knowing it (docs/architecture.md "Retries"): a sign-in
// or refresh whose answer was lost may have made a session for the key it sent, which the device
// then does not hold. Each such key is kept in the key store, beside the held sessions, until the
// session it may have made is adopted or revoked (the next sign-out settles what is left), so that
// no session stays usable at the service with nobody holding it.
import type { SignetClient } from "../client.js";
import type { SigningKey } from "../crypto/backend.js";
import {
  possibleSessionId as idOf,
  POSSIBLE_PREFIX as PREFIX,
  readPossibleSessionId as read,
} from "./possibleSessionIds.js";

/** A key whose session the device may have made and does not hold. */
export type PossibleSession = {
  accountId: string;
  /** The credential the call signed in with, when it was a sign-in. */
  credentialId?: string;
  /** When the call that sent the key began, on the service's clock (epoch ms). */
  sinceMs: number;
  key: SigningKey;
};

/**
 * Keeps `key` as one whose session the device may have made: the call that sent it lost an
 * answer that may have made one. Idempotent; a key store that cannot be written loses nothing
 * but this note (the session, if any, then ends by itself at its expiry).
 *
 * @throws never.
 * @example
 * ```ts
 * await notePossibleSession(client, { accountId, sinceMs: startedAt, key });
 * ```
 */
export async function notePossibleSession(
  client: SignetClient,
  entry: PossibleSession,
): Promise<void> {
  try {
    await (await client.keyStore()).set(idOf(entry, entry.key.publicKey), entry.key.toRecord());
  } catch {
    // Best effort: see above.
  }
}

/**
 * The keys of `accountId` whose sessions the device may have made, oldest first. A key that can
 * no longer be read is dropped.
 *
 * @throws {SignetError} what reading the key store throws.
 * @example
 * ```ts
 * for (const possible of await listPossibleSessions(client, accountId)) settle(possible);
 * ```
 */
export async function listPossibleSessions(
  client: SignetClient,
  accountId: string,
): Promise<PossibleSession[]> {
  const store = await client.keyStore();
  const found: PossibleSession[] = [];
  for (const id of await store.list()) {
    if (!id.startsWith(PREFIX)) continue;
    const { publicKey: _publicKey, ...entry } = read(id);
    if (entry.accountId !== accountId) continue;
    const record = await store.get(id);
    try {
      if (record === undefined) continue;
      found.push({ ...entry, key: await client.crypto.restoreSigningKey(record) });
    } catch {
      await store.delete(id);
    }
  }
  return found.sort((a, b) => a.sinceMs - b.sinceMs);
}

/**
 * Forgets `publicKey` as a possible session's key of `accountId`: its session is held, revoked,
 * or proven never made.
 *
 * @throws {SignetError} what writing the key store throws.
 * @example
 * ```ts
 * await forgetPossibleSession(client, accountId, key.publicKey);
 * ```
 */
export async function forgetPossibleSession(
  client: SignetClient,
  accountId: string,
  publicKey: string,
): Promise<void> {
  const store = await client.keyStore();
  for (const id of await store.list()) {
    if (!id.startsWith(PREFIX)) continue;
    const entry = read(id);
    if (entry.accountId === accountId && entry.publicKey === publicKey) await store.delete(id);
  }
}
