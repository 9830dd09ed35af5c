// docs/protocol.md §3 and §11 (wallet privacy): `PATCH /internal-accounts/{id}` `{ privateEnabled }`,
// a signed retry stamped by a held session of the wallet. Its payload is a raw-payload signature
// whose bytes, where readable, name the account and the setting the device asked for.

import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";
import { expectShape } from "../transport/responseShape.js";
import type { InternalAccountJson } from "../transport/wire.js";

export type UpdateWalletPrivacyParameters = CallOptions & {
  /** The Embedded Wallet (`InternalAccount:…`), stamped by a session held for it. */
  accountId: string;
  /** Whether the wallet's privacy is on. */
  privateEnabled: boolean;
};
export type UpdateWalletPrivacyReturnType = InternalAccountJson;
export type UpdateWalletPrivacyErrorType = SignetErrorOf<ActionErrorCode<"updateWalletPrivacy">>;

/**
 * Turns the wallet's privacy on or off (`PATCH /internal-accounts/{id}` `{ privateEnabled }`): a
 * signed retry stamped by a held session of the wallet, after checking that the payload is the
 * raw-payload signature of this wallet (and, where its bytes are readable, of this setting).
 *
 * @throws {SignetError} `NO_SESSION`, `PAYLOAD_MISMATCH`, `WALLET_SIGNATURE_INVALID`, `NETWORK`.
 * @example
 * ```ts
 * const account = await updateWalletPrivacy(client, { accountId, privateEnabled: true });
 * ```
 */
export async function updateWalletPrivacy(
  client: SignetClient,
  parameters: UpdateWalletPrivacyParameters,
): Promise<UpdateWalletPrivacyReturnType> {
  const { accountId, privateEnabled } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  assertArgument(
    typeof privateEnabled === "boolean",
    "privateEnabled",
    "a boolean",
    typeof privateEnabled,
  );
  const session = await requireSession(client, { accountId });
  const { body } = await client.signed(
    {
      operation: "updateWalletPrivacy",
      ...at(WALLET_PRIVACY_UPDATE, [accountId]),
      body: JSON.stringify({ privateEnabled }),
      sign: signWithSession(client, session),
      checkPayload: updateWalletPrivacyPayload(client, { accountId, privateEnabled }),
      parseBody: (answer) =>
        expectShape<InternalAccountJson>(answer, ["id", "type"], "InternalAccount"),
    },
    parameters,
  );
  return body;
}

/**
 * What a privacy change signs (docs/protocol.md §11): a raw-payload signature
 * (`ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2`, the internal-account update's 202 example; a transaction
 * signature, the documented shape of a transfer, is never taken for a privacy change), whose
 * `signWith` is the one this account's privacy changes used before. Any internal account it names
 * is this one. Where the raw payload is readable JSON (the emulator's), it must name this account
 * and this setting.
 */
export function updateWalletPrivacyPayload(
  client: SignetClient,
  request: { accountId: string; privateEnabled: boolean },
): CheckPayload {
  return expectActivity(client, request.accountId, [
    {
      types: ["ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2"],
      signer: "privacy",
      ownIds: { InternalAccount: [request.accountId] },
      transaction: {
        equals: {
          internalAccountId: { as: "text", value: request.accountId },
          privateEnabled: { as: "flag", value: request.privateEnabled },
        },
      },
    },
  ]);
}

/** `PATCH /internal-accounts/{InternalAccount}`. */
export const WALLET_PRIVACY_UPDATE = {
  method: "PATCH",
  path: "/internal-accounts/{InternalAccount}",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** updateWalletPrivacy's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const updateWalletPrivacyRow = {
  chunk: "wallet",
  summary: "turns the wallet's privacy on or off",
  parameters: "`{ accountId, privateEnabled }`",
  resolvesTo: "`InternalAccountJson`",
  requests: [
    {
      route: WALLET_PRIVACY_UPDATE,
      signed: {
        signer: "session",
        check: updateWalletPrivacyPayload,
        signedBy: "a session of the wallet",
      },
    },
  ],
  errors: { client: SESSION_SIGNED_ERRORS },
  hook: {
    kind: "mutation",
    name: "useUpdateWalletPrivacy",
    doc: "Turns the wallet's privacy on or off (`updateWalletPrivacy`, a signed retry); `useInternalAccounts` refetches.",
    invalidates: ["balances"],
  },
} as const satisfies ActionSourceRow;
