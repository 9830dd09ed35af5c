import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { assertEmail, assertPhoneNumber } from "../arguments/contactArguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";
import { expectShape } from "../transport/responseShape.js";
import type { CustomerJson } from "../transport/wire.js";

export type UpdateCustomerContactParameters = CallOptions & {
  customerId: string;
  /** The wallet whose held session stamps the change (the OTP credential is tied to it). */
  accountId: string;
} & ({ email: string; phoneNumber?: never } | { phoneNumber: string; email?: never });

export type UpdateCustomerContactReturnType = CustomerJson;
export type UpdateCustomerContactErrorType = SignetErrorOf<
  ActionErrorCode<"updateCustomerContact">
>;

/**
 * Changes the customer's email or phone number (one per call), which moves the tied EMAIL_OTP or
 * SMS_OTP credential too; stamped by a held session of a tied wallet. All or nothing.
 *
 * @throws {SignetError} `EMAIL_OTP_EMAIL_ALREADY_EXISTS`, `EMAIL_OTP_CREDENTIAL_SET_CHANGED`,
 *   `EMAIL_OTP_CREDENTIAL_SYNC_FAILED`, `INVALID_INPUT`, `NO_SESSION`.
 * @example
 * ```ts
 * await updateCustomerContact(client, { customerId, accountId, email: "new@example.com" });
 * ```
 */
export async function updateCustomerContact(
  client: SignetClient,
  parameters: UpdateCustomerContactParameters,
): Promise<UpdateCustomerContactReturnType> {
  assertCall(client, parameters);
  const { customerId, accountId } = parameters;
  assertServiceId("customerId", customerId, "Customer");
  assertServiceId("accountId", accountId, "InternalAccount");
  const email = parameters.email;
  const phoneNumber = parameters.phoneNumber;
  assertArgument(
    (email === undefined) !== (phoneNumber === undefined),
    "email | phoneNumber",
    "exactly one of them",
    email === undefined ? "neither" : "both",
  );
  if (email !== undefined) assertEmail(email);
  else assertPhoneNumber(phoneNumber);
  const session = await requireSession(client, { accountId });
  const { body } = await client.signed(
    {
      operation: "updateCustomerContact",
      ...contactChangeRequest(
        customerId,
        email !== undefined ? { email } : { phoneNumber: phoneNumber as string },
      ),
      sign: signWithSession(client, session),
      checkPayload: updateCustomerContactPayload(client, {
        accountId,
        ...(email !== undefined ? { email } : { phoneNumber: phoneNumber as string }),
      }),
      parseBody: (answer) => expectShape<CustomerJson>(answer, ["id"], "Customer"),
    },
    parameters,
  );
  return body;
}

/**
 * What a contact change signs (docs/protocol.md §11): the update of the email or phone number to
 * the value the caller passed (an email without regard to case, a phone number whatever separators
 * the service writes). Another value would send the account's codes elsewhere.
 */
export function updateCustomerContactPayload(
  client: SignetClient,
  request: { accountId: string } & ({ email: string } | { phoneNumber: string }),
): CheckPayload {
  return expectActivity(client, request.accountId, [
    "email" in request
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

/**
 * Where a contact change goes: the one place to switch when the service moves contact changes
 * from `PATCH /customers/{id}` to its announced `contact-changes` endpoints (docs/protocol.md §3).
 * The payload check above stays as it is: the activity binds the new contact either way.
 */
export function contactChangeRequest(
  customerId: string,
  change: { email: string } | { phoneNumber: string },
): typeof CONTACT_UPDATE & { body: string } {
  return {
    ...at(CONTACT_UPDATE, [customerId]),
    // The service's update body is a oneOf keyed on customerType (docs/protocol.md §3).
    body: JSON.stringify({ customerType: "INDIVIDUAL", ...change }),
  };
}

/** `PATCH /customers/{Customer}`. */
export const CONTACT_UPDATE = {
  method: "PATCH",
  path: "/customers/{Customer}",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** updateCustomerContact's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const updateCustomerContactRow = {
  chunk: "wallet",
  sensitive: true,
  summary:
    "changes the email or the phone number (one per call); the service renames the tied OTP credential",
  parameters: "`{ customerId, accountId, email }` or `{ customerId, accountId, phoneNumber }`",
  resolvesTo: "`CustomerJson`",
  requests: [
    {
      route: CONTACT_UPDATE,
      signed: {
        signer: "session",
        check: updateCustomerContactPayload,
        signedBy: "a session of any wallet tied to that contact",
      },
    },
  ],
  errors: { client: SESSION_SIGNED_ERRORS },
  hook: {
    kind: "mutation",
    name: "useUpdateCustomerContact",
    doc: "Changes the customer's email or phone number (`updateCustomerContact`). The service renames the tied EMAIL_OTP or SMS_OTP credential to the new contact, so `useCredentials` refetches.",
    invalidates: ["credentials"],
  },
} as const satisfies ActionSourceRow;
