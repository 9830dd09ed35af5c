// docs/protocol.md §9 (trusted beneficiaries): an SCA customer marks an external account as a
// trusted beneficiary, so that "future sends to it can skip the per-transaction SCA ceremony"
// (`POST /customers/external-accounts/{id}/trust` → `BeneficiaryTrustStart` with the
// `scaChallenge` to satisfy, then `…/trust/confirm` with the proof: a code for SMS_OTP / TOTP, a
// passkey assertion with its origin for PASSKEY). `untrustBeneficiary` is the same two steps on
// `…/untrust`. The OpenAPI names no `customerId` on these routes: the relay checks that the
// external account is the caller's.

import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, SignetError, type SignetErrorOf } from "../errors/errors.js";
import { bindChallenge, type ScaProofSite } from "../sca/scaBinding.js";
import {
  MAX_REFUSED_ANSWERS,
  type ScaChallengeContext,
  type ScaProof,
  scaProofFields,
} from "../sca/scaProof.js";
import type { CallOptions } from "../session/events.js";
import { expectShape } from "../transport/responseShape.js";
import type { ScaChallengeJson } from "../transport/wire.js";

export type TrustBeneficiaryParameters = CallOptions & {
  /** The external account (`ExternalAccount:<uuid>`) to trust. */
  externalAccountId: string;
  /**
   * Asked for the proof of the SCA challenge the start issued, as in `authorizeQuote` (a code,
   * or `{ passkey: true }`); again after a refused proof, with `context.error`. Not asked when the
   * service issues no challenge.
   */
  onChallenge: (
    challenge: ScaChallengeJson,
    context: ScaChallengeContext,
  ) => ScaProof | Promise<ScaProof>;
  /** The origin of a passkey ceremony. Default: the one in the authenticator's `clientDataJSON`. */
  origin?: string | undefined;
  /** Passkey prompt time limit in ms, when the options give none. Default 60 000. */
  timeoutMs?: number | undefined;
};
/** `BeneficiaryTrustConfirm`: whether the beneficiary is now trusted. */
export type TrustBeneficiaryReturnType = { trusted: boolean };
export type TrustBeneficiaryErrorType = SignetErrorOf<ActionErrorCode<"trustBeneficiary">>;

/**
 * Marks an external account as the customer's trusted beneficiary (SCA customers, EU): starts the
 * change, asks `onChallenge` for the SCA proof of the challenge it issues, and confirms it. A
 * payment to a trusted beneficiary then skips the per-payment SCA (`executeQuote` answers without
 * `PENDING_AUTHORIZATION`). `onChallenge`'s `resend` starts the change again (a new SMS code).
 *
 * @throws {SignetError} `PAYLOAD_MISMATCH` (the challenge is one this device saw come with a
 *   payment, a login or another beneficiary: nothing asked, nothing sent), `INVALID_INPUT` (400:
 *   the proof refused `MAX_REFUSED_ANSWERS` times), `NOT_FOUND`, `CONFLICT` (409: not an SCA
 *   region), `CHALLENGE_EXPIRED`, `WEBAUTHN_*`, `NETWORK`, `INVALID_ARGUMENT`.
 * @example
 * ```ts
 * await trustBeneficiary(client, {
 *   externalAccountId,
 *   onChallenge: (_challenge, { error }) => ui.askCode("Trust this payee", error),
 * });
 * ```
 */
export async function trustBeneficiary(
  client: SignetClient,
  parameters: TrustBeneficiaryParameters,
): Promise<TrustBeneficiaryReturnType> {
  return changeBeneficiaryTrust(client, parameters, true);
}

/** Which routes and which answer one change of trust has. */
const CHANGES = {
  true: { operation: "trustBeneficiary", start: "trust", confirm: "trust/confirm" },
  false: { operation: "untrustBeneficiary", start: "untrust", confirm: "untrust/confirm" },
} as const;

/**
 * The two steps of a trust or untrust: the start (its `scaChallenge`, when one is issued, bound to
 * this beneficiary and change before anyone is asked), the proof, the confirm, whose `trusted`
 * must be the change asked for.
 *
 * @internal Shared with `untrustBeneficiary`.
 */
export async function changeBeneficiaryTrust(
  client: SignetClient,
  parameters: TrustBeneficiaryParameters,
  trusted: boolean,
): Promise<TrustBeneficiaryReturnType> {
  const { externalAccountId, onChallenge } = assertCall(client, parameters);
  assertServiceId("externalAccountId", externalAccountId, "ExternalAccount");
  assertArgument(
    typeof onChallenge === "function",
    "onChallenge",
    "a function",
    typeof onChallenge,
  );
  const change = CHANGES[`${trusted}`];
  const routes = trusted
    ? { start: BENEFICIARY_TRUST, confirm: BENEFICIARY_TRUST_CONFIRM }
    : { start: BENEFICIARY_UNTRUST, confirm: BENEFICIARY_UNTRUST_CONFIRM };
  const site: ScaProofSite = {
    operation: change.operation,
    step: 1,
    origin: parameters.origin,
    timeoutMs: parameters.timeoutMs,
    onEvent: parameters.onEvent,
  };
  // A challenge's owner: this beneficiary and this change (a trust's proof never untrusts).
  const owner = `${change.start}|${externalAccountId}`;
  const start = async (): Promise<ScaChallengeJson | undefined> => {
    const answer = await client.request<{ scaChallenge?: unknown } | null>(
      at(routes.start, [externalAccountId]),
      parameters,
    );
    if (answer?.scaChallenge === undefined || answer.scaChallenge === null) return undefined;
    const challenge = expectShape<ScaChallengeJson>(
      answer.scaChallenge,
      ["id", "expiresAt", "factor"],
      "ScaChallenge",
    );
    if (!Array.isArray(challenge.availableFactors)) {
      throw new SignetError("MALFORMED_RESPONSE", "ScaChallenge.availableFactors is not a list");
    }
    // docs/protocol.md §11: a challenge this device saw come with a payment, an SCA login or
    // another beneficiary's change is refused before the customer is asked.
    bindChallenge(client, owner, challenge, site);
    return challenge;
  };
  let challenge = await start();
  let error: SignetError | undefined;
  for (let refused = 0; ; ) {
    let fields: Record<string, unknown> = {};
    if (challenge) {
      const resend = async () => {
        challenge = await start();
      };
      const asked = challenge;
      const proof = await onChallenge(asked, { step: 1, error, resend });
      // `resend` may have replaced the challenge while the customer was asked.
      const current = challenge ?? asked;
      fields = await scaProofFields(client, current, proof, site);
      if (Date.parse(current.expiresAt) <= client.clock.now()) {
        throw new SignetError("CHALLENGE_EXPIRED", "The SCA challenge of the change expired");
      }
      fields = { challengeId: current.id, ...fields };
    }
    // Without a challenge the OpenAPI says to confirm "without a `challengeId`" and is silent on
    // any proof: the confirm then carries nothing but what the device was given.
    try {
      const done = await client.request<{ trusted?: unknown } | null>(
        { ...at(routes.confirm, [externalAccountId]), body: JSON.stringify(fields) },
        parameters,
      );
      if (typeof done?.trusted !== "boolean") {
        throw new SignetError("MALFORMED_RESPONSE", "BeneficiaryTrustConfirm lacks trusted");
      }
      if (done.trusted !== trusted) {
        throw new SignetError(
          "MALFORMED_RESPONSE",
          `BeneficiaryTrustConfirm says trusted: ${done.trusted} after ${change.start}`,
        );
      }
      return { trusted: done.trusted };
    } catch (cause) {
      // 400 "Invalid or expired proof": ask again, bounded (docs: the code the customer typed).
      if (!challenge || (cause as SignetError).status !== 400 || ++refused >= MAX_REFUSED_ANSWERS)
        throw cause;
      error = cause as SignetError;
    }
  }
}

/** `POST /customers/external-accounts/{ExternalAccount}/trust`. */
export const BENEFICIARY_TRUST = {
  method: "POST",
  path: "/customers/external-accounts/{ExternalAccount}/trust",
  expectedStatus: 200,
} as const satisfies ActionRoute;
/** `POST /customers/external-accounts/{ExternalAccount}/trust/confirm`. */
export const BENEFICIARY_TRUST_CONFIRM = {
  method: "POST",
  path: "/customers/external-accounts/{ExternalAccount}/trust/confirm",
  expectedStatus: 200,
} as const satisfies ActionRoute;
/** `POST /customers/external-accounts/{ExternalAccount}/untrust`. */
export const BENEFICIARY_UNTRUST = {
  method: "POST",
  path: "/customers/external-accounts/{ExternalAccount}/untrust",
  expectedStatus: 200,
} as const satisfies ActionRoute;
/** `POST /customers/external-accounts/{ExternalAccount}/untrust/confirm`. */
export const BENEFICIARY_UNTRUST_CONFIRM = {
  method: "POST",
  path: "/customers/external-accounts/{ExternalAccount}/untrust/confirm",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** trustBeneficiary's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const trustBeneficiaryRow = {
  chunk: "payments",
  sensitive: true,
  summary:
    "an external account made a trusted beneficiary (its payments skip the per-payment SCA): start, the proof through `onChallenge`, confirm",
  parameters: "`{ externalAccountId, onChallenge, origin?, timeoutMs? }`",
  resolvesTo: "`{ trusted: true }`",
  requests: [{ route: BENEFICIARY_TRUST }, { route: BENEFICIARY_TRUST_CONFIRM }],
  errors: {
    client: [REQUEST_ERRORS, "CHALLENGE_EXPIRED", "PAYLOAD_MISMATCH", "SCA_ORIGIN_NOT_ALLOWED"],
    passkey: true,
  },
  hook: {
    kind: "mutation",
    name: "useTrustBeneficiary",
    doc: "Makes an external account a trusted beneficiary (`trustBeneficiary`); pass `onChallenge` as for `authorizeQuote`.",
    invalidates: [],
  },
} as const satisfies ActionSourceRow;
