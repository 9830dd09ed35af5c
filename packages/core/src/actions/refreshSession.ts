import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import { type SignetClient, SKEW_TOLERANCE_MS } from "../client.js";
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
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";
import type { AuthSessionJson } from "../transport/wire.js";
import { revokeSessionPayload, SESSION_REVOKE } from "./revokeSession.js";

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
    });
    await client.sessions.remove(accountId, current.id);
    return session;
  });
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

/** refreshSession's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const refreshSessionRow = {
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
