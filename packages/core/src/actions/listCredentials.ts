import { assertCall, assertServiceId, query } from "../arguments/arguments.js";
import { type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import type { SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { expectList } from "../transport/responseShape.js";
import type { AuthMethodJson } from "../transport/wire.js";
import { signalPasskeys } from "../webauthn/signal.js";
import { CREDENTIALS_LIST } from "./addPasskey.js";

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

/**
 * Lists the credentials of an Embedded Wallet (`GET /auth/credentials?accountId=`).
 *
 * @throws {SignetError} `RELAY_FORBIDDEN` (not the user's account), `NETWORK`, `MALFORMED_RESPONSE`.
 * @example
 * ```ts
 * const credentials = await listCredentials(client, { accountId });
 * const email = credentials.find((c) => c.type === "EMAIL_OTP");
 * ```
 */
export async function listCredentials(
  client: SignetClient,
  parameters: ListCredentialsParameters,
): Promise<ListCredentialsReturnType> {
  const { accountId } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  const body = await client.request<unknown>(
    {
      ...at(CREDENTIALS_LIST, [], query({ accountId })),
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

/** listCredentials's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const listCredentialsRow = {
  chunk: "wallet",
  summary: "the account's credentials (works before sign-in)",
  parameters: "`{ accountId, passkeyUserId?, rpId? }` (works before sign-in)",
  resolvesTo: "`AuthMethodJson[]`",
  requests: [{ route: CREDENTIALS_LIST }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "query",
    name: "useCredentials",
    reads: "credentials",
    doc: "The account's credentials (`listCredentials`); refetched after credential changes and a contact update.",
  },
} as const satisfies ActionSourceRow;
