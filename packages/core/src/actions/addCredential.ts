import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { assertEmail, assertPhoneNumber } from "../arguments/contactArguments.js";
import { type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";
import { expectShape } from "../transport/responseShape.js";
import type { AuthMethodJson } from "../transport/wire.js";
import { CREDENTIAL_ADD } from "./addPasskey.js";

/** The credential to add, and for an OTP credential the contact the user confirmed for it. */
export type AddCredentialParameters = CallOptions & { accountId: string } & (
    | {
        type: "EMAIL_OTP";
        /**
         * The email the user confirmed the codes will go to (the customer's email on file, as your
         * app showed it). The device signs only an activity that sets exactly this email: a backend
         * that tied another address to the customer gets nothing signed.
         */
        email: string;
      }
    | {
        type: "SMS_OTP";
        /** The phone number (E.164) the user confirmed the codes will go to, as for `email`. */
        phoneNumber: string;
      }
    | { type: "OAUTH"; oidcToken: string }
  );

export type AddCredentialReturnType = AuthMethodJson;
export type AddCredentialErrorType = SignetErrorOf<ActionErrorCode<"addCredential">>;

/**
 * Adds an OTP or OAuth credential to the wallet, stamped by a held session of the account
 * (a signed request). For passkeys use `addPasskey`. An email or SMS credential takes the contact
 * the user confirmed (`email` / `phoneNumber`, as your app showed it): the service sends the codes
 * to the customer's contact on file, and the device signs only a payload that names exactly this
 * one (docs/protocol.md §11).
 *
 * @throws {SignetError} `NO_SESSION`, `PAYLOAD_MISMATCH` (the payload names another contact),
 *   `EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS`, `SMS_OTP_CREDENTIAL_ALREADY_EXISTS`, `INVALID_INPUT`.
 * @example
 * ```ts
 * await addCredential(client, { accountId, type: "SMS_OTP", phoneNumber: "+14155550123" });
 * await addCredential(client, { accountId, type: "OAUTH", oidcToken });
 * ```
 */
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
  } else if (parameters.type === "EMAIL_OTP") {
    assertEmail(parameters.email);
  } else {
    assertPhoneNumber(parameters.phoneNumber);
  }
  const session = await requireSession(client, { accountId });
  const body =
    parameters.type === "OAUTH"
      ? { type, accountId, oidcToken: parameters.oidcToken }
      : { type, accountId };
  const { body: credential } = await client.signed(
    {
      operation: "addCredential",
      // The credential is added once the service settles; a resume delivers it in its result.
      // Not an OAuth one: its body holds the ID token, a bearer credential of the identity
      // provider that must never be written to the device's storage.
      pending: { resumable: parameters.type !== "OAUTH", accountId },
      ...at(CREDENTIAL_ADD),
      body: JSON.stringify(body),
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
 * ties the contact to the account, naming exactly the contact the user confirmed (an email without
 * regard to case, a phone number whatever separators the service writes). The service sends the
 * credential's codes to that contact: another one would let its holder sign in.
 */
export function addCredentialPayload(
  client: SignetClient,
  request: AddCredentialParameters,
): CheckPayload {
  return expectActivity(client, request.accountId, [
    request.type === "OAUTH"
      ? {
          types: ["ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS"],
          equals: { "oauthProviders.0.oidcToken": request.oidcToken },
          counts: { oauthProviders: 1 },
        }
      : request.type === "EMAIL_OTP"
        ? {
            types: ["ACTIVITY_TYPE_UPDATE_USER_EMAIL"],
            equals: { userEmail: { as: "email", value: request.email } },
          }
        : {
            types: ["ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER"],
            equals: { userPhoneNumber: { as: "phone", value: request.phoneNumber } },
          },
  ]);
}

/** addCredential's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const addCredentialRow = {
  chunk: "wallet",
  sensitive: true,
  summary: "adds an EMAIL_OTP, SMS_OTP or OAUTH credential",
  parameters:
    '`{ accountId, type: "EMAIL_OTP", email }`, `{ accountId, type: "SMS_OTP", phoneNumber }` (the contact the user confirmed) or `{ accountId, type: "OAUTH", oidcToken }`',
  resolvesTo: "`AuthMethodJson`",
  requests: [
    {
      route: CREDENTIAL_ADD,
      signed: {
        signer: "session",
        check: addCredentialPayload,
        signedBy: "a session of a verified credential of the account",
      },
    },
  ],
  errors: { client: SESSION_SIGNED_ERRORS },
  hook: {
    kind: "mutation",
    name: "useAddCredential",
    doc: "Adds an EMAIL_OTP, SMS_OTP or OAUTH credential (`addCredential`).",
    invalidates: ["credentials"],
  },
} as const satisfies ActionSourceRow;
