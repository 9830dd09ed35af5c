// An AuthSession answer read (docs/protocol.md §3): what a verify or refresh answers. Its own
// module, free of the client, so that a kept sign-in's finish (pending/adoptKeptSession.ts) reads
// it as establishSession.ts does.
import { SignetError } from "../errors/errors.js";
import { expectShape } from "../transport/responseShape.js";
import type { AuthSessionJson } from "../transport/wire.js";

export const AUTH_SESSION_FIELDS = ["id", "accountId", "expiresAt"] as const;

/** Checks an AuthSession body. @throws {SignetError} `MALFORMED_RESPONSE`. */
export function parseAuthSession(body: unknown): AuthSessionJson {
  const session = expectShape<AuthSessionJson>(body, AUTH_SESSION_FIELDS, "AuthSession");
  if (!session.id.startsWith("Session:") || Number.isNaN(Date.parse(session.expiresAt))) {
    throw new SignetError("MALFORMED_RESPONSE", "AuthSession has an invalid id or expiresAt");
  }
  return session;
}
