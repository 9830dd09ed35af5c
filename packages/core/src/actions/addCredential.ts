import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import { assertArgument, type SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";
import { expectShape } from "../transport/responseShape.js";
import type { AuthMethodJson } from "../wire.js";
import type { ActionErrorCode } from "./errorCodes.js";

export type AddCredentialParameters = CallOptions & {
  accountId: string;
} & ({ type: "EMAIL_OTP" | "SMS_OTP" } | { type: "OAUTH"; oidcToken: string });

export type AddCredentialReturnType = AuthMethodJson;
export type AddCredentialErrorType = SignetErrorOf<ActionErrorCode<"addCredential">>;

/** `addCredential`, loaded on first use: documented at the public function in `lazyWallet.ts`. */
export async function addCredential(
  client: SignetClient,
  parameters: AddCredentialParameters,
): Promise<AddCredentialReturnType> {
  assertCall(client, parameters);
  const { accountId } = parameters;
  assertServiceId("accountId", accountId, "InternalAccount");
  const type = parameters.type;
  assertArgument(
    type === "EMAIL_OTP" || type === "SMS_OTP" || type === "OAUTH",
    "type",
    "EMAIL_OTP, SMS_OTP or OAUTH",
    String(type),
  );
  if (parameters.type === "OAUTH") {
    assertArgument(
      typeof parameters.oidcToken === "string" && parameters.oidcToken.length > 0,
      "oidcToken",
      "a JWT string",
      typeof parameters.oidcToken,
    );
  }
  const session = await requireSession(client, { accountId });
  const body =
    parameters.type === "OAUTH"
      ? { type, accountId, oidcToken: parameters.oidcToken }
      : { type, accountId };
  const { body: credential } = await client.signed(
    {
      operation: "addCredential",
      method: "POST",
      path: "/auth/credentials",
      body: JSON.stringify(body),
      expectedStatus: 201,
      sign: signWithSession(client, session),
      checkPayload: addCredentialPayload(client, parameters),
      parseBody: (answer) =>
        expectShape<AuthMethodJson>(answer, ["id", "accountId", "type"], "AuthMethod"),
    },
    parameters,
  );
  return credential;
}

/**
 * What adding a credential signs (docs/protocol.md §11): for an OAuth credential, the provider
 * with exactly the token the caller passed; for an email or SMS credential, the activity that
 * ties the customer's contact to the account (the device passes no contact here, so only the
 * activity type binds).
 */
export function addCredentialPayload(
  client: SignetClient,
  request: { accountId: string } & (
    | { type: "EMAIL_OTP" | "SMS_OTP" }
    | { type: "OAUTH"; oidcToken: string }
  ),
): CheckPayload {
  return expectActivity(client, request.accountId, [
    request.type === "OAUTH"
      ? {
          types: ["ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS"],
          equals: { "oauthProviders.0.oidcToken": request.oidcToken },
          counts: { oauthProviders: 1 },
        }
      : {
          types: [
            request.type === "EMAIL_OTP"
              ? "ACTIVITY_TYPE_UPDATE_USER_EMAIL"
              : "ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER",
          ],
        },
  ]);
}
