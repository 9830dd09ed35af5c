import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import {
  type ActivityExpectation,
  type CheckPayload,
  expectActivity,
} from "../transport/payloadCheck.js";
import { payloadMismatch } from "../transport/payloadVocabulary.js";
import { signalPasskeys } from "../webauthn/signal.js";

export type RevokeCredentialParameters = CallOptions & {
  accountId: string;
  /** The credential to revoke (`AuthMethod:…`). */
  credentialId: string;
  /**
   * The credential's type, as the user confirmed it (the `type` of the `listCredentials` entry
   * they chose). The device signs only the removal of this kind of credential: a payload that
   * removes another kind, or a challenge naming another type, is refused.
   */
  type: "PASSKEY" | "OAUTH" | "EMAIL_OTP" | "SMS_OTP";
  /**
   * For a passkey: its WebAuthn credential id (the `credentialId` of its `listCredentials`
   * entry). Once revoked, the device's passkey manager is told it is gone (WebAuthn Signal API,
   * where the browser has it), so it stops offering a passkey that can no longer sign in.
   */
  passkeyCredentialId?: string | undefined;
  /** The passkey's relying party id, when it is not the page's host. */
  rpId?: string | undefined;
};
export type RevokeCredentialReturnType = undefined;
export type RevokeCredentialErrorType = SignetErrorOf<ActionErrorCode<"revokeCredential">>;

/**
 * Revokes a credential, stamped by a held session issued by a DIFFERENT credential of the account
 * (the service's rule). Sessions the revoked credential issued end; their keys are deleted here.
 * `type` is the credential's type as the user confirmed it (the entry of `listCredentials` they
 * chose): the device signs only the removal of that kind of credential, whatever the service's
 * answer says (docs/protocol.md §11).
 *
 * @throws {SignetError} `NO_SESSION` (no session from another credential), `PAYLOAD_MISMATCH`
 *   (the payload removes another kind of credential), `INVALID_INPUT` (last credential), `NOT_FOUND`.
 * @example
 * ```ts
 * await revokeCredential(client, { accountId, credentialId: oldPasskey.id, type: "PASSKEY" });
 * ```
 */
export async function revokeCredential(
  client: SignetClient,
  parameters: RevokeCredentialParameters,
): Promise<RevokeCredentialReturnType> {
  const { accountId, credentialId, type } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  assertServiceId("credentialId", credentialId, "AuthMethod");
  assertArgument(
    typeof type === "string" && Object.hasOwn(REVOCATIONS, type),
    "type",
    "PASSKEY, OAUTH, EMAIL_OTP or SMS_OTP",
    String(type),
  );
  const session = await requireSession(client, { accountId, excludeCredentialId: credentialId });
  await client.signed(
    {
      operation: "revokeCredential",
      ...at(CREDENTIAL_REVOKE, [credentialId]),
      sign: signWithSession(client, session),
      checkPayload: revokeCredentialPayload(client, { accountId, type }),
      // Still removing after a reload: re-sent from its kept copy, its sessions then forgotten.
      pending: {
        resumable: true,
        accountId,
        finish: { kind: "forgetSessions", accountId, credentialId },
      },
    },
    parameters,
  );
  const { passkeyCredentialId, rpId } = parameters;
  if (passkeyCredentialId)
    signalPasskeys("UnknownCredential", { rpId, credentialId: passkeyCredentialId });
  for (const held of await client.sessions.list(accountId)) {
    if (held.credentialId !== credentialId) continue;
    await client.sessions.remove(accountId, held.id);
    client.emit(
      { type: "session", action: "revoked", accountId, sessionId: held.id },
      parameters.onEvent,
    );
  }
}

/**
 * An email or SMS credential's removal: its own contact named and cleared (`""`, or `null`), the
 * other kind's contact never set nor cleared (absent, or `null` as an unset field may be written),
 * so a general user update cannot clear the user's other credential in its place.
 */
function contactRemoval(type: string, own: string, other: string): ActivityExpectation {
  return {
    types: [type, "ACTIVITY_TYPE_UPDATE_USER"],
    equals: { [own]: { test: (value) => value === "" || value === null } },
    where: { [other]: { test: (value) => value === null } },
  };
}

/**
 * The removal each credential type signs (docs/protocol.md §11). A passkey's is the documented
 * deletion of one authenticator; an OAuth login's, Turnkey's deletion of one provider (derived:
 * the service shows none). For an email or SMS credential the service shows nothing: whatever it
 * signs (the emulator clears the contact), it clears that kind's contact only, and never sets one,
 * which would send the codes elsewhere.
 */
const REVOCATIONS: Record<string, ActivityExpectation> = {
  PASSKEY: { types: ["ACTIVITY_TYPE_DELETE_AUTHENTICATORS"], counts: { authenticatorIds: 1 } },
  OAUTH: { types: ["ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS"], counts: { providerIds: 1 } },
  EMAIL_OTP: contactRemoval("ACTIVITY_TYPE_UPDATE_USER_EMAIL", "userEmail", "userPhoneNumber"),
  SMS_OTP: contactRemoval("ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER", "userPhoneNumber", "userEmail"),
};

/**
 * What revoking a credential signs: the removal of the kind of credential the caller named (its
 * own call, never the service's answer, decides which). A challenge that names another type is
 * refused too. The ids inside are the enclave's own, so the type and the count bind.
 */
export function revokeCredentialPayload(
  client: SignetClient,
  request: { accountId: string; type: RevokeCredentialParameters["type"] },
): CheckPayload {
  // No known type (a caller of this builder outside the action): every known activity is refused.
  const check = expectActivity(client, request.accountId, [
    REVOCATIONS[request.type] ?? { types: [] },
  ]);
  return (payloadToSign, context) => {
    if (context.type !== undefined && context.type !== request.type) {
      throw payloadMismatch(context, "type", "names another kind of credential");
    }
    return check(payloadToSign, context);
  };
}

/** `DELETE /auth/credentials/{AuthMethod}`. */
export const CREDENTIAL_REVOKE = {
  method: "DELETE",
  path: "/auth/credentials/{AuthMethod}",
  expectedStatus: 204,
} as const satisfies ActionRoute;

/** revokeCredential's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const revokeCredentialRow = {
  chunk: "wallet",
  sensitive: true,
  summary:
    "revokes a credential, stamped by a session of a *different* credential; its sessions end",
  parameters:
    "`{ accountId, credentialId, type, passkeyCredentialId?, rpId? }` (`type` as the user confirmed it)",
  resolvesTo: "`undefined`",
  requests: [
    {
      route: CREDENTIAL_REVOKE,
      signed: {
        signer: "session",
        check: revokeCredentialPayload,
        signedBy: "a session of a **different** credential of the account",
      },
    },
  ],
  errors: { client: SESSION_SIGNED_ERRORS },
  hook: {
    kind: "mutation",
    name: "useRevokeCredential",
    doc: "Revokes a credential, signed by a session of another one (`revokeCredential`).",
    invalidates: ["credentials", "sessions"],
  },
} as const satisfies ActionSourceRow;
