import { assertCall, assertServiceId } from "../arguments/arguments.js";
import type { ActionSourceRow } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { StepUpAction } from "../catalog/stepUpActions.js";
import { type StepUpStatus, stepUpStatus } from "../catalog/stepUpCheck.js";
import type { SignetClient } from "../client.js";
import type { SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";

export type GetStepUpStatusParameters = CallOptions & {
  /** The wallet (`InternalAccount:…`); absent: every held session's user. */
  accountId?: string | undefined;
  /** The action about to run; absent: any action `stepUp` names. */
  action?: StepUpAction | undefined;
};
export type GetStepUpStatusReturnType = StepUpStatus;
export type GetStepUpStatusErrorType = SignetErrorOf<ActionErrorCode<"getStepUpStatus">>;

/**
 * Whether an action would now be refused with `STEP_UP_REQUIRED` (`createClient`'s `stepUp`,
 * docs/security.md "Step-up"), read from the held sessions without a request, for a prompt to
 * show before the user starts the action: `required`, the newest `verifiedAt`, `validUntil` and
 * `maxAgeMs`. Step-up off, or an action it does not name: never required.
 *
 * @throws {SignetError} `INVALID_ARGUMENT`, `KEY_STORAGE_UNAVAILABLE` (the held sessions cannot be read), `NETWORK`
 *   (its code could not load).
 * @example
 * ```ts
 * if ((await getStepUpStatus(client, { accountId, action: "exportWallet" })).required)
 *   await stepUp(client, { accountId });
 * ```
 */
export async function getStepUpStatus(
  client: SignetClient,
  parameters: GetStepUpStatusParameters = {},
): Promise<GetStepUpStatusReturnType> {
  const { accountId, action } = assertCall(client, parameters);
  if (accountId !== undefined) assertServiceId("accountId", accountId, "InternalAccount");
  return stepUpStatus(client, { accountId, action });
}

/** getStepUpStatus's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const getStepUpStatusRow = {
  chunk: "wallet",
  summary:
    "whether `createClient`'s `stepUp` would refuse an action now, from the held sessions' `verifiedAt`: no request",
  parameters: "`{ accountId?, action? }`",
  resolvesTo: "`{ required, verifiedAt, validUntil, maxAgeMs }`",
  requests: [],
  errors: { client: ["INVALID_ARGUMENT", "KEY_STORAGE_UNAVAILABLE", "NETWORK"] },
  hook: { kind: "none", why: "`useStepUp` reads it, beside `stepUp`" },
} as const satisfies ActionSourceRow;
