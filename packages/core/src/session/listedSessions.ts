// The account's sessions as the service lists them, for the look-ups that settle a lost answer
// (docs/architecture.md "Retries"): whether a session is still active, which sessions a call made.
import type { SignetClient } from "../client.js";
import type { AuthSessionJson } from "../transport/wire.js";
import { parseAuthSession } from "./authSession.js";

/**
 * The account's sessions as the service lists them (a read, retried under the policy). The list
 * is not paginated (docs/protocol.md §3): "not listed" is read as "not active".
 *
 * @throws {SignetError} what the read throws.
 * @example
 * ```ts
 * const listed = await listSessionsJson(client, accountId, signal);
 * ```
 */
export async function listSessionsJson(
  client: SignetClient,
  accountId: string,
  signal: AbortSignal | undefined,
): Promise<AuthSessionJson[]> {
  const listed = await client.request<{ data?: unknown }>(
    { method: "GET", path: `/auth/sessions?accountId=${encodeURIComponent(accountId)}` },
    { signal },
  );
  return Array.isArray(listed?.data) ? listed.data.flatMap(readSession) : [];
}

function readSession(entry: unknown): AuthSessionJson[] {
  try {
    return [parseAuthSession(entry)];
  } catch {
    return [];
  }
}

/**
 * The `resolveAmbiguous` of a session revoke: a session the service no longer lists is ended,
 * which is what the revoke wanted (its answer was lost, or another call ended it); one still
 * listed was not ended, and a fresh challenge is safe.
 *
 * @throws {SignetError} what the list read throws.
 * @example
 * ```ts
 * resolveAmbiguous: sessionEnded(client, accountId, sessionId, signal),
 * ```
 */
export const sessionEnded =
  (client: SignetClient, accountId: string, sessionId: string, signal: AbortSignal | undefined) =>
  async (): Promise<{ status: 204; body: undefined } | "restart"> => {
    const listed = await listSessionsJson(client, accountId, signal);
    return listed.some((entry) => entry.id === sessionId)
      ? "restart"
      : { status: 204, body: undefined };
  };
