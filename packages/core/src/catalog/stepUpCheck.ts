// Step-up before sensitive actions (docs/security.md "Step-up"): an action `createClient`'s
// `stepUp` names runs only when the account's user proved themselves on this device (a sign-in by
// passkey or by code, `Session.verifiedAt`) within `maxAgeMs`. The check wraps each action it can
// name in the action's chunk (catalog/chunks/*.ts, generated), the one place every call of it
// passes through before its own code asks for, signs or sends anything; the rule is stepUpRule.ts.
// All of it is chunk code: the page loads none of it up front.

import type { SignetClient } from "../client.js";
import { SignetError } from "../errors/errors.js";
import type { Session, SessionSnapshot } from "../session/sessionStore.js";
import { type StepUpPolicy, stepUpRequired } from "../session/stepUpRule.js";
import { STEP_UP_ACTIONS, type StepUpAction } from "./stepUpActions.js";

/** What `getStepUpStatus` says of an account's verification. */
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
 * The newest `verifiedAt` of the sessions held for `accountId`, or of every held session when the
 * call names no account (the SCA factor and beneficiary actions: the device's user).
 */
function lastVerifiedAt(
  snapshot: SessionSnapshot,
  accountId: string | undefined,
): string | undefined {
  const held: readonly Session[] =
    accountId === undefined ? Object.values(snapshot).flat() : (snapshot[accountId] ?? []);
  let newest: string | undefined;
  for (const { verifiedAt } of held)
    if (verifiedAt && (newest === undefined || Date.parse(verifiedAt) > Date.parse(newest)))
      newest = verifiedAt;
  return newest;
}

/**
 * The newest verification held for `accountId` and whether `action` needs a new one now, the one
 * reading of the check and of `getStepUpStatus`. The held sessions are read from the key store on
 * first use.
 */
async function verification(
  client: SignetClient,
  policy: StepUpPolicy | undefined,
  action: string,
  accountId: string | undefined,
): Promise<{ verifiedAt: string | undefined; required: boolean }> {
  await client.sessions.load();
  const verifiedAt = lastVerifiedAt(client.sessions.getSnapshot(), accountId);
  return { verifiedAt, required: stepUpRequired(policy, action, verifiedAt, client.timer.now()) };
}

const policies = new WeakMap<SignetClient, StepUpPolicy>();

/** The client's `stepUp` with its preset resolved (`"sensitive"`: the rows marked so), once. */
function policyOf(client: SignetClient): StepUpPolicy | undefined {
  // Not a client: the action's own argument check says so (INVALID_ARGUMENT).
  const options = (client as Partial<SignetClient> | null | undefined)?.stepUp;
  if (!options) return undefined;
  let policy = policies.get(client);
  if (!policy) {
    const names = Object.keys(STEP_UP_ACTIONS) as StepUpAction[];
    policy = {
      actions: new Set(
        options.actions === "sensitive"
          ? names.filter((name) => STEP_UP_ACTIONS[name])
          : options.actions,
      ),
      maxAgeMs: options.maxAgeMs,
    };
    policies.set(client, policy);
  }
  return policy;
}

/**
 * Refuses `action`, which `policy` names, with `STEP_UP_REQUIRED` when its user has not verified
 * within the maximum age; run before the action's own code, so nothing is signed or sent.
 * @throws {SignetError} `STEP_UP_REQUIRED`: run `stepUp`, then the action again.
 */
async function checkStepUp(
  client: SignetClient,
  policy: StepUpPolicy,
  action: string,
  parameters: unknown,
): Promise<void> {
  const named = (parameters as { accountId?: unknown } | undefined)?.accountId;
  const accountId = typeof named === "string" ? named : undefined;
  const { verifiedAt, required } = await verification(client, policy, action, accountId);
  if (!required) return;
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

/**
 * `action` behind {@link checkStepUp}: what the chunks export for each action `stepUp` can name.
 * An action step-up does not name runs synchronously; a named one after the check (the held
 * sessions loaded first), which a browser may count outside the tap for a passkey prompt.
 */
export function withStepUp<TParameters, TResult>(
  name: string,
  action: (client: SignetClient, parameters: TParameters) => Promise<TResult>,
): (client: SignetClient, parameters: TParameters) => Promise<TResult> {
  return (client, parameters) => {
    const policy = policyOf(client);
    // Not named (or step-up off): the action runs at once, in the caller's very call, so a
    // passkey prompt it opens is still inside the tap that asked for it.
    if (!policy?.actions.has(name)) return action(client, parameters);
    return checkStepUp(client, policy, name, parameters).then(() => action(client, parameters));
  };
}

/** `getStepUpStatus`'s reading, once the held sessions are loaded. */
export async function stepUpStatus(
  client: SignetClient,
  parameters: { accountId?: string | undefined; action?: string | undefined },
): Promise<StepUpStatus> {
  const policy = policyOf(client);
  const action = parameters.action ?? [...(policy?.actions ?? [])][0] ?? "";
  const { verifiedAt, required } = await verification(client, policy, action, parameters.accountId);
  return {
    required,
    verifiedAt,
    validUntil:
      policy && verifiedAt
        ? new Date(Date.parse(verifiedAt) + policy.maxAgeMs).toISOString()
        : undefined,
    maxAgeMs: policy?.maxAgeMs,
  };
}
