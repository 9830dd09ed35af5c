// docs/protocol.md §3 (credentials): add (signed retry), list and revoke (signed retry).
import { registrationIdentity } from "../auth/oidc.js";
import { issueOtpTarget } from "../auth/otp.js";
import { verifyPasskeyRegistration } from "../auth/passkeys.js";
import { isoTime } from "../clock.js";
import { parseJsonBody } from "../http/body.js";
import { expectNoBody, pathId, queryParam, type RequestContext } from "../http/context.js";
import { invalidInput, notFound, ServiceError } from "../http/errors.js";
import { json, noContent } from "../http/responses.js";
import type { Route } from "../http/router.js";
import {
  addOAuthPayload,
  addPasskeyPayload,
  contactPayload,
  revokeCredentialPayload,
} from "../payloads.js";
import type { Runtime } from "../runtime.js";
import { runSignedRetry } from "../signedRetry.js";
import type { CredentialRecord, CredentialType, InternalAccountRecord } from "../state.js";
import {
  array,
  enumOf,
  type Infer,
  id,
  literal,
  object,
  optional,
  type Schema,
  string,
  union,
  validate,
} from "../validation.js";
import { endSessionsOf, sessionKeys } from "./sessions.js";

/** The credential types. */
export const CREDENTIAL_TYPES = ["PASSKEY", "OAUTH", "EMAIL_OTP", "SMS_OTP"] as const;

/** The AuthMethod JSON (`credentialId` for passkeys only). */
export function authMethodJson(credential: CredentialRecord): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: credential.id,
    accountId: credential.accountId,
    type: credential.type,
    nickname: credential.nickname,
  };
  if (credential.passkey) body.credentialId = credential.passkey.credentialId;
  body.createdAt = isoTime(credential.createdAt);
  body.updatedAt = isoTime(credential.updatedAt);
  return body;
}

/** A credential by id, 404 otherwise. */
export function getCredential(rt: Runtime, credentialId: string): CredentialRecord {
  const credential = rt.state.credentials.get(credentialId);
  if (!credential) throw notFound("Credential", credentialId);
  return credential;
}

/** The credentials of an account. */
export function credentialsOf(rt: Runtime, accountId: string): CredentialRecord[] {
  return [...rt.state.credentials.values()].filter((c) => c.accountId === accountId);
}

/** Parses a JSON body whose schema depends on its `type` field. */
export function readTypedBody<T extends Record<string, Schema<unknown>>>(
  ctx: RequestContext,
  schemas: T,
): { [K in keyof T]: { type: K; value: Infer<T[K]> } }[keyof T] {
  const raw = parseJsonBody(ctx.rawBody, ctx.headers.get("content-type"));
  const head = validate(
    object({ type: enumOf(Object.keys(schemas) as [string, ...string[]]) }, { open: true }),
    raw,
  );
  if (!head.ok) throw invalidInput(head.errors);
  const type = head.value.type as keyof T & string;
  const result = validate(schemas[type]!, raw);
  if (!result.ok) throw invalidInput(result.errors);
  return { type, value: result.value } as never;
}

const accountId = id("InternalAccount");
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const b64 = (minLength = 1) =>
  string({ minLength, pattern: BASE64URL, patternMessage: "must be base64url without padding" });

/**
 * The PASSKEY nickname rule (docs/protocol.md §10): Unicode letters and numbers, spaces and
 * `. _ - ' ( )`, 1–100 characters once surrounding whitespace is trimmed.
 */
export const PASSKEY_NICKNAME =
  /^\s*[\p{L}\p{N}._'()-](?:[\p{L}\p{N} ._'()-]{0,98}[\p{L}\p{N}._'()-])?\s*$/u;

const addSchemas = {
  EMAIL_OTP: object({ type: literal("EMAIL_OTP"), accountId }),
  SMS_OTP: object({ type: literal("SMS_OTP"), accountId }),
  OAUTH: object({
    type: literal("OAUTH"),
    accountId,
    oidcToken: string({ minLength: 1, maxLength: 16_384 }),
  }),
  PASSKEY: object({
    type: literal("PASSKEY"),
    accountId,
    nickname: string({
      minLength: 1,
      pattern: PASSKEY_NICKNAME,
      patternMessage: "may hold letters, digits, spaces and . _ - ' ( )",
    }),
    challenge: b64(),
    attestation: object({
      credentialId: b64(),
      clientDataJson: b64(),
      attestationObject: b64(),
      transports: optional(
        array(enumOf(["usb", "nfc", "ble", "internal", "hybrid"]), {
          maxItems: 10,
        }),
      ),
    }),
  }),
};

function getAccount(rt: Runtime, id: string): InternalAccountRecord {
  const account = rt.state.accounts.get(id);
  if (!account) throw notFound("Internal account", id);
  return account;
}

/** The contact an OTP credential of this type uses on this account (the customer's email or phone). */
export function otpContact(
  rt: Runtime,
  account: InternalAccountRecord,
  type: "EMAIL_OTP" | "SMS_OTP",
): string {
  const fields = rt.state.customers.get(account.customerId)?.fields ?? {};
  const value = type === "EMAIL_OTP" ? fields.email : fields.phoneNumber;
  if (typeof value !== "string" || value === "") {
    throw invalidInput([
      {
        field: "type",
        message: `the customer has no ${type === "EMAIL_OTP" ? "email" : "phoneNumber"} for an ${type} credential`,
      },
    ]);
  }
  return value;
}

function assertNoDuplicate(
  rt: Runtime,
  candidate: Omit<CredentialRecord, "id" | "createdAt" | "updatedAt">,
): void {
  const existing = credentialsOf(rt, candidate.accountId);
  if (candidate.type === "EMAIL_OTP" || candidate.type === "SMS_OTP") {
    if (existing.some((c) => c.type === candidate.type)) {
      throw new ServiceError(
        400,
        `${candidate.type}_CREDENTIAL_ALREADY_EXISTS`,
        `The account already has an ${candidate.type} credential.`,
      );
    }
  }
  // docs/protocol.md §10: a passkey is refused again on the same account, not on another one.
  if (candidate.passkey) {
    const wanted = candidate.passkey.credentialId;
    if (existing.some((c) => c.passkey?.credentialId === wanted)) {
      throw new ServiceError(
        400,
        "PASSKEY_CREDENTIAL_ALREADY_EXISTS",
        "This passkey is already attached to the internal account.",
      );
    }
  }
  if (candidate.oauth) {
    const { iss, sub } = candidate.oauth;
    if (existing.some((c) => c.oauth?.iss === iss && c.oauth.sub === sub)) {
      // The service lists no code of its own for this one.
      throw new ServiceError(
        400,
        "INVALID_INPUT",
        "The account already has an OAUTH credential for this identity.",
        { reason: "OAUTH_CREDENTIAL_ALREADY_EXISTS" },
      );
    }
  }
}

/** Stores a new credential (used by add and by customer provisioning). */
export function createCredential(
  rt: Runtime,
  fields: Omit<CredentialRecord, "id" | "createdAt" | "updatedAt">,
): CredentialRecord {
  const now = rt.clock.now();
  const credential: CredentialRecord = {
    ...fields,
    id: rt.ids.next("AuthMethod"),
    createdAt: now,
    updatedAt: now,
  };
  rt.state.credentials.set(credential.id, credential);
  return credential;
}

/**
 * `POST /auth/credentials`: 202 → 201 AuthMethod (+ `otpEncryptionTargetBundle` for OTP types),
 * stamped by a session of the account.
 */
async function addCredential(ctx: RequestContext): Promise<Response> {
  const { rt } = ctx;
  const body = readTypedBody(ctx, addSchemas);
  const account = getAccount(rt, body.value.accountId);
  let candidate: Omit<CredentialRecord, "id" | "createdAt" | "updatedAt">;
  switch (body.type) {
    case "EMAIL_OTP":
    case "SMS_OTP":
      candidate = {
        accountId: account.id,
        type: body.type,
        nickname: otpContact(rt, account, body.type),
      };
      break;
    case "OAUTH": {
      const identity = registrationIdentity(rt, body.value.oidcToken);
      candidate = {
        accountId: account.id,
        type: "OAUTH",
        nickname: identity.email ?? identity.sub,
        oauth: { iss: identity.iss, aud: identity.aud, sub: identity.sub },
      };
      break;
    }
    case "PASSKEY": {
      const { attestation } = body.value;
      const passkey = await verifyPasskeyRegistration(rt, body.value.challenge, {
        credentialId: attestation.credentialId,
        clientDataJson: attestation.clientDataJson,
        attestationObject: attestation.attestationObject,
        ...(attestation.transports ? { transports: attestation.transports } : {}),
      });
      candidate = {
        accountId: account.id,
        type: "PASSKEY",
        nickname: body.value.nickname.trim(),
        passkey,
      };
      break;
    }
  }
  assertNoDuplicate(rt, candidate);
  return runSignedRetry(ctx, {
    operation: "ADD_CREDENTIAL",
    payload: () => addPayload(ctx, account.id, body, candidate),
    type: body.type as CredentialType,
    allowedKeys: () => sessionKeys(rt, account.id),
    // The new credential's id is the answer's; a failed add made none, and the documents name no
    // id for it: an AuthMethod id that names no credential stands in.
    webhook: {
      operationType: "auth_credential.create",
      resourceType: "AUTH_METHOD",
      resourceId: (answer) =>
        typeof (answer as { id?: unknown } | undefined)?.id === "string"
          ? (answer as { id: string }).id
          : rt.ids.next("AuthMethod"),
    },
    complete: () => {
      assertNoDuplicate(rt, candidate);
      const credential = createCredential(rt, candidate);
      const out = authMethodJson(credential);
      if (credential.type === "EMAIL_OTP" || credential.type === "SMS_OTP") {
        out.otpEncryptionTargetBundle = issueOtpTarget(rt, credential);
      }
      return json(201, out);
    },
  });
}

function listCredentials(ctx: RequestContext): Response {
  // docs/protocol.md §10: an accountId that matches nothing lists nothing (200), it is no 404.
  const id = queryParam(ctx, "accountId", accountId, true)!;
  return json(200, { data: credentialsOf(ctx.rt, id).map(authMethodJson) });
}

/**
 * `DELETE /auth/credentials/{id}`: 202 → 204, stamped by a session issued by a different
 * credential of the same account; the revoked credential's sessions end. Revoking the account's
 * only credential: 400 `INVALID_INPUT` with `details.reason: "LAST_CREDENTIAL"`.
 */
async function revokeCredential(ctx: RequestContext): Promise<Response> {
  const { rt } = ctx;
  const credentialId = pathId(ctx, "id", "AuthMethod");
  expectNoBody(ctx);
  const check = () => {
    const credential = getCredential(rt, credentialId);
    if (credentialsOf(rt, credential.accountId).length <= 1) {
      throw new ServiceError(
        400,
        "INVALID_INPUT",
        "An account must keep at least one credential.",
        {
          reason: "LAST_CREDENTIAL",
          errors: [{ field: "id", message: "is the account's only credential" }],
        },
      );
    }
    return credential;
  };
  const credential = check();
  return runSignedRetry(ctx, {
    operation: "REVOKE_CREDENTIAL",
    payload: () => revokeCredentialPayload(ctx, credential),
    type: credential.type,
    allowedKeys: () =>
      sessionKeys(rt, credential.accountId, (s) => s.credentialId !== credential.id),
    webhook: {
      operationType: "auth_credential.delete",
      resourceType: "AUTH_METHOD",
      resourceId: () => credential.id,
    },
    complete: () => {
      check();
      rt.state.credentials.delete(credential.id);
      endSessionsOf(rt, credential.id);
      for (const [key, challenge] of rt.state.passkeyChallenges) {
        if (challenge.credentialId === credential.id) rt.state.passkeyChallenges.delete(key);
      }
      return noContent();
    },
  });
}

/** The payload an add signs (docs/protocol.md §11), from the request and the credential it makes. */
function addPayload(
  ctx: RequestContext,
  accountId: string,
  body: ReturnType<typeof readTypedBody<typeof addSchemas>>,
  candidate: Omit<CredentialRecord, "id" | "createdAt" | "updatedAt">,
): string {
  switch (body.type) {
    case "EMAIL_OTP":
      return contactPayload(ctx, accountId, { email: candidate.nickname });
    case "SMS_OTP":
      return contactPayload(ctx, accountId, { phoneNumber: candidate.nickname });
    case "OAUTH":
      return addOAuthPayload(ctx, accountId, body.value.oidcToken, candidate.oauth?.iss ?? "");
    case "PASSKEY":
      return addPasskeyPayload(ctx, accountId, {
        nickname: candidate.nickname,
        challenge: body.value.challenge,
        attestation: body.value.attestation,
        transports: body.value.attestation.transports,
      });
  }
}

/** Credential add, list and revoke routes. */
export const credentialRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/auth/credentials",
    handler: addCredential,
    // What readTypedBody checks, as one union (for the OpenAPI check).
    body: union("type", addSchemas),
  },
  { method: "GET", pattern: "/auth/credentials", handler: listCredentials },
  { method: "DELETE", pattern: "/auth/credentials/:id", handler: revokeCredential },
];
