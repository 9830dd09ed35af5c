// Carries kept calls to their end (docs/protocol.md §2.5, core README "Calls still processing"):
// each kept call is re-sent as it went (same body, stamp and request id) by the signed-request
// engine (`resumeFrom`), holding the origin-wide lock its first tab held, so two tabs never
// re-send one call at once; then its action's finish runs (held sessions forgotten). A chunk:
// only a client that finds a kept call loads it.
import type { SignetClient } from "../client.js";
import { defined } from "../errors/defined.js";
import { isSignetError, SignetError } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { listSessionsJson } from "../session/listedSessions.js";
import type { CheckPayload } from "../transport/payloadCheck.js";
import { pendingLockKey } from "./pendingCalls.js";
import type { KeptCall, PendingFinish, PendingStore } from "./pendingStore.js";

/** How one kept call ended. No secret: the body is the service's answer (an `AuthMethod`, none). */
export type ResumedCall = {
  action: string;
  requestId: string;
} & (
  | { outcome: "settled"; status: number; body: unknown }
  | { outcome: "failed"; error: SignetError }
  | { outcome: "dropped"; code: "CHALLENGE_EXPIRED" }
);

/** The seams the resume takes from the client that owns the kept calls. */
export type ResumeSeams = {
  store: PendingStore;
  lock: <T>(key: string, task: () => Promise<T>) => Promise<T>;
};

// A resume never signs: its one leg is stamped already, and a 202 ends it (maxLegs 2).
const neverSign = () => {
  throw new SignetError("CHALLENGE_INVALID", "A resumed call has nothing to sign with");
};
const neverCheck: CheckPayload = neverSign;

/**
 * Re-sends every kept call of `seams.store` to its end, one at a time, and finishes each.
 * @returns how each ended (calls another tab finished meanwhile are left out).
 * @throws never: each call's failure is in its result (and its `pending` event).
 * @example
 * ```ts
 * const ended = await resumeKeptCalls(client, seams, { onEvent });
 * ```
 */
export async function resumeKeptCalls(
  client: SignetClient,
  seams: ResumeSeams,
  call: CallOptions = {},
): Promise<ResumedCall[]> {
  const results: ResumedCall[] = [];
  let kept: KeptCall[];
  try {
    kept = await seams.store.list();
  } catch {
    return results;
  }
  for (const candidate of kept) {
    if (call.signal?.aborted) break;
    if (client.pending.has(candidate.requestId)) continue;
    const ended = await seams.lock(pendingLockKey(candidate.requestId), () =>
      resumeOne(client, seams.store, candidate.requestId, call),
    );
    if (ended) results.push(ended);
  }
  return results;
}

async function resumeOne(
  client: SignetClient,
  store: PendingStore,
  requestId: string,
  call: CallOptions,
): Promise<ResumedCall | undefined> {
  // Read again under the lock: a tab that was still re-sending it has finished meanwhile.
  const kept = await store.get(requestId).catch(() => undefined);
  if (kept === undefined || client.pending.has(requestId)) return undefined;
  const { action } = kept;
  if (client.clock.now() >= kept.expiresAtMs) {
    await store.delete(requestId).catch(() => undefined);
    client.pending.told(kept, { state: "dropped", code: "CHALLENGE_EXPIRED" }, call.onEvent);
    return { action, requestId, outcome: "dropped", code: "CHALLENGE_EXPIRED" };
  }
  let result: { status: number; body: unknown };
  try {
    const { status, body } = await client.signed<unknown>(
      {
        operation: action,
        method: kept.method as "POST" | "PUT" | "PATCH" | "DELETE",
        path: kept.path,
        ...(kept.body === undefined ? {} : { body: kept.body }),
        expectedStatus: kept.expectedStatus,
        sign: neverSign,
        checkPayload: neverCheck,
        resumeFrom: {
          requestId: kept.requestId,
          signature: kept.signature,
          expiresAtMs: kept.expiresAtMs,
        },
        pending: { resumed: kept },
      },
      call,
    );
    result = { status, body };
  } catch (thrown) {
    if (!isSignetError(thrown)) throw thrown;
    // A send of the page before may have landed after it went (the reload cut its answer): the
    // re-send then meets a spent request id, or the resource already gone. What the call ends
    // says whether it ended.
    const found =
      thrown.code !== "ABORTED" && kept.finish !== undefined
        ? await ended(client, kept.finish, call.signal).catch(() => undefined)
        : undefined;
    if (found === undefined) {
      if (thrown.code !== "ABORTED") await store.delete(requestId).catch(() => undefined);
      const { status } = thrown;
      const end = defined({ status, code: String(thrown.code) });
      client.pending.told(kept, { state: "failed", ...end }, call.onEvent);
      return { action, requestId, outcome: "failed", error: thrown };
    }
    result = found;
  }
  await store.delete(requestId).catch(() => undefined);
  if (kept.finish) await finish(client, kept.finish, call);
  client.pending.told(kept, { state: "settled", status: result.status }, call.onEvent);
  return { action, requestId, outcome: "settled", ...result };
}

/**
 * Whether the service shows the call's end: the session, or the credential, it removes is no
 * longer listed (a 204 then). `undefined` when it still is: the outcome stays unknown.
 */
async function ended(
  client: SignetClient,
  what: PendingFinish,
  signal: AbortSignal | undefined,
): Promise<{ status: 204; body: undefined } | undefined> {
  const { accountId, sessionId, credentialId } = what;
  if (sessionId !== undefined) {
    const listed = await listSessionsJson(client, accountId, signal);
    return listed.some((entry) => entry.id === sessionId) ? undefined : { status: 204, body: undefined };
  }
  if (credentialId === undefined) return undefined;
  const listed = await client.request<{ data?: { id?: unknown }[] }>(
    { method: "GET", path: `/auth/credentials?accountId=${encodeURIComponent(accountId)}` },
    { signal },
  );
  return listed?.data?.some((entry) => entry?.id === credentialId)
    ? undefined
    : { status: 204, body: undefined };
}

/** What the action would have done after its call: forget the held sessions it ended. */
async function finish(client: SignetClient, what: PendingFinish, call: CallOptions) {
  const { accountId, sessionId, credentialId } = what;
  for (const held of await client.sessions.list(accountId)) {
    if (held.id !== sessionId && (credentialId === undefined || held.credentialId !== credentialId))
      continue;
    await client.sessions.remove(accountId, held.id);
    client.emit({ type: "session", action: "revoked", accountId, sessionId: held.id }, call.onEvent);
  }
}
