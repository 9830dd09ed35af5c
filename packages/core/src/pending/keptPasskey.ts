// A kept passkey sign-in's finish (docs/protocol.md §2.5, §11): the verify a reload carried on
// has answered its session, which the device takes as `signInWithPasskey` would have: the session
// is proven to be bound to the key this device sent with the challenge (a refresh stamped by that
// key, which the service accepts only from that key's session), and the refreshed session is held
// under a fresh key of this device. The key sent never left the key store (a non-extractable
// record, noted as a key whose session this device may have made); the kept copy names only its
// public key. Loaded by the entry (entry.ts) on a resume's first use, never by the client itself:
// it reaches the actions, which the client's own imports never do.
import { proveSessionKey } from "../actions/signInWithPasskey.js";
import type { SignetClient } from "../client.js";
import { SignetError } from "../errors/errors.js";
import { parseAuthSession } from "../session/authSession.js";
import { establishSession } from "../session/establishSession.js";
import type { CallOptions } from "../session/events.js";
import type { Session } from "../session/sessionStore.js";
import { type AdoptFinish, discardKeptKey, notedKey } from "./adoptKeptSession.js";
import type { KeptCall } from "./pendingStore.js";
import type { KeptPasskeySeams } from "./resume.js";
import { sendUnsignedKept } from "./unsignedKept.js";

/**
 * A client's re-send and finish of kept passkey sign-ins, for its resume (./resume.ts).
 * @example
 * ```ts
 * const passkey = keptPasskeySeams(client);
 * ```
 */
export function keptPasskeySeams(client: SignetClient): KeptPasskeySeams {
  return {
    resend: (request, call, pending) =>
      sendUnsignedKept(client, request, call, "signInWithPasskey", pending),
    adopt: (kept, finish, body, call) => adoptKeptPasskeySession(client, kept, finish, body, call),
  };
}

/**
 * Proves and holds the session a kept passkey sign-in's verify answered, under the key noted for
 * it; the note is forgotten once it is held. Refused, nothing held, when the session is another
 * account's or carries a sealed key (a key other than the one sent), or when the proof is
 * refused; the note then stays, so that the next sign-out proves and ends whatever session the
 * key made.
 *
 * @throws {SignetError} `SESSION_KEY_MISMATCH`, `KEY_NOT_FOUND` (the key store no longer holds the
 *   noted key), `MALFORMED_RESPONSE` (not an AuthSession), what the proof's refresh throws.
 * @example
 * ```ts
 * const session = await adoptKeptPasskeySession(client, kept, finish, body, { onEvent });
 * ```
 */
export async function adoptKeptPasskeySession(
  client: SignetClient,
  kept: KeptCall,
  finish: AdoptFinish,
  body: unknown,
  call: Pick<CallOptions, "signal" | "onEvent">,
): Promise<Session> {
  const answered = parseAuthSession(body);
  const mismatch = (why: string) =>
    new SignetError("SESSION_KEY_MISMATCH", `The resumed passkey sign-in's session ${why}`, {
      details: { accountId: finish.accountId, sessionId: answered.id },
    });
  if (answered.accountId !== finish.accountId) throw mismatch("is another account's");
  if (answered.encryptedSessionSigningKey !== undefined)
    throw mismatch("carries a sealed key, not the key this device sent");
  const keys = {
    keyStore: () => client.keyStore(),
    restore: (record: Parameters<SignetClient["crypto"]["restoreSigningKey"]>[0]) =>
      client.crypto.restoreSigningKey(record),
  };
  const key = await notedKey(keys, finish);
  const proven = await proveSessionKey(client, answered, key, call);
  // The tap was made when the call was first sent (`since`), not now: a step-up counts from
  // then on both clocks.
  const elapsed = Math.max(0, client.clock.now() - kept.since);
  const { key: _key, ...held } = await establishSession(client, {
    onEvent: call.onEvent,
    session: proven.session,
    key: proven.key,
    credentialId: finish.credentialId,
    verifiedAt: new Date(client.timer.now() - elapsed).toISOString(),
    verifiedAtService: new Date(kept.since).toISOString(),
  });
  await discardKeptKey(keys, finish).catch(() => undefined);
  return held;
}
