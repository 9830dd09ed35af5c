// docs/protocol.md §9 (SCA factor reset): a customer who lost an enrolled factor starts a
// liveness-gated reset (`POST /sca/factors/reset` `{ factor }` → 201 `TwoFactorResetStart`), passes
// the liveness check with the handles it answers, and the app polls `getScaFactorReset` until
// `LIVENESS_PASSED`, then calls `completeScaFactorReset`. The relay names the customer.

import { assertCall } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, SignetError, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { expectShape } from "../transport/responseShape.js";
import type { ScaFactor } from "../transport/wire.js";

export type StartScaFactorResetParameters = CallOptions & {
  /** The enrolled factor the customer lost. */
  factor: ScaFactor;
};
/** `TwoFactorResetStart`: the reset's handle and the liveness check's, when the service has one. */
export type StartScaFactorResetReturnType = {
  /** Pass to `getScaFactorReset` and `completeScaFactorReset`. */
  resetId: string;
  /** For an embedded liveness SDK, bound to this reset. */
  livenessAccessToken?: string | undefined;
  /** A hosted page where the customer completes the liveness check. */
  verificationLink?: string | undefined;
  /** When the reset window closes. */
  expiresAt?: string | undefined;
};
export type StartScaFactorResetErrorType = SignetErrorOf<ActionErrorCode<"startScaFactorReset">>;

/**
 * Starts recovering a lost SCA factor (`POST /sca/factors/reset`): answers the reset's id and the
 * liveness handles (`livenessAccessToken` for an embedded SDK, `verificationLink` for a hosted
 * page). Poll `getScaFactorReset` until `LIVENESS_PASSED`, then `completeScaFactorReset`.
 *
 * @throws {SignetError} `INVALID_INPUT` (400: a factor the customer has not enrolled),
 *   `CONFLICT` (409: not an SCA region), `RATE_LIMITED` (429: 5 starts per 24 hours;
 *   `details.retryAfterMs`), `MALFORMED_RESPONSE`, `NETWORK`, `INVALID_ARGUMENT`.
 * @example
 * ```ts
 * const { resetId, verificationLink } = await startScaFactorReset(client, { factor: "TOTP" });
 * ```
 */
export async function startScaFactorReset(
  client: SignetClient,
  parameters: StartScaFactorResetParameters,
): Promise<StartScaFactorResetReturnType> {
  const { factor } = assertCall(client, parameters);
  assertArgument(
    factor === "SMS_OTP" || factor === "TOTP" || factor === "PASSKEY",
    "factor",
    '"SMS_OTP", "TOTP" or "PASSKEY"',
    String(factor),
  );
  const start = expectShape<{
    resetId: string;
    livenessAccessToken?: unknown;
    verificationLink?: unknown;
    expiresAt?: unknown;
  }>(
    await client.request<unknown>(
      { ...at(SCA_FACTOR_RESET_START), body: JSON.stringify({ factor }) },
      parameters,
    ),
    ["resetId"],
    "TwoFactorResetStart",
  );
  assertResetId(start.resetId, "MALFORMED_RESPONSE");
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const link = text(start.verificationLink);
  // A hosted page the app may open: only a web page, never a script or a custom scheme.
  if (link !== undefined && !/^https?:\/\//i.test(link)) {
    throw new SignetError(
      "MALFORMED_RESPONSE",
      "TwoFactorResetStart.verificationLink is no web page",
    );
  }
  return {
    resetId: start.resetId,
    ...(text(start.livenessAccessToken)
      ? { livenessAccessToken: text(start.livenessAccessToken) }
      : {}),
    ...(link ? { verificationLink: link } : {}),
    ...(text(start.expiresAt) ? { expiresAt: text(start.expiresAt) } : {}),
  };
}

/**
 * A reset id as it goes into a path: the OpenAPI types it as a string, so only what cannot be a
 * path segment (a `/`, `?`, `%`, spaces) is refused.
 *
 * @throws {SignetError} `INVALID_ARGUMENT` for the app's value, `MALFORMED_RESPONSE` for the
 *   service's.
 */
export function assertResetId(
  resetId: unknown,
  code: "INVALID_ARGUMENT" | "MALFORMED_RESPONSE" = "INVALID_ARGUMENT",
): asserts resetId is string {
  if (typeof resetId === "string" && /^[A-Za-z0-9][A-Za-z0-9:._-]{0,127}$/.test(resetId)) return;
  if (code === "INVALID_ARGUMENT") {
    assertArgument(false, "resetId", "the resetId startScaFactorReset answered", typeof resetId);
  }
  throw new SignetError("MALFORMED_RESPONSE", "TwoFactorResetStart.resetId is no path segment");
}

/** `POST /sca/factors/reset`. */
export const SCA_FACTOR_RESET_START = {
  method: "POST",
  path: "/sca/factors/reset",
  expectedStatus: 201,
} as const satisfies ActionRoute;

/** startScaFactorReset's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const startScaFactorResetRow = {
  chunk: "scaFactors",
  sensitive: true,
  summary: "starts recovering a lost SCA factor: the reset's id and its liveness handles",
  parameters: '`{ factor: "SMS_OTP" | "TOTP" | "PASSKEY" }`',
  resolvesTo: "`{ resetId, livenessAccessToken?, verificationLink?, expiresAt? }`",
  requests: [{ route: SCA_FACTOR_RESET_START }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "mutation",
    name: "useStartScaFactorReset",
    doc: "Starts recovering a lost SCA factor (`startScaFactorReset`): the liveness handles to show; poll `getScaFactorReset`.",
    invalidates: [],
  },
} as const satisfies ActionSourceRow;
