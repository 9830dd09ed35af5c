// Stands for the app's own sign-in: a session cookie mapped to the app's user and their
// customer id at the service. Replace it with your session store.
import type { RelayUser } from "@signet/relay";

/** Session id → the signed-in user's customer id. */
export const sessions = new Map<string, RelayUser>();

/** The `resolveUser` every example passes to `createRelay`. */
export async function userFromSessionCookie(request: Request): Promise<RelayUser | null> {
  const cookie = request.headers.get("Cookie") ?? "";
  const sessionId = /(?:^|;\s*)session=([^;]+)/.exec(cookie)?.[1];
  return (sessionId !== undefined && sessions.get(sessionId)) || null;
}
