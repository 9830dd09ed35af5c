// docs/protocol.md §9 (SCA factor reset): finishing a reset once liveness passed
// (`POST /sca/factors/reset/{resetId}/complete` → 204): the lost factor is cleared so the customer
// can enrol again, or, for SMS_OTP, the new mobile number in the body becomes theirs. The relay
// names the customer.

import { assertCall } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, SignetError, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import type { ScaFactor } from "../transport/wire.js";
import { getScaFactorReset, SCA_FACTOR_RESET_GET } from "./getScaFactorReset.js";
import { assertResetId } from "./startScaFactorReset.js";

export type CompleteScaFactorResetParameters = CallOptions & {
  /** The `resetId` `startScaFactorReset` answered. */
  resetId: string;
  /** The factor the customer chose to reset: the reset must be that factor's. */
  factor: ScaFactor;
  /** SMS_OTP only (and required there): the new number, enrolled as the reset completes. */
  mobile?: { countryCode: string; number: string } | undefined;
};
export type CompleteScaFactorResetReturnType = undefined;
export type CompleteScaFactorResetErrorType = SignetErrorOf<
  ActionErrorCode<"completeScaFactorReset">
>;

/**
 * Completes an SCA factor reset whose liveness check passed
 * (`POST /sca/factors/reset/{resetId}/complete`). It first reads the reset and refuses one of
 * another factor than `factor` (docs/protocol.md §11: an SMS_OTP reset passed off as a TOTP one
 * would take a phone number the customer never meant to give), then completes it: with `mobile`
 * for SMS_OTP, with no body otherwise.
 *
 * @throws {SignetError} `PAYLOAD_MISMATCH` (`details.field` `factor`: the reset is another
 *   factor's; nothing completed), `INVALID_INPUT` (400: liveness not passed yet, or the reset is
 *   over), `NOT_FOUND`, `CONFLICT` (409: not an SCA region), `NETWORK`, `INVALID_ARGUMENT`.
 * @example
 * ```ts
 * await completeScaFactorReset(client, { resetId, factor: "TOTP" });
 * await enrollScaTotp(client, { onSecret });
 * ```
 */
export async function completeScaFactorReset(
  client: SignetClient,
  parameters: CompleteScaFactorResetParameters,
): Promise<CompleteScaFactorResetReturnType> {
  const { resetId, factor, mobile } = assertCall(client, parameters);
  assertResetId(resetId);
  assertArgument(
    factor === "SMS_OTP" || factor === "TOTP" || factor === "PASSKEY",
    "factor",
    '"SMS_OTP", "TOTP" or "PASSKEY"',
    String(factor),
  );
  if (factor === "SMS_OTP") {
    assertArgument(
      typeof mobile?.countryCode === "string" &&
        /^\+[0-9]{1,4}$/.test(mobile.countryCode) &&
        typeof mobile.number === "string" &&
        /^[0-9]{4,15}$/.test(mobile.number),
      "mobile",
      '{ countryCode: "+<digits>", number: "<digits>" }',
      mobile === undefined ? "none" : "something else",
    );
  } else {
    assertArgument(mobile === undefined, "mobile", "none for a TOTP or PASSKEY reset", "a number");
  }
  const reset = await getScaFactorReset(client, { resetId, ...callOptions(parameters) });
  if (reset.factor !== factor) {
    client.emit(
      {
        type: "payload",
        action: "refused",
        operation: "completeScaFactorReset",
        signature: 1,
        field: "factor",
      },
      parameters.onEvent,
    );
    throw new SignetError(
      "PAYLOAD_MISMATCH",
      "Refused to complete the reset: factor is not the factor the customer chose",
      {
        retryable: false,
        details: { operation: "completeScaFactorReset", signature: 1, field: "factor" },
      },
    );
  }
  await client.request<unknown>(
    {
      ...at(SCA_FACTOR_RESET_COMPLETE, [resetId]),
      // "Other factors need no body"; the OpenAPI's request body is optional.
      ...(factor === "SMS_OTP"
        ? {
            body: JSON.stringify({
              mobile: { countryCode: mobile!.countryCode, number: mobile!.number },
            }),
          }
        : {}),
    },
    parameters,
  );
}

/** The call options a nested read shares with its caller. */
function callOptions(parameters: CallOptions): CallOptions {
  return {
    ...(parameters.signal ? { signal: parameters.signal } : {}),
    ...(parameters.onEvent ? { onEvent: parameters.onEvent } : {}),
    ...(parameters.retry !== undefined ? { retry: parameters.retry } : {}),
  };
}

/** `POST /sca/factors/reset/{ScaReset}/complete`. */
export const SCA_FACTOR_RESET_COMPLETE = {
  method: "POST",
  path: "/sca/factors/reset/{ScaReset}/complete",
  expectedStatus: 204,
} as const satisfies ActionRoute;

/** completeScaFactorReset's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const completeScaFactorResetRow = {
  chunk: "scaFactors",
  sensitive: true,
  summary:
    "completes an SCA factor reset after liveness: the reset read and held to the factor chosen, then completed",
  parameters: "`{ resetId, factor, mobile? }`",
  resolvesTo: "`undefined`",
  requests: [{ route: SCA_FACTOR_RESET_GET }, { route: SCA_FACTOR_RESET_COMPLETE }],
  runs: ["getScaFactorReset"],
  errors: { client: [REQUEST_ERRORS, "PAYLOAD_MISMATCH"] },
  hook: {
    kind: "mutation",
    name: "useCompleteScaFactorReset",
    doc: "Completes an SCA factor reset after its liveness check (`completeScaFactorReset`); `useScaFactors` refetches.",
    invalidates: ["scaFactors"],
  },
} as const satisfies ActionSourceRow;
