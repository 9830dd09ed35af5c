// docs/protocol.md §3 (sessions): issuing, listing, refreshing and revoking wallet sessions.
import { isoTime } from "../clock.js";
import { parsePublicKey, sealLegacySessionKey, toHex } from "../crypto/index.js";
import {
  expectNoBody,
  pathId,
  queryParam,
  type RequestContext,
  readBody,
} from "../http/context.js";
import { notFound, ServiceError } from "../http/errors.js";
import { json, noContent } from "../http/responses.js";
import type { Route } from "../http/router.js";
import { refreshSessionPayload, revokeSessionPayload } from "../payloads.js";
import type { Runtime } from "../runtime.js";
import { runSignedRetry } from "../signedRetry.js";
import type { CredentialRecord, SessionRecord } from "../state.js";
import { CLIENT_PUBLIC_KEY, id, object, string } from "../validation.js";

/** Whether a session can still sign. */
export function isActive(rt: Runtime, session: SessionRecord): boolean {
  return session.revokedAt === null && rt.clock.now() < session.expiresAt;
}

/** Active sessions of an account, optionally only those a predicate keeps. */
export function activeSessions(
  rt: Runtime,
  accountId: string,
  keep: (session: SessionRecord) => boolean = () => true,
): SessionRecord[] {
  return [...rt.state.sessions.values()].filter(
    (s) => s.accountId === accountId && isActive(rt, s) && keep(s),
  );
}

/** The public keys of the account's active sessions (the keys allowed to stamp for it). */
export function sessionKeys(
  rt: Runtime,
  accountId: string,
  keep?: (session: SessionRecord) => boolean,
): string[] {
  return activeSessions(rt, accountId, keep).map((s) => s.publicKey);
}

/** The AuthSession JSON; `encryptedSessionSigningKey` only on the answer that issues it. */
export function sessionJson(session: SessionRecord, encryptedSessionSigningKey?: string) {
  const body: Record<string, unknown> = {
    id: session.id,
    accountId: session.accountId,
    type: session.type,
    nickname: session.nickname,
    createdAt: isoTime(session.createdAt),
    updatedAt: isoTime(session.createdAt),
    expiresAt: isoTime(session.expiresAt),
  };
  if (encryptedSessionSigningKey !== undefined) {
    body.encryptedSessionSigningKey = encryptedSessionSigningKey;
  }
  return body;
}

/**
 * Issues a session for a verified credential. A compressed `clientPublicKey` is the session key
 * itself (client-held flow); an uncompressed one selects the legacy flow: the emulator makes the
 * session key and returns it sealed to that key as `encryptedSessionSigningKey`.
 * @returns the AuthSession JSON.
 */
export function issueSession(
  rt: Runtime,
  credential: CredentialRecord,
  clientPublicKey: string,
): Record<string, unknown> {
  const point = parsePublicKey(clientPublicKey);
  if (!point) {
    throw new ServiceError(400, "INVALID_INPUT", "clientPublicKey is not a P-256 point.", {
      errors: [{ field: "clientPublicKey", message: "is not a valid P-256 public key" }],
    });
  }
  const now = rt.clock.now();
  let publicKey = toHex(point.compressed);
  let sealed: string | undefined;
  if (clientPublicKey.length === 130) {
    const sessionKey = rt.ids.keyPair("legacy-session");
    sealed = sealLegacySessionKey({
      sessionPrivateKey: sessionKey.privateKey,
      recipientPublicKey: point.uncompressed,
    });
    publicKey = toHex(sessionKey.publicKeyCompressed);
  }
  const session: SessionRecord = {
    id: rt.ids.next("Session"),
    accountId: credential.accountId,
    credentialId: credential.id,
    type: credential.type,
    nickname: credential.nickname,
    publicKey,
    createdAt: now,
    expiresAt: now + rt.options.sessionTtlMs,
    revokedAt: null,
  };
  rt.state.sessions.set(session.id, session);
  return sessionJson(session, sealed);
}

/** Ends every active session a credential issued. */
export function endSessionsOf(rt: Runtime, credentialId: string): void {
  const now = rt.clock.now();
  for (const s of rt.state.sessions.values()) {
    if (s.credentialId === credentialId && s.revokedAt === null) s.revokedAt = now;
  }
}

function listSessions(ctx: RequestContext): Response {
  // docs/protocol.md §10: an accountId that matches nothing lists nothing (200), it is no 404.
  const accountId = queryParam(ctx, "accountId", id("InternalAccount"), true)!;
  return json(200, { data: activeSessions(ctx.rt, accountId).map((s) => sessionJson(s)) });
}

const refreshSchema = object({
  clientPublicKey: string({
    pattern: CLIENT_PUBLIC_KEY,
    patternMessage: "must be a 66-hex compressed or 130-hex uncompressed P-256 key",
  }),
});

/**
 * `POST /auth/sessions/{id}/refresh`: 202 → 201 new AuthSession, stamped by the session being
 * refreshed. Decision: the old session ends once the new one is stored (docs/protocol.md §8).
 * 404 for an id never issued; 401 `UNAUTHORIZED` (`SESSION_NOT_ACTIVE`) for an expired or revoked one.
 */
async function refreshSession(ctx: RequestContext): Promise<Response> {
  const sessionId = pathId(ctx, "id", "Session");
  const body = readBody(ctx, refreshSchema);
  const session = ctx.rt.state.sessions.get(sessionId);
  if (!session) throw notFound("Session", sessionId);
  const assertActive = () => {
    if (!isActive(ctx.rt, session)) {
      throw new ServiceError(
        401,
        "UNAUTHORIZED",
        "The session is not active; verify a credential again.",
        {
          reason: "SESSION_NOT_ACTIVE",
        },
      );
    }
  };
  assertActive();
  const credential = ctx.rt.state.credentials.get(session.credentialId);
  if (!credential)
    throw new ServiceError(401, "UNAUTHORIZED", "The credential was revoked.", {
      reason: "SESSION_NOT_ACTIVE",
    });
  // Validate the key before the challenge so a bad key never gets a 202.
  if (!parsePublicKey(body.clientPublicKey)) {
    throw new ServiceError(400, "INVALID_INPUT", "clientPublicKey is not a P-256 point.", {
      errors: [{ field: "clientPublicKey", message: "is not a valid P-256 public key" }],
    });
  }
  return runSignedRetry(ctx, {
    operation: "REFRESH_SESSION",
    payload: () => refreshSessionPayload(ctx, body.clientPublicKey),
    allowedKeys: () => (isActive(ctx.rt, session) ? [session.publicKey] : []),
    complete: () => {
      assertActive();
      const fresh = issueSession(ctx.rt, credential, body.clientPublicKey);
      session.revokedAt = ctx.now();
      return json(201, fresh);
    },
  });
}

/** `DELETE /auth/sessions/{id}`: 202 → 204, stamped by any active session of the account. */
async function revokeSession(ctx: RequestContext): Promise<Response> {
  const sessionId = pathId(ctx, "id", "Session");
  expectNoBody(ctx);
  const session = ctx.rt.state.sessions.get(sessionId);
  const assertActive = () => {
    if (!session || !isActive(ctx.rt, session)) throw notFound("Active session", sessionId);
    return session;
  };
  const target = assertActive();
  return runSignedRetry(ctx, {
    operation: "REVOKE_SESSION",
    payload: () => revokeSessionPayload(ctx, target),
    type: target.type,
    allowedKeys: () => sessionKeys(ctx.rt, target.accountId),
    webhook: {
      operationType: "session.revoke",
      resourceType: "SESSION",
      resourceId: () => target.id,
    },
    complete: () => {
      assertActive().revokedAt = ctx.now();
      return noContent();
    },
  });
}

/** Session routes. */
export const sessionRoutes: Route[] = [
  { method: "GET", pattern: "/auth/sessions", handler: listSessions },
  {
    method: "POST",
    pattern: "/auth/sessions/:id/refresh",
    handler: refreshSession,
    body: refreshSchema,
  },
  { method: "DELETE", pattern: "/auth/sessions/:id", handler: revokeSession },
];
