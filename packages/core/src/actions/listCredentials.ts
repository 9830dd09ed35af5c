import { assertCall, assertServiceId, query } from "../arguments.js";
import type { SignetClient } from "../client.js";
import type { SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import { expectList } from "../transport/responseShape.js";
import { signalPasskeys } from "../webauthn/signal.js";
import type { AuthMethodJson } from "../wire.js";
import type { ActionErrorCode } from "./errorCodes.js";

export type ListCredentialsParameters = CallOptions & {
  accountId: string;
  /**
   * The WebAuthn user id (base64url) your backend gave this user's passkeys at registration
   * (`addPasskey`'s `user.id`). With it, the device's passkey manager learns the account's full
   * list of valid passkeys (WebAuthn Signal API, where the browser has it) and hides the others,
   * such as ones revoked from another device.
   */
  passkeyUserId?: string | undefined;
  /** The passkeys' relying party id, when it is not the page's host. */
  rpId?: string | undefined;
};
export type ListCredentialsReturnType = AuthMethodJson[];
export type ListCredentialsErrorType = SignetErrorOf<ActionErrorCode<"listCredentials">>;

/** `listCredentials`, loaded on first use: documented at the public function in `lazyWallet.ts`. */
export async function listCredentials(
  client: SignetClient,
  parameters: ListCredentialsParameters,
): Promise<ListCredentialsReturnType> {
  const { accountId } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  const body = await client.request<unknown>(
    {
      method: "GET",
      path: `/auth/credentials${query({ accountId })}`,
    },
    parameters,
  );
  const credentials = expectList<AuthMethodJson>(body, ["id", "accountId", "type"], "credentials");
  const { passkeyUserId: userId, rpId } = parameters;
  if (userId)
    signalPasskeys("AllAcceptedCredentials", {
      rpId,
      userId,
      allAcceptedCredentialIds: credentials.flatMap((c) => c.credentialId ?? []),
    });
  return credentials;
}
