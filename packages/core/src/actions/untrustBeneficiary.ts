// docs/protocol.md §9 (trusted beneficiaries): removing the trusted mark from an external
// account, so that "future sends to it are dynamically linked and require the per-transaction SCA
// ceremony again" (`POST /customers/external-accounts/{id}/untrust`, then `…/untrust/confirm`
// with the SCA proof). The steps are trustBeneficiary's.

import type { ActionSourceRow } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import type { SignetErrorOf } from "../errors/errors.js";
import {
  BENEFICIARY_UNTRUST,
  BENEFICIARY_UNTRUST_CONFIRM,
  changeBeneficiaryTrust,
  type TrustBeneficiaryParameters,
} from "./trustBeneficiary.js";

export type UntrustBeneficiaryParameters = TrustBeneficiaryParameters;
/** `BeneficiaryTrustConfirm`: `trusted: false` once untrusted. */
export type UntrustBeneficiaryReturnType = { trusted: boolean };
export type UntrustBeneficiaryErrorType = SignetErrorOf<ActionErrorCode<"untrustBeneficiary">>;

/**
 * Removes an external account from the customer's trusted beneficiaries (SCA customers, EU):
 * starts the change, asks `onChallenge` for the SCA proof, and confirms it. Payments to it then
 * need the per-payment SCA again.
 *
 * @throws {SignetError} `PAYLOAD_MISMATCH` (the challenge is one this device saw come with a
 *   payment, a login or another change: nothing asked, nothing sent), `INVALID_INPUT` (400: the
 *   proof refused `MAX_REFUSED_ANSWERS` times), `NOT_FOUND`, `CONFLICT` (409: not an SCA region),
 *   `CHALLENGE_EXPIRED`, `WEBAUTHN_*`, `NETWORK`, `INVALID_ARGUMENT`.
 * @example
 * ```ts
 * await untrustBeneficiary(client, {
 *   externalAccountId,
 *   onChallenge: (_challenge, { error }) => ui.askCode("Stop trusting this payee", error),
 * });
 * ```
 */
export async function untrustBeneficiary(
  client: SignetClient,
  parameters: UntrustBeneficiaryParameters,
): Promise<UntrustBeneficiaryReturnType> {
  return changeBeneficiaryTrust(client, parameters, false);
}

/** untrustBeneficiary's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const untrustBeneficiaryRow = {
  chunk: "payments",
  summary:
    "a trusted beneficiary's mark removed (its payments need the per-payment SCA again): start, the proof through `onChallenge`, confirm",
  parameters: "`{ externalAccountId, onChallenge, origin?, timeoutMs? }`",
  resolvesTo: "`{ trusted: false }`",
  requests: [{ route: BENEFICIARY_UNTRUST }, { route: BENEFICIARY_UNTRUST_CONFIRM }],
  errors: {
    client: [REQUEST_ERRORS, "CHALLENGE_EXPIRED", "PAYLOAD_MISMATCH", "SCA_ORIGIN_NOT_ALLOWED"],
    passkey: true,
  },
  hook: {
    kind: "mutation",
    name: "useUntrustBeneficiary",
    doc: "Removes an external account from the trusted beneficiaries (`untrustBeneficiary`); pass `onChallenge` as for `authorizeQuote`.",
    invalidates: [],
  },
} as const satisfies ActionSourceRow;
