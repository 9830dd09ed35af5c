// Sessions a lost answer may have made (docs/architecture.md "Retries"): a sign-in or refresh that
// lost its answer may have made a session nobody holds. The calling action proves and adopts it
// (adoptProvenSession, a refresh stamped by the key it sent); otherwise the device noted that key
// (session/possibleSessions.ts), and a sign-out proves and revokes the session each one made. Here
// rather than beside refreshSession so that a sign-out (on the page) does not carry the refresh
// action, which is in the sign-ins' chunk.

import { type ActionRoute, at } from "../catalog/actionRow.js";
import { type SignetClient, SKEW_TOLERANCE_MS } from "../client.js";
import type { SigningKey } from "../crypto/backend.js";
import { defined } from "../errors/defined.js";
import { isSignetError, type SignetError } from "../errors/errors.js";
import { parseAuthSession } from "../session/authSession.js";
import type { CallOptions } from "../session/events.js";
import { listSessionsJson, sessionEnded } from "../session/listedSessions.js";
import {
  forgetPossibleSession,
  listPossibleSessions,
  notePossibleSession,
} from "../session/possibleSessions.js";
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";
import type { AuthSessionJson } from "../transport/wire.js";
import { revokeSessionPayload, SESSION_REVOKE } from "./revokeSession.js";

/**
 * Settles every key the device noted for a session it may have made in `accountId` (a sign-out
 * runs it first): the session each one made, if any, is proven and revoked, and the key is
 * forgotten either way. Returns the first failure (a request's, or the key store's), after
 * forgetting every key (a sign-out deletes keys even when the service cannot be reached).
 *
 * @throws never: it returns the failure.
 * @example
 * ```ts
 * const failure = await settlePossibleSessions(client, { accountId });
 * ```
 */
export async function settlePossibleSessions(
  client: SignetClient,
  parameters: CallOptions & { accountId: string },
): Promise<unknown> {
  const { accountId, signal, onEvent } = parameters;
  let possible: Awaited<ReturnType<typeof listPossibleSessions>>;
  try {
    possible = await listPossibleSessions(client, accountId);
  } catch (error) {
    return error;
  }
  let failure: unknown;
  let listed: AuthSessionJson[] | undefined;
  for (const entry of possible) {
    try {
      listed ??= await listSessionsJson(client, accountId, signal);
      const adopted = await adoptProvenSession(client, {
        operation: "signOut",
        accountId,
        listed,
        sinceMs: entry.sinceMs,
        key: entry.key,
        ...defined({ signal, onEvent }),
      });
      if (adopted !== undefined) {
        // Ended as a sign-out ends any session: stamped by itself.
        await client.signed(
          {
            operation: "signOut",
            ...at(SESSION_REVOKE, [adopted.session.id]),
            sign: (payload) => client.crypto.stampPayload(payload, adopted.key),
            checkPayload: revokeSessionPayload(client, { accountId }),
            resolveAmbiguous: sessionEnded(client, accountId, adopted.session.id, signal),
          },
          defined({ signal, onEvent }),
        );
        // The list changed: the proof ended one session and made another.
        listed = undefined;
      }
    } catch (error) {
      failure ??= error;
    }
    await forgetPossibleSession(client, accountId, entry.key.publicKey).catch((error: unknown) => {
      failure ??= error;
    });
  }
  return failure;
}

/**
 * What a refresh signs (docs/protocol.md §11): a read-write session for the key this device just
 * made (compressed, or uncompressed in the legacy flow; either encoding, either case). Any other
 * target key would hand the new session to whoever holds that key.
 */
export function refreshSessionPayload(
  client: SignetClient,
  request: { accountId: string; clientPublicKey: string },
): CheckPayload {
  return expectActivity(client, request.accountId, [
    {
      types: ["ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2"],
      equals: { targetPublicKey: { as: "key", value: request.clientPublicKey } },
    },
  ]);
}

/**
 * How far before a call's start a session it made may say it was created: the client's clock
 * follows the service's only when they differ by more than `SKEW_TOLERANCE_MS` (below that it is
 * left alone), and the relay's `Date` has a one-second resolution.
 */
const CREATED_SLACK_MS = SKEW_TOLERANCE_MS + 1_000;
/** Candidates tried at most: each proof is a signed request, and one call makes one session. */
const MAX_CANDIDATES = 3;
/**
 * How deep a proof whose own answer was lost is followed: the proof is itself a refresh, whose
 * session is adopted by the same proof with the key it sent (each level is as rare as a lost
 * answer, so two are plenty).
 */
const MAX_PROOF_DEPTH = 2;

/** Who asks: the proofs are part of the calling action, and their events say so. */
type Operation = "verifyOtp" | "refreshSession" | "signInWithPasskey" | "signOut";

/**
 * Finds and adopts the session an unanswered sign-in or refresh made with `key`, proven: the
 * account's session JSON names no key, so each candidate (listed, not held on this device after
 * a `sync`, made since `sinceMs` on the service's clock, within the clock's slack; oldest first)
 * is refreshed with a stamp of `key`, which the service accepts only from the session bound to
 * that key. The session that refresh makes, bound to a fresh key of this device, is returned
 * with that key; another device's or tab's session refuses the stamp (401) and is left as it was.
 *
 * The proof recovers like any call: its own lost answer is settled the same way (the candidate
 * still listed: nothing happened, it starts over; gone: the session the proof made is adopted
 * with the key the proof sent), up to {@link MAX_PROOF_DEPTH} levels, and every key whose session
 * is left unsettled is noted (`notePossibleSession`) for the next sign-out.
 *
 * @throws {SignetError} what the proof's request throws other than the refusal of the stamp
 *   (the caller then keeps its original error).
 * @example
 * ```ts
 * const adopted = await adoptProvenSession(client, {
 *   operation: "verifyOtp", accountId, listed, sinceMs, key: tek,
 * });
 * if (adopted) await establishSession(client, { session: adopted.session, key: adopted.key });
 * ```
 */
export async function adoptProvenSession(
  client: SignetClient,
  parameters: CallOptions & {
    operation: Operation;
    accountId: string;
    listed: readonly AuthSessionJson[];
    sinceMs: number;
    key: SigningKey;
    /** Proofs of proofs so far. */
    depth?: number;
  },
): Promise<{ session: AuthSessionJson; key: SigningKey } | undefined> {
  const { accountId, listed, sinceMs } = parameters;
  // Another tab's session, stored a moment ago, is held too.
  await client.sessions.sync();
  const held = new Set((client.sessions.getSnapshot()[accountId] ?? []).map((s) => s.id));
  const candidates = listed
    .filter(
      (entry) => !held.has(entry.id) && Date.parse(entry.createdAt) >= sinceMs - CREATED_SLACK_MS,
    )
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))
    .slice(0, MAX_CANDIDATES);
  for (const candidate of candidates) {
    try {
      return await prove(client, parameters, candidate);
    } catch (error) {
      if (isSignetError(error) && error.status === 401 && isStampRefusal(error)) continue;
      throw error;
    }
  }
  return undefined;
}

/** One proof: refreshes `candidate` with a stamp of `key`, for a fresh key of this device. */
async function prove(
  client: SignetClient,
  parameters: Parameters<typeof adoptProvenSession>[1],
  candidate: AuthSessionJson,
): Promise<{ session: AuthSessionJson; key: SigningKey }> {
  const { operation, accountId, key, signal, onEvent } = parameters;
  const depth = parameters.depth ?? 0;
  const next = await client.crypto.generateSigningKey();
  const startedAt = client.clock.now();
  let adopted: { session: AuthSessionJson; key: SigningKey } | undefined;
  let noted = false;
  const { body } = await client.signed(
    {
      operation,
      ...at(SESSION_REFRESH, [candidate.id]),
      body: JSON.stringify({ clientPublicKey: next.publicKey }),
      sign: (payload) => client.crypto.stampPayload(payload, key),
      checkPayload: refreshSessionPayload(client, { accountId, clientPublicKey: next.publicKey }),
      parseBody: parseAuthSession,
      // The proof's own answer was lost: it may have made a session for `next`.
      resolveAmbiguous: async () => {
        noted = true;
        await notePossibleSession(client, { accountId, sinceMs: startedAt, key: next });
        const again = await listSessionsJson(client, accountId, signal);
        if (again.some((entry) => entry.id === candidate.id)) return "restart";
        if (depth >= MAX_PROOF_DEPTH) return undefined;
        adopted = await adoptProvenSession(client, {
          ...parameters,
          listed: again,
          sinceMs: startedAt,
          key: next,
          depth: depth + 1,
        });
        return adopted && { status: 201, body: adopted.session };
      },
    },
    defined({ signal, onEvent }),
  );
  // `next` is held by the caller now, or its session was ended by the proof of a deeper level.
  if (noted) await forgetPossibleSession(client, accountId, next.publicKey);
  return adopted ?? { session: body, key: next };
}

/** A 401 that refuses the stamp's key (docs/protocol.md §2): the session is not this key's. */
const isStampRefusal = (error: SignetError) =>
  error.code === "WALLET_SIGNATURE_INVALID" || error.code === "INVALID_SIGNATURE";

/** `POST /auth/sessions/{Session}/refresh`. */
export const SESSION_REFRESH = {
  method: "POST",
  path: "/auth/sessions/{Session}/refresh",
  expectedStatus: 201,
} as const satisfies ActionRoute;
