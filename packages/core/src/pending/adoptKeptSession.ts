// A kept sign-in's finish (docs/protocol.md §2.5): the verify a reload carried on has answered its
// session, which the device adopts as `verifyOtp` would have, under the one-time key it noted
// before the call was first kept. The key never left the key store (a non-extractable record,
// noted as a key whose session this device may have made); the kept copy names only its public
// key. In the resume's chunk, with the client's parts as seams so that no import reaches back to
// the client.
import type { SigningKey, SigningKeyRecord } from "../crypto/backend.js";
import { base64UrlDecode } from "../crypto/base64url-decode.js";
import { utf8Decode } from "../crypto/encoding.js";
import { SignetError } from "../errors/errors.js";
import type { KeyStore } from "../keys/key-store.js";
import { parseAuthSession } from "../session/authSession.js";
import type { EventSink, SignetEvent } from "../session/events.js";
import { POSSIBLE_PREFIX, readPossibleSessionId } from "../session/possibleSessionIds.js";
import type { Session } from "../session/sessionStore.js";
import type { KeptCall, PendingFinish } from "./pendingStore.js";

/** A kept sign-in's finish. */
export type AdoptFinish = Extract<PendingFinish, { kind: "adoptSession" }>;

/** The client's parts a kept sign-in's finish uses. */
export type AdoptSeams = {
  keyStore: () => Promise<KeyStore>;
  restore: (record: SigningKeyRecord) => Promise<SigningKey>;
  /** Holds a session (the client's `holdSession`). */
  hold: (session: Session, key: SigningKey) => Promise<void>;
  emit: (event: SignetEvent, onEvent?: EventSink) => void;
  /** The service's clock (the client's `clock`) and the device's own (`timer`). */
  now: () => number;
  deviceNow: () => number;
};

/**
 * The one-time key a kept sign-in noted, restored from the key store.
 * @throws {SignetError} `KEY_NOT_FOUND` when the key store no longer holds it (or its record is
 *   another key); what the key store throws.
 */
export async function notedKey(
  seams: Pick<AdoptSeams, "keyStore" | "restore">,
  finish: AdoptFinish,
): Promise<SigningKey> {
  const store = await seams.keyStore();
  const [noted] = await notesOf(store, finish);
  const record = noted === undefined ? undefined : await store.get(noted);
  if (record === undefined)
    throw new SignetError("KEY_NOT_FOUND", "The resumed sign-in's one-time key is not stored");
  const key = await seams.restore(record);
  // A note whose record is another key is no note of this key.
  if (key.publicKey.toLowerCase() !== finish.publicKey.toLowerCase())
    throw new SignetError("KEY_NOT_FOUND", "The resumed sign-in's one-time key is not stored");
  return key;
}

/** The ids of the key store's notes of `finish`'s one-time key. */
async function notesOf(store: KeyStore, finish: AdoptFinish): Promise<string[]> {
  const wanted = finish.publicKey.toLowerCase();
  return (await store.list()).filter((id) => {
    if (!id.startsWith(POSSIBLE_PREFIX)) return false;
    const note = readPossibleSessionId(id);
    return note.accountId === finish.accountId && note.publicKey.toLowerCase() === wanted;
  });
}

/** The public key a `Grid-Wallet-Signature` names, or `undefined` when it is not a stamp. */
function stampKey(signature: string): string | undefined {
  try {
    const stamp = JSON.parse(utf8Decode(base64UrlDecode(signature, "stamp"), "stamp")) as {
      publicKey?: unknown;
    } | null;
    return typeof stamp?.publicKey === "string" ? stamp.publicKey.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Adopts the session a kept sign-in's verify answered: held under the one-time key noted for it,
 * with the `session` event a sign-in emits, and the note forgotten. Refused, nothing held, when
 * the session is not that key's: an answer for another account, one that carries a sealed session
 * key (the legacy flow's: a key other than the noted one), or a kept stamp that another key made.
 * The note then stays, so that the next sign-out proves and ends whatever session the key made.
 *
 * @throws {SignetError} `SESSION_KEY_MISMATCH` (the session is not the noted key's),
 *   `KEY_NOT_FOUND` (the key store no longer holds the noted key), `MALFORMED_RESPONSE` (not an
 *   AuthSession), what the key store throws.
 * @example
 * ```ts
 * const session = await adoptKeptSession(seams, kept, finish, body, onEvent);
 * ```
 */
export async function adoptKeptSession(
  seams: AdoptSeams,
  kept: KeptCall,
  finish: AdoptFinish,
  body: unknown,
  onEvent?: EventSink,
): Promise<Session> {
  const answered = parseAuthSession(body);
  const mismatch = (why: string) =>
    new SignetError("SESSION_KEY_MISMATCH", `The resumed sign-in's session ${why}`, {
      details: { accountId: finish.accountId, sessionId: answered.id },
    });
  const publicKey = finish.publicKey.toLowerCase();
  if (answered.accountId !== finish.accountId) throw mismatch("is another account's");
  if (answered.encryptedSessionSigningKey !== undefined)
    throw mismatch("carries a sealed key, not the one-time key this device sent");
  if (kept.signature === undefined || stampKey(kept.signature) !== publicKey)
    throw mismatch("was asked for by a stamp of another key");
  const store = await seams.keyStore();
  const [noted] = await notesOf(store, finish);
  const record = noted === undefined ? undefined : await store.get(noted);
  if (record === undefined)
    throw new SignetError("KEY_NOT_FOUND", "The resumed sign-in's one-time key is not stored");
  const key = await seams.restore(record);
  if (key.publicKey.toLowerCase() !== publicKey)
    throw mismatch("is not the key the key store holds");
  // The code was proven when the call was first sent (`since`), not now: a step-up counts from
  // then on both clocks.
  const elapsed = Math.max(0, seams.now() - kept.since);
  const session: Session = {
    id: answered.id,
    accountId: answered.accountId,
    credentialId: finish.credentialId,
    expiresAt: new Date(Date.parse(answered.expiresAt)).toISOString(),
    publicKey: key.publicKey,
    verifiedAt: new Date(seams.deviceNow() - elapsed).toISOString(),
    verifiedAtService: new Date(kept.since).toISOString(),
  };
  await seams.hold(session, key);
  seams.emit(
    {
      type: "session",
      action: "created",
      accountId: session.accountId,
      sessionId: session.id,
      expiresAt: session.expiresAt,
    },
    onEvent,
  );
  await discardKeptKey(seams, finish).catch(() => undefined);
  return session;
}

/**
 * Forgets a kept sign-in's one-time key: its session is held now, or the call ended without one
 * (failed, or its challenge lapsed).
 * @throws what the key store throws.
 */
export async function discardKeptKey(seams: Pick<AdoptSeams, "keyStore">, finish: AdoptFinish) {
  const store = await seams.keyStore();
  for (const id of await notesOf(store, finish)) await store.delete(id);
}
