// Step-up before sensitive actions (docs/security.md "Step-up"): an action `createClient`'s
// `stepUp` names runs only when the account's user proved themselves on this device (a sign-in by
// passkey or by code, `Session.verifiedAt`) within `maxAgeMs`. The rule is one pure function
// (stepUpRule.ts); `checkStepUp` applies it where the lazy actions' stubs run
// (catalog/chunks/lazy.ts), before an action's code sends or signs anything.
import type { SignetClient } from "../client.js";
import { SignetError } from "../errors/errors.js";
import { lastVerifiedAt, stepUpRequired } from "./stepUpRule.js";

/**
 * Refuses `action` with `STEP_UP_REQUIRED` when the client's `stepUp` names it and its user has not
 * verified within the maximum age; called by the action's stub before the action's own code runs,
 * so nothing is signed or sent. Resolves at once when step-up is off or the action is not named.
 * @throws {SignetError} `STEP_UP_REQUIRED`: run `stepUp`, then the action again.
 */
export async function checkStepUp(
  client: SignetClient,
  action: string,
  parameters: unknown,
): Promise<void> {
  const policy = client.stepUp;
  if (!policy?.actions.has(action)) return;
  const named = (parameters as { accountId?: unknown } | undefined)?.accountId;
  const accountId = typeof named === "string" ? named : undefined;
  // The held sessions are read from the key store on first use.
  await client.sessions.load();
  const verifiedAt = lastVerifiedAt(client.sessions.getSnapshot(), accountId);
  if (!stepUpRequired(policy, action, verifiedAt, client.timer.now())) return;
  throw new SignetError(
    "STEP_UP_REQUIRED",
    `${action} needs a recent sign-in: verify again (stepUp), then retry`,
    {
      details: {
        action,
        maxAgeMs: policy.maxAgeMs,
        ...(verifiedAt ? { verifiedAt } : {}),
        ...(accountId ? { accountId } : {}),
      },
    },
  );
}

/** What {@link getStepUpStatus} says of an account's verification. */
export type StepUpStatus = {
  /** Whether the action (or any action `stepUp` names, when none is given) would be refused now. */
  required: boolean;
  /** The newest verification held (RFC 3339), if any. */
  verifiedAt: string | undefined;
  /** Until when it counts (RFC 3339, the device's clock); absent when step-up is off or none is held. */
  validUntil: string | undefined;
  /** `createClient`'s `stepUp.maxAgeMs`; absent when step-up is off. */
  maxAgeMs: number | undefined;
};

/**
 * Whether an action would now be refused with `STEP_UP_REQUIRED`, read from the held sessions
 * without a request (as loaded: call after `client.sessions.load()`), for a prompt to show before
 * the user starts the action. `action` absent: the verification itself, for every action
 * `stepUp` names.
 *
 * @example
 * ```ts
 * if (getStepUpStatus(client, { accountId, action: "exportWallet" }).required)
 *   await stepUp(client, { accountId });
 * ```
 */
export function getStepUpStatus(
  client: SignetClient,
  parameters: { accountId?: string | undefined; action?: string | undefined } = {},
): StepUpStatus {
  const policy = client.stepUp;
  const verifiedAt = lastVerifiedAt(client.sessions.getSnapshot(), parameters.accountId);
  const action = parameters.action ?? [...(policy?.actions ?? [])][0] ?? "";
  return {
    required: stepUpRequired(policy, action, verifiedAt, client.timer.now()),
    verifiedAt,
    validUntil:
      policy && verifiedAt
        ? new Date(Date.parse(verifiedAt) + policy.maxAgeMs).toISOString()
        : undefined,
    maxAgeMs: policy?.maxAgeMs,
  };
}
