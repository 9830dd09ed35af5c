import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import type { SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import {
  type ActivityExpectation,
  type CheckPayload,
  expectActivity,
  payloadMismatch,
} from "../transport/payloadCheck.js";
import { signalPasskeys } from "../webauthn/signal.js";
import type { ActionErrorCode } from "./errorCodes.js";

export type RevokeCredentialParameters = CallOptions & {
  accountId: string;
  /** The credential to revoke (`AuthMethod:…`). */
  credentialId: string;
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

/** `revokeCredential`, loaded on first use: documented at the public function in `lazyWallet.ts`. */
export async function revokeCredential(
  client: SignetClient,
  parameters: RevokeCredentialParameters,
): Promise<RevokeCredentialReturnType> {
  const { accountId, credentialId } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  assertServiceId("credentialId", credentialId, "AuthMethod");
  const session = await requireSession(client, { accountId, excludeCredentialId: credentialId });
  await client.signed(
    {
      operation: "revokeCredential",
      method: "DELETE",
      path: `/auth/credentials/${credentialId}`,
      expectedStatus: 204,
      sign: signWithSession(client, session),
      checkPayload: revokeCredentialPayload(client, { accountId }),
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

/** The deletion each credential type signs; the 202 names the type (docs/protocol.md §11). */
const REVOCATIONS: Record<string, ActivityExpectation> = {
  PASSKEY: { types: ["ACTIVITY_TYPE_DELETE_AUTHENTICATORS"], counts: { authenticatorIds: 1 } },
  OAUTH: { types: ["ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS"], counts: { providerIds: 1 } },
  // Removing an OTP credential clears the contact; never sets one.
  EMAIL_OTP: { types: ["ACTIVITY_TYPE_UPDATE_USER_EMAIL"], equals: { userEmail: "" } },
  SMS_OTP: { types: ["ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER"], equals: { userPhoneNumber: "" } },
};

/**
 * What revoking a credential signs: the deletion of one authenticator or provider, or the
 * clearing of the contact of an OTP credential, as the challenge's credential `type` says. The
 * ids inside are the enclave's own, so the type and the count bind.
 */
export function revokeCredentialPayload(
  client: SignetClient,
  request: { accountId: string },
): CheckPayload {
  const checks = Object.fromEntries(
    Object.entries(REVOCATIONS).map(([type, expectation]) => [
      type,
      expectActivity(client, request.accountId, [expectation]),
    ]),
  );
  return (payloadToSign, context) => {
    const check = context.type === undefined ? undefined : checks[context.type];
    if (!check) {
      throw payloadMismatch(
        context,
        "type",
        "cannot be checked: the challenge names no credential type",
      );
    }
    return check(payloadToSign, context);
  };
}
