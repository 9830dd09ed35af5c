// docs/protocol.md §3, §5, §6 (sign-in): `POST /auth/credentials/{id}/challenge` and `/verify` for
// OTP (HPKE bundle + TEK-stamped token), OAUTH (OIDC token + nonce) and PASSKEY (WebAuthn).
import { checkSignInToken } from "../auth/oidc.js";
import {
  assertOtpAttemptsLeft,
  issueOtpTarget,
  openOtp,
  otpVerificationToken,
} from "../auth/otp.js";
import { verifyPasskeyAssertion } from "../auth/passkeys.js";
import { isoTime } from "../clock.js";
import { sha256Hex } from "../crypto/index.js";
import { pathId, type RequestContext, readBody } from "../http/context.js";
import { invalidInput, requestIdRefused, ServiceError } from "../http/errors.js";
import { json, processing } from "../http/responses.js";
import type { Route } from "../http/router.js";
import { assertUnderLimit, recordEvent } from "../rateLimit.js";
import { REQUEST_ID_HEADER, runSignedRetry } from "../signedRetry.js";
import type { CredentialRecord } from "../state.js";
import { CLIENT_PUBLIC_KEY, literal, object, optional, string, union } from "../validation.js";
import { authMethodJson, getCredential, readTypedBody } from "./credentials.js";
import { issueSession } from "./sessions.js";

const clientPublicKey = string({
  pattern: CLIENT_PUBLIC_KEY,
  patternMessage: "must be a 66-hex compressed or 130-hex uncompressed P-256 key",
});

function assertChallengeRate(ctx: RequestContext, credential: CredentialRecord): void {
  assertUnderLimit(
    ctx.rt.state.challengeIssues,
    credential.id,
    ctx.now(),
    ctx.rt.options.challengeRateLimit,
    "Challenges are being re-issued too fast; wait before asking again.",
    "CHALLENGE_RATE_LIMITED",
  );
}

/**
 * `POST /auth/credentials/{id}/challenge`. OTP types (any body, ignored): a new target key, the
 * previous dies; 200 AuthMethod + `otpEncryptionTargetBundle`. PASSKEY `{ clientPublicKey }`:
 * 200 `{ …AuthMethod, credentialId, challenge, requestId, expiresAt }`. OAUTH: 400. More than
 * `challengeRateLimit.max` issues per credential in the window: 429 `RATE_LIMITED` + `Retry-After`.
 */
function challenge(ctx: RequestContext): Response {
  const { rt } = ctx;
  const credential = getCredential(rt, pathId(ctx, "id", "AuthMethod"));
  if (credential.type === "OAUTH") {
    readBody(ctx, object({}), {});
    throw invalidInput([
      {
        field: "id",
        message: "OAUTH credentials have no challenge step; verify with a fresh token",
      },
    ]);
  }
  if (credential.type === "PASSKEY") {
    const body = readBody(ctx, object({ clientPublicKey }));
    assertChallengeRate(ctx, credential);
    if (ctx.takeProcessingFault()) return processing();
    recordEvent(rt.state.challengeIssues, credential.id, ctx.now());
    const requestId = rt.ids.next("Request");
    const expiresAt = ctx.now() + rt.options.challengeTtlMs;
    // The challenge is the hash of a session-creation body the client never sees.
    const sessionBody = JSON.stringify({
      organizationId: rt.keys.organizationId,
      parameters: { targetPublicKey: body.clientPublicKey, credentialId: credential.id, requestId },
      timestampMs: String(ctx.now()),
      type: "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
    });
    const challengeHex = sha256Hex(sessionBody);
    rt.state.passkeyChallenges.set(requestId, {
      requestId,
      credentialId: credential.id,
      clientPublicKey: body.clientPublicKey,
      challenge: challengeHex,
      expiresAt,
      consumed: false,
    });
    return json(200, {
      ...authMethodJson(credential),
      challenge: challengeHex,
      requestId,
      expiresAt: isoTime(expiresAt),
    });
  }
  // docs/protocol.md §10: an OTP challenge's body is ignored, whatever it holds.
  assertChallengeRate(ctx, credential);
  if (ctx.takeProcessingFault()) return processing();
  recordEvent(rt.state.challengeIssues, credential.id, ctx.now());
  return json(200, {
    ...authMethodJson(credential),
    otpEncryptionTargetBundle: issueOtpTarget(rt, credential),
  });
}

const verifySchemas = {
  EMAIL_OTP: object({
    type: literal("EMAIL_OTP"),
    encryptedOtpBundle: string({ minLength: 1, maxLength: 8192 }),
  }),
  SMS_OTP: object({
    type: literal("SMS_OTP"),
    encryptedOtpBundle: string({ minLength: 1, maxLength: 8192 }),
  }),
  OAUTH: object({
    type: literal("OAUTH"),
    oidcToken: string({ minLength: 1, maxLength: 16_384 }),
    clientPublicKey,
  }),
  PASSKEY: object({
    type: literal("PASSKEY"),
    assertion: object({
      credentialId: string({ minLength: 1 }),
      clientDataJson: string({ minLength: 1 }),
      authenticatorData: string({ minLength: 1 }),
      signature: string({ minLength: 1 }),
      userHandle: optional(string()),
    }),
  }),
};

/**
 * `POST /auth/credentials/{id}/verify`: OTP is a signed retry stamped by the TEK (202 → 200
 * AuthSession); OAUTH and PASSKEY answer 200 AuthSession in one call.
 */
async function verify(ctx: RequestContext): Promise<Response> {
  const { rt } = ctx;
  const credential = getCredential(rt, pathId(ctx, "id", "AuthMethod"));
  const body = readTypedBody(ctx, verifySchemas);
  if (body.type !== credential.type) {
    throw invalidInput([
      { field: "type", message: `must be ${credential.type}, the credential's type` },
    ]);
  }
  switch (body.type) {
    case "EMAIL_OTP":
    case "SMS_OTP": {
      assertOtpAttemptsLeft(rt, credential);
      const opened = openOtp(rt, credential, body.value.encryptedOtpBundle);
      return runSignedRetry(ctx, {
        operation: "VERIFY_OTP",
        type: credential.type,
        payload: ({ requestId, expiresAt }) =>
          otpVerificationToken(rt, credential, opened, requestId, expiresAt),
        allowedKeys: () => [opened.tekCompressed],
        complete: () => {
          if (credential.otpTarget !== opened.target || !rt.state.credentials.has(credential.id)) {
            throw new ServiceError(401, "UNAUTHORIZED", "The OTP challenge was replaced or used.", {
              reason: "OTP_NOT_ISSUED",
            });
          }
          credential.otpTarget = null;
          rt.state.otpFailures.delete(credential.id);
          return json(200, issueSession(rt, credential, opened.tekCompressed));
        },
      });
    }
    case "OAUTH": {
      const identity = credential.oauth;
      if (!identity)
        throw new ServiceError(500, "INTERNAL_ERROR", "OAUTH credential without identity.");
      checkSignInToken(rt, body.value.oidcToken, identity, body.value.clientPublicKey);
      if (ctx.takeProcessingFault()) return processing();
      return json(200, issueSession(rt, credential, body.value.clientPublicKey));
    }
    case "PASSKEY": {
      const passkey = credential.passkey;
      if (!passkey)
        throw new ServiceError(500, "INTERNAL_ERROR", "PASSKEY credential without key.");
      const requestId = ctx.headers.get(REQUEST_ID_HEADER);
      if (requestId === null) {
        throw new ServiceError(
          401,
          "REQUEST_ID_MISSING",
          "Passkey verify needs the Request-Id from /challenge.",
        );
      }
      const pending = rt.state.passkeyChallenges.get(requestId);
      if (!pending) throw requestIdRefused("REQUEST_ID_UNKNOWN", "Unknown Request-Id.");
      if (pending.consumed)
        throw requestIdRefused("REQUEST_ID_ALREADY_USED", "This Request-Id has already been used.");
      if (ctx.now() >= pending.expiresAt)
        throw requestIdRefused("REQUEST_ID_EXPIRED", "The passkey challenge has expired.");
      if (pending.credentialId !== credential.id) {
        throw requestIdRefused(
          "REQUEST_ID_MISMATCH",
          "This Request-Id was issued for another credential.",
        );
      }
      const { assertion } = body.value;
      if (assertion.credentialId !== passkey.credentialId) {
        throw new ServiceError(401, "UNAUTHORIZED", "The assertion is from another passkey.", {
          reason: "PASSKEY_ASSERTION_INVALID",
          detail: "assertion.credentialId is not this credential's credentialId",
        });
      }
      const counter = await verifyPasskeyAssertion(rt, pending.challenge, passkey, {
        credentialId: assertion.credentialId,
        clientDataJson: assertion.clientDataJson,
        authenticatorData: assertion.authenticatorData,
        signature: assertion.signature,
        ...(assertion.userHandle !== undefined ? { userHandle: assertion.userHandle } : {}),
      });
      if (ctx.takeProcessingFault()) return processing();
      if (pending.consumed)
        throw requestIdRefused("REQUEST_ID_ALREADY_USED", "This Request-Id has already been used.");
      pending.consumed = true;
      passkey.counter = counter;
      return json(200, issueSession(rt, credential, pending.clientPublicKey));
    }
  }
}

/** Challenge and verify routes. */
export const signInRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/auth/credentials/:id/challenge",
    handler: challenge,
    // A PASSKEY credential's body needs clientPublicKey; an OTP one's is ignored.
    body: object({ clientPublicKey: optional(clientPublicKey) }),
  },
  {
    method: "POST",
    pattern: "/auth/credentials/:id/verify",
    handler: verify,
    // What readTypedBody checks, as one union (for the OpenAPI check).
    body: union("type", verifySchemas),
  },
];
