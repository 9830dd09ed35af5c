// docs/protocol.md §9 (SCA factor reset): the status of a reset `startScaFactorReset` began
// (`GET /sca/factors/reset/{resetId}` → `TwoFactorResetStatus`), polled until `LIVENESS_PASSED`
// (then complete it) or a terminal value. The relay names the customer; the service scopes the
// reset to them.

import { assertCall } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { SignetError, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { expectShape } from "../transport/responseShape.js";
import type { ScaFactor } from "../transport/wire.js";
import { assertResetId } from "./startScaFactorReset.js";

/**
 * Where a reset stands (`TwoFactorResetStatus.status`): `INITIATED` and `PENDING_REVIEW` keep
 * polling, `LIVENESS_PASSED` is ready to complete, `COMPLETED`, `REJECTED` and `EXPIRED` are final.
 */
export type ScaFactorResetStatus =
  | "INITIATED"
  | "PENDING_REVIEW"
  | "LIVENESS_PASSED"
  | "COMPLETED"
  | "REJECTED"
  | "EXPIRED";

export type GetScaFactorResetParameters = CallOptions & {
  /** The `resetId` `startScaFactorReset` answered. */
  resetId: string;
};
/** `TwoFactorResetStatus`. */
export type GetScaFactorResetReturnType = {
  status: ScaFactorResetStatus | (string & {});
  /** The factor being reset. */
  factor: ScaFactor | (string & {});
  /** The replacement's enrolment: `PENDING` until re-enrolled; null for an SMS_OTP reset. */
  enrollmentStatus?: "PENDING" | "COMPLETED" | null | undefined;
  /** When the reset window closes: poll no longer. */
  expiresAt: string;
  completedAt?: string | null | undefined;
};
export type GetScaFactorResetErrorType = SignetErrorOf<ActionErrorCode<"getScaFactorReset">>;

/**
 * Reads an SCA factor reset's status (`GET /sca/factors/reset/{resetId}`). Poll it (every few
 * seconds, no later than `expiresAt`) until `LIVENESS_PASSED`, then `completeScaFactorReset`; stop
 * on `COMPLETED`, `REJECTED` or `EXPIRED` (the last two: start a new reset).
 *
 * @throws {SignetError} `NOT_FOUND` (404: no such reset of this customer), `CONFLICT` (409: not an
 *   SCA region), `MALFORMED_RESPONSE`, `NETWORK`, `INVALID_ARGUMENT`.
 * @example
 * ```ts
 * const { status } = await getScaFactorReset(client, { resetId });
 * if (status === "LIVENESS_PASSED") await completeScaFactorReset(client, { resetId, factor: "TOTP" });
 * ```
 */
export async function getScaFactorReset(
  client: SignetClient,
  parameters: GetScaFactorResetParameters,
): Promise<GetScaFactorResetReturnType> {
  const { resetId } = assertCall(client, parameters);
  assertResetId(resetId);
  const status = expectShape<GetScaFactorResetReturnType>(
    await client.request<unknown>(at(SCA_FACTOR_RESET_GET, [resetId]), parameters),
    ["status", "factor", "expiresAt"],
    "TwoFactorResetStatus",
  );
  const enrollment = status.enrollmentStatus;
  if (enrollment !== undefined && enrollment !== null && typeof enrollment !== "string") {
    throw new SignetError("MALFORMED_RESPONSE", "TwoFactorResetStatus.enrollmentStatus");
  }
  return status;
}

/** `GET /sca/factors/reset/{ScaReset}`. */
export const SCA_FACTOR_RESET_GET = {
  method: "GET",
  path: "/sca/factors/reset/{ScaReset}",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** getScaFactorReset's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const getScaFactorResetRow = {
  chunk: "scaFactors",
  summary: "an SCA factor reset's status, polled until `LIVENESS_PASSED`",
  parameters: "`{ resetId }`",
  resolvesTo: "`{ status, factor, enrollmentStatus?, expiresAt, completedAt? }`",
  requests: [{ route: SCA_FACTOR_RESET_GET }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "none",
    why: "a poll of the one reset the app started, on a timer of the app's (the liveness check runs outside it); no resource of the query cache",
  },
} as const satisfies ActionSourceRow;
