// Carries kept calls to their end (docs/protocol.md §2.5, core README "Calls still processing"):
// each kept call is re-sent as it went (same body, stamp and request id) by the signed-request
// engine (`resumeFrom`), holding the origin-wide lock its first tab held, so two tabs never
// re-send one call at once; then its action's finish runs (held sessions forgotten). A chunk:
// only a client that finds a kept call loads it. It takes the client's parts it uses as seams
// (`ResumeSeams`), so the client can load it without an import cycle.
import { defined } from "../errors/defined.js";
import { isSignetError, SignetError } from "../errors/errors.js";
import { type FailureEnd, isRefusal } from "../errors/refusedByService.js";
import type { CallOptions } from "../session/events.js";
import type { Session } from "../session/sessionStore.js";
import type { CheckPayload } from "../transport/payloadCheck.js";
import type { ResumeFrom } from "../transport/signedRequestParameters.js";
import {
  type AdoptFinish,
  type AdoptSeams,
  adoptKeptSession,
  discardKeptKey,
} from "./adoptKeptSession.js";
import {
  type PendingOptions,
  pendingLockKey,
  type ResumedCall,
  type UnsignedKeptRequest,
} from "./pendingCalls.js";
import {
  type KeptCall,
  type PendingFinish,
  type PendingStore,
  readKeptCall,
} from "./pendingStore.js";
import type { PendingTracker } from "./track.js";

/** What one kept call is re-sent with (the client's `signed` takes it). */
export type ResumeCallParameters = {
  operation: string;
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  body?: string;
  expectedStatus: number | number[];
  sign: () => never;
  checkPayload: CheckPayload;
  resumeFrom: ResumeFrom;
  pending: PendingOptions;
};

/**
 * What a resume's caller may pass: a signal, a sink for the calls' events, and `resend: false`
 * to only drop what can no longer be sent (expired, or not a kept call), sending nothing.
 */
export type ResumeCallOptions = Pick<CallOptions, "signal" | "onEvent"> & {
  /** Only the kept calls of these accounts (default: every account's). */
  accountIds?: readonly string[] | undefined;
  resend?: boolean | undefined;
};

/** The client's parts a resume uses. */
export type ResumeSeams = {
  store: PendingStore;
  lock: <T>(key: string, task: () => Promise<T>) => Promise<T>;
  /** The service's time. */
  now: () => number;
  /** Whether this tab is re-sending a request id now. */
  has: (requestId: string) => boolean;
  told: PendingTracker["told"];
  signed: (
    parameters: ResumeCallParameters,
    call: ResumeCallOptions,
  ) => Promise<{ status: number; body: unknown }>;
  /** A read (`GET`) of the service, its JSON. */
  read: (path: string, signal: AbortSignal | undefined) => Promise<unknown>;
  /** The held sessions of an account, and forgetting one (with its `session` event). */
  held: (accountId: string) => Promise<readonly Session[]>;
  forget: (session: Session, call: ResumeCallOptions) => Promise<void>;
  /** What a kept sign-in's finish adopts its session with (./adoptKeptSession.ts). */
  keys: AdoptSeams;
  /**
   * What re-sends a kept passkey sign-in (unsigned) and proves and holds its session, bound to
   * the client (./keptPasskey.ts, loaded by the entry on first use). Without it such a call is
   * left kept, unsent, for a client that has it (or deleted once its challenge lapses).
   */
  passkey?: (() => Promise<KeptPasskeySeams>) | undefined;
};

/** A kept passkey sign-in's re-send and finish (./keptPasskey.ts), bound to a client. */
export type KeptPasskeySeams = {
  resend(
    request: UnsignedKeptRequest,
    call: ResumeCallOptions,
    pending: PendingOptions,
  ): Promise<unknown>;
  adopt(
    kept: KeptCall,
    finish: AdoptFinish,
    body: unknown,
    call: ResumeCallOptions,
  ): Promise<unknown>;
};

// A resume never signs: its one leg is stamped already, and a 202 ends it (maxLegs 2).
const neverSign = (): never => {
  throw new SignetError("CHALLENGE_INVALID", "A resumed call has nothing to sign with");
};
const neverCheck: CheckPayload = neverSign;

/**
 * Re-sends every kept call of `seams.store` to its end, one at a time, and finishes each. With
 * `accountIds`, only those accounts' calls are carried on or told of: another account's call is
 * left for its own resume, unless its challenge has lapsed (then it is deleted, silently). What
 * does not read back as a kept call (an app's store may hold anything) is deleted unsent.
 * @returns how each ended (calls another tab finished meanwhile are left out).
 * @throws never: each call's failure is in its result (and its `pending` event).
 * @example
 * ```ts
 * const ended = await resumeKeptCalls(seams, { onEvent });
 * ```
 */
export async function resumeKeptCalls(
  seams: ResumeSeams,
  call: ResumeCallOptions = {},
): Promise<ResumedCall[]> {
  const results: ResumedCall[] = [];
  let kept: unknown[];
  try {
    kept = await seams.store.list();
  } catch {
    return results;
  }
  for (const listed of kept) {
    if (call.signal?.aborted) break;
    const candidate = readKeptCall(listed);
    if (candidate === undefined) {
      await dropUnreadable(seams.store, listed);
      continue;
    }
    const { requestId } = candidate;
    if (seams.has(requestId)) continue;
    const ended = await seams.lock(pendingLockKey(requestId), () =>
      resumeOne(seams, requestId, call),
    );
    if (ended) results.push(ended);
  }
  return results;
}

/** Deletes a stored value that is not a kept call, by the request id it is stored under. */
async function dropUnreadable(store: PendingStore, listed: unknown) {
  const id = (listed as { requestId?: unknown } | null)?.requestId;
  if (typeof id === "string") await store.delete(id).catch(() => undefined);
}

async function resumeOne(
  seams: ResumeSeams,
  requestId: string,
  call: ResumeCallOptions,
): Promise<ResumedCall | undefined> {
  const { store, has, told } = seams;
  // Read again under the lock: a tab that was still re-sending it has finished meanwhile.
  const read = await store.get(requestId).catch(() => undefined);
  const kept = readKeptCall(read);
  if (kept === undefined) {
    if (read !== undefined) await dropUnreadable(store, read);
    return undefined;
  }
  if (has(requestId)) return undefined;
  const { action } = kept;
  const mine = call.accountIds === undefined || call.accountIds.includes(kept.accountId);
  if (seams.now() >= kept.expiresAtMs) {
    // Not re-sent, and nothing proves the send of the page before made nothing: a sign-in's
    // noted key stays for the next sign-out to settle.
    await store.delete(requestId).catch(() => undefined);
    if (!mine) return undefined;
    told(kept, { state: "dropped", code: "CHALLENGE_EXPIRED" }, call.onEvent);
    return { action, requestId, outcome: "dropped", code: "CHALLENGE_EXPIRED" };
  }
  if (!mine || call.resend === false) return undefined;
  // A passkey sign-in goes unsigned, through the entry's part: without it, it stays kept.
  if (kept.signature === undefined && seams.passkey === undefined) return undefined;
  const keepAfter = (end: FailureEnd) => keptAgain(seams, kept, end);
  let result: { status: number; body: unknown };
  try {
    result = await resend(seams, kept, keepAfter, call);
  } catch (thrown) {
    if (!isSignetError(thrown)) throw thrown;
    // A send of the page before may have landed after it went (the reload cut its answer): the
    // re-send then meets a spent request id, or the resource already gone. What the call ends
    // says whether it ended.
    const found =
      thrown.code !== "ABORTED" && kept.finish?.kind === "forgetSessions"
        ? await ended(seams, kept.finish, call.signal).catch(() => undefined)
        : undefined;
    if (found === undefined) {
      const end = defined({ status: thrown.status, code: String(thrown.code) });
      // Kept for the next resume (the tracker left the copy): no answer yet, challenge alive.
      const again = thrown.code !== "ABORTED" && keepAfter(end);
      if (thrown.code !== "ABORTED" && !again) {
        await store.delete(requestId).catch(() => undefined);
        // Only a refusal proves that no session was made for a sign-in's noted key: any other
        // failure (no answer, a 5xx, a 408 or 429, a lapse, a spent request id) leaves the note
        // for a sign-out to settle.
        if (isRefusal(end)) await discardKey(seams, kept);
      }
      told(kept, { state: "failed", ...end }, call.onEvent);
      return {
        action,
        requestId,
        outcome: "failed",
        error: thrown,
        ...(again ? { kept: true as const } : {}),
      };
    }
    result = found;
  }
  await store.delete(requestId).catch(() => undefined);
  if (kept.finish?.kind === "adoptSession") {
    const refused = await adopt(seams, kept, kept.finish, result.body, call);
    if (refused) return { action, requestId, outcome: "failed", error: refused };
  } else if (kept.finish) await finish(seams, kept.finish, call);
  told(kept, { state: "settled", status: result.status }, call.onEvent);
  return { action, requestId, outcome: "settled", ...result };
}

/**
 * Re-sends a kept call as it went: a stamped one through the signed-request engine, a passkey
 * sign-in's unsigned verify with its request id (./unsignedKept.ts); both are tracked as resumed.
 */
async function resend(
  seams: ResumeSeams,
  kept: KeptCall,
  keepAfter: (end: FailureEnd) => boolean,
  call: ResumeCallOptions,
): Promise<{ status: number; body: unknown }> {
  const { action, signature } = kept;
  if (signature === undefined && seams.passkey !== undefined) {
    const passkey = await seams.passkey();
    const request = {
      path: kept.path,
      body: kept.body ?? "",
      requestId: kept.requestId,
      expiresAtMs: kept.expiresAtMs,
    };
    const body = await passkey.resend(request, call, { resumed: kept, keepAfter });
    return { status: 200, body };
  }
  if (signature === undefined)
    throw new SignetError("CHALLENGE_INVALID", "A kept call without its stamp cannot be re-sent");
  const { status, body } = await seams.signed(
    {
      operation: action,
      method: kept.method as ResumeCallParameters["method"],
      path: kept.path,
      ...(kept.body === undefined ? {} : { body: kept.body }),
      expectedStatus: kept.expectedStatus,
      sign: neverSign,
      checkPayload: neverCheck,
      resumeFrom: { requestId: kept.requestId, signature, expiresAtMs: kept.expiresAtMs },
      pending: { resumed: kept, keepAfter },
    },
    call,
  );
  return { status, body };
}

/**
 * A kept sign-in's finish: the answered session adopted under its noted one-time key, or refused
 * (nothing held: `SESSION_KEY_MISMATCH` and the like), told as failed and returned.
 */
async function adopt(
  seams: ResumeSeams,
  kept: KeptCall,
  what: AdoptFinish,
  body: unknown,
  call: ResumeCallOptions,
): Promise<SignetError | undefined> {
  try {
    if (kept.action === "signInWithPasskey" && seams.passkey !== undefined)
      await (await seams.passkey()).adopt(kept, what, body, call);
    else await adoptKeptSession(seams.keys, kept, what, body, call.onEvent);
    return undefined;
  } catch (thrown) {
    const error = isSignetError(thrown)
      ? thrown
      : new SignetError("KEY_STORAGE_UNAVAILABLE", "The resumed sign-in's key could not be read", {
          cause: thrown,
        });
    seams.told(kept, { state: "failed", code: String(error.code) }, call.onEvent);
    return error;
  }
}

/**
 * Whether a kept sign-in's re-send that ended in `end` stays kept for the next resume: it got no
 * answer that says what happened (no connection, a timeout, a 5xx, a 408 or 429, the run's
 * deadline), and its challenge still lives, so a re-send may yet bring the session. A refusal,
 * a lapse, a spent request id (`OUTCOME_UNKNOWN`: re-sending it again says the same) end it.
 * Other kept calls are read back instead (`ended`), or end.
 */
function keptAgain(seams: ResumeSeams, kept: KeptCall, end: FailureEnd): boolean {
  if (kept.finish?.kind !== "adoptSession" || seams.now() >= kept.expiresAtMs) return false;
  const { status, code } = end;
  if (code === "ABORTED" || code === "OUTCOME_UNKNOWN" || code === "CHALLENGE_EXPIRED")
    return false;
  return status === undefined || status >= 500 || status === 408 || status === 429;
}

/** A kept sign-in that the service refused (it made no session): its one-time key goes. */
async function discardKey(seams: ResumeSeams, kept: KeptCall) {
  if (kept.finish?.kind !== "adoptSession") return;
  await discardKeptKey(seams.keys, kept.finish).catch(() => undefined);
}

const listed = (answer: unknown, id: string) =>
  Array.isArray((answer as { data?: unknown } | undefined)?.data) &&
  (answer as { data: { id?: unknown }[] }).data.some((entry) => entry?.id === id);

/**
 * Whether the service shows the call's end: the session, or the credential, it removes is no
 * longer listed (a 204 then). `undefined` when it still is: the outcome stays unknown.
 */
async function ended(
  seams: ResumeSeams,
  what: Extract<PendingFinish, { kind: "forgetSessions" }>,
  signal: AbortSignal | undefined,
): Promise<{ status: 204; body: undefined } | undefined> {
  const { accountId, sessionId, credentialId } = what;
  const id = sessionId ?? credentialId;
  if (id === undefined) return undefined;
  const kind = sessionId !== undefined ? "sessions" : "credentials";
  const answer = await seams.read(
    `/auth/${kind}?accountId=${encodeURIComponent(accountId)}`,
    signal,
  );
  return listed(answer, id) ? undefined : { status: 204, body: undefined };
}

/** What the action would have done after its call: forget the held sessions it ended. */
async function finish(
  seams: ResumeSeams,
  what: Extract<PendingFinish, { kind: "forgetSessions" }>,
  call: ResumeCallOptions,
) {
  const { accountId, sessionId, credentialId } = what;
  for (const held of await seams.held(accountId)) {
    if (held.id !== sessionId && (credentialId === undefined || held.credentialId !== credentialId))
      continue;
    await seams.forget(held, call);
  }
}
