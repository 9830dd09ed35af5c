// An expired session, told as one (issue #22, docs/architecture.md "Retries"): when the held
// session has expired on the service's clock (a device asleep, a clock behind), a signed call ends
// in `SESSION_EXPIRED` (sign in again), not in the signature error, the quote's conflict or the
// `NO_SESSION` that the expiry caused. The service's own list is the judge, for every action that
// a held session stamps (refresh, add passkey, export, execute): the device's clock may be hours
// off, and the client follows the relay's `Date` only so far. A session the list no longer has is
// dropped from the device.

import { listSessions } from "../../actions/listSessions.js";
import type { SignetClient } from "../../client.js";
import { detailOf, isSignetError, SignetError } from "../../errors/errors.js";
import { requireSession } from "../sessionSigner.js";
import type { ActiveSession, Session } from "../sessionStore.js";
import { isExpired } from "./lapse.js";

const expiredError = (session: Pick<Session, "id" | "accountId">, cause: SignetError) =>
  new SignetError("SESSION_EXPIRED", "The session expired: sign in again", {
    ...(cause.status === undefined ? {} : { status: cause.status }),
    details: { accountId: session.accountId, sessionId: session.id, code: String(cause.code) },
    cause,
  });

/**
 * The newest held, unexpired session of `accountId` (as `requireSession`), or
 * `SESSION_EXPIRED` when the device held one that has now expired on the service's clock (the
 * store drops it on the way, which alone would say `NO_SESSION`).
 *
 * @throws {SignetError} `SESSION_EXPIRED`, `NO_SESSION` (nothing was held: sign in first), and
 * what reading the key store throws.
 * @example
 * ```ts
 * const session = await requireLiveSession(client, accountId);
 * ```
 */
export async function requireLiveSession(
  client: SignetClient,
  accountId: string,
): Promise<ActiveSession> {
  await client.sessions.load();
  const held = client.sessions.getSnapshot()[accountId] ?? [];
  try {
    return await requireSession(client, { accountId });
  } catch (error) {
    const expired = held.find((session) => isExpired(session, client.clock.now()));
    if (isSignetError(error) && error.code === "NO_SESSION" && expired)
      throw expiredError(expired, error);
    throw error;
  }
}

/**
 * What a failure of a call that `session` stamped means: `SESSION_EXPIRED` when the answer was
 * about the session or came before it was judged (a 401 or 403, or a 409 `QUOTE_EXPIRED`, which
 * the service checks before the stamp) and the service no longer lists the session (it expired
 * on the service's clock, or ended elsewhere: either way, sign in again), and the held session is
 * dropped; otherwise the failure as it came. A 409 for a quote already executed stays: a payment that went through is never
 * hidden. The check is one read; if it fails, the original error stands.
 *
 * @throws never: it returns the error to throw.
 * @example
 * ```ts
 * await client.signed(request, parameters).catch(async (error) => {
 *   throw await expiredSessionError(client, error, session, parameters.signal);
 * });
 * ```
 */
export async function expiredSessionError(
  client: SignetClient,
  error: unknown,
  session: Pick<Session, "id" | "accountId">,
  signal?: AbortSignal,
): Promise<unknown> {
  if (!isSignetError(error)) return error;
  const aboutSession = error.status === 401 || error.status === 403;
  const quoteExpired = error.status === 409 && detailOf(error, "reason") === "QUOTE_EXPIRED";
  if (!aboutSession && !quoteExpired) return error;
  try {
    const listed = await listSessions(client, { accountId: session.accountId, signal });
    if (listed.some((entry) => entry.id === session.id)) return error;
  } catch {
    return error;
  }
  // Gone on the service: holding it would only stamp refusals. Dropped in every tab (the store
  // tells the others), and said once as a session event.
  try {
    await client.sessions.remove(session.accountId, session.id);
    client.emit({
      type: "session",
      action: "expired",
      accountId: session.accountId,
      sessionId: session.id,
    });
  } catch {
    // The key store could not be written: the next call meets the same answer.
  }
  return expiredError(session, error);
}
