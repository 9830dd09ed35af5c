// Step-up before sensitive actions (docs/security.md "Step-up"): an action `createClient`'s
// `stepUp` names runs only when the account's user proved themselves on this device (a sign-in by
// passkey or by code, `Session.verifiedAt`) within `maxAgeMs`. The check wraps each action it can
// name in the action's chunk (catalog/chunks/*.ts, generated), the one place every call of it
// passes through before its own code asks for, signs or sends anything; the rule is stepUpRule.ts.
// All of it is chunk code: the page loads none of it up front.

import { type SignetClient, SKEW_TOLERANCE_MS } from "../client.js";
import type { SigningKeyRecord } from "../crypto/backend.js";
import { SignetError } from "../errors/errors.js";
import type { KeyStore } from "../keys/key-store.js";
import { CLOCK_MARK_PREFIX, parseClockMark } from "../session/clockMark.js";
import type { Session, SessionSnapshot } from "../session/sessionStore.js";
import { type StepUpPolicy, stepUpRequired } from "../session/stepUpRule.js";
import { STEP_UP_ACTIONS, type StepUpAction } from "./stepUpActions.js";

/** What `getStepUpStatus` says of an account's verification. */
export type StepUpStatus = {
  /** Whether the action (or any action `stepUp` names, when none is given) would be refused now. */
  required: boolean;
  /** The newest verification held (RFC 3339), if any. */
  verifiedAt: string | undefined;
  /**
   * Until when it counts (RFC 3339, the device's clock: the earlier of its ends on the device's
   * clock and on the service's); absent when step-up is off or none is held.
   */
  validUntil: string | undefined;
  /** `createClient`'s `stepUp.maxAgeMs`; absent when step-up is off. */
  maxAgeMs: number | undefined;
};

/**
 * The newest verification of the sessions held for `accountId`, or of every held session when the
 * call names no account (the SCA factor and beneficiary actions: the device's user).
 */
function newestVerification(
  snapshot: SessionSnapshot,
  accountId: string | undefined,
): Session | undefined {
  const held: readonly Session[] =
    accountId === undefined ? Object.values(snapshot).flat() : (snapshot[accountId] ?? []);
  let newest: Session | undefined;
  for (const session of held)
    if (
      session.verifiedAt &&
      (newest?.verifiedAt === undefined ||
        Date.parse(session.verifiedAt) > Date.parse(newest.verifiedAt))
    )
      newest = session;
  return newest;
}

/** A mark's record: no key, nothing secret; it only satisfies the KeyStore's record shape. */
const MARK_RECORD: SigningKeyRecord = { type: "scalar", privateKey: "", publicKey: "" };

/**
 * Stores `ms` as the device's high-water mark (session/clockMark.ts), then deletes the lower marks
 * (this tab's older ones, or another tab's): the highest always stays, whatever tabs interleave.
 */
async function writeClockMark(store: KeyStore, ms: number): Promise<void> {
  const whole = Math.floor(ms);
  await store.set(`${CLOCK_MARK_PREFIX}${whole}`, MARK_RECORD);
  for (const id of await store.list()) {
    const marked = parseClockMark(id);
    if (marked !== undefined && marked < whole) await store.delete(id);
  }
}

/**
 * How far the device's time must have risen past the last mark written before another is: a
 * write is a set, a list and deletes in the key store (IndexedDB in a browser), and the checks
 * and session changes that raise the mark come many a minute. The cost is the tolerance of the
 * guarantee across a reload: the stored mark may lag the highest time shown by less than this,
 * so a date set back by less than this after the last write may count, never one set back by
 * more (docs/security.md "The device's clock"). Within a page the mark in memory is exact.
 */
export const CLOCK_MARK_STEP_MS = 60_000;

/** Per client: the highest mark written to its key store, and the writes in flight, in order. */
const marks = new WeakMap<SignetClient, { written: number; writing: Promise<void> }>();

/**
 * The device's time through the session store's high-water mark, which is kept in the key store
 * beside the sessions once it has risen {@link CLOCK_MARK_STEP_MS} past the last mark written
 * (the one the store held when the client loaded it, or this client's own; in memory only where
 * the store refuses the entry). From the client's first check on, every change of its held
 * sessions (a sign-in, each refresh) raises it too, so the mark follows the app while it runs.
 */
function deviceNow(client: SignetClient): number {
  const at = client.sessions.deviceTime();
  let kept = marks.get(client);
  if (kept === undefined) {
    kept = { written: client.sessions.storedMark(), writing: Promise.resolve() };
    marks.set(client, kept);
    client.sessions.subscribe(() => deviceNow(client));
  }
  if (kept.written === 0 || at >= kept.written + CLOCK_MARK_STEP_MS) {
    kept.written = at;
    kept.writing = kept.writing.then(async () => {
      try {
        await writeClockMark(await client.keyStore(), at);
      } catch {
        // A store that takes key records only: the mark stays in memory, for this client's life.
      }
    });
  }
  return at;
}

/**
 * How far the service's clock may step back on its own: it follows the relay's `Date` only past
 * SKEW_TOLERANCE_MS and drops back to the device's under it, and the header counts whole seconds.
 */
const SERVICE_CLOCK_SLACK_MS = SKEW_TOLERANCE_MS + 1_000;

/**
 * The newest verification held for `accountId` and whether `action` needs a new one now, the one
 * reading of the check and of `getStepUpStatus`, synchronous: the held sessions are loaded.
 *
 * The age must be under the maximum on both clocks the client keeps. On the device's (`client.timer`
 * read through the session store's high-water mark, so a date set back, even across a reload, does
 * not take "now" back below a time the device has shown), which a relay's `Date` header cannot move;
 * and on the service's (`client.clock`, the device clock corrected by that header), which a date
 * set back on the device does not move, measured from the verification's moment on that clock (a
 * session stored before core recorded it: its device moment, which can only ask for a new
 * verification sooner).
 */
function verification(
  client: SignetClient,
  policy: StepUpPolicy | undefined,
  action: string,
  accountId: string | undefined,
): { verifiedAt: string | undefined; required: boolean; validUntilMs: number | undefined } {
  const newest = newestVerification(client.sessions.getSnapshot(), accountId);
  const verifiedAt = newest?.verifiedAt;
  const onService = Date.parse(newest?.verifiedAtService ?? verifiedAt ?? "");
  // The service clock's deadline told on the device's clock, for `validUntil`.
  const serviceDeadline =
    onService + (policy?.maxAgeMs ?? 0) - (client.clock.now() - client.timer.now());
  const validUntilMs =
    policy && verifiedAt
      ? Math.min(Date.parse(verifiedAt) + policy.maxAgeMs, serviceDeadline)
      : undefined;
  if (!policy?.actions.has(action)) return { verifiedAt, required: false, validUntilMs };
  const serviceAge = client.clock.now() - onService;
  const young =
    !stepUpRequired(policy, action, verifiedAt, deviceNow(client)) &&
    serviceAge >= -SERVICE_CLOCK_SLACK_MS &&
    serviceAge < policy.maxAgeMs;
  return { verifiedAt, required: !young, validUntilMs };
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
 * `action`'s refusal with `STEP_UP_REQUIRED` when `policy` names it and its user has not verified
 * within the maximum age, or `undefined`: judged before the action's own code, so nothing is
 * signed or sent, and from the loaded sessions without waiting for anything.
 */
function refusal(
  client: SignetClient,
  policy: StepUpPolicy,
  action: string,
  parameters: unknown,
): SignetError | undefined {
  const named = (parameters as { accountId?: unknown } | undefined)?.accountId;
  const accountId = typeof named === "string" ? named : undefined;
  const { verifiedAt, required } = verification(client, policy, action, accountId);
  if (!required) return undefined;
  return new SignetError(
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
 * `action` behind the step-up check: what the chunks export for each action `stepUp` can name.
 * An action step-up does not name runs at once; a named one too, after a synchronous check, once
 * the held sessions are loaded (`createClient` starts reading them when `stepUp` is set), so a
 * passkey prompt the action opens (`addPasskey`) is still inside the tap that asked for it. A call
 * made before that first read has finished (a tap in the page's first milliseconds, or a key
 * store that failed to read) waits for it, and its prompt may then fall outside the tap: the
 * browser refuses it with a typed `WEBAUTHN_*` error, and a second tap succeeds.
 * @throws {SignetError} `STEP_UP_REQUIRED`: run `stepUp`, then the action again; and what reading
 *   the key store throws.
 */
export function withStepUp<TAction extends GuardedAction>(name: string, action: TAction): TAction {
  const guarded: GuardedAction = (client, parameters) => {
    const policy = policyOf(client);
    // Not named (or step-up off): the action runs at once, in the caller's very call.
    if (!policy?.actions.has(name)) return action(client, parameters);
    const checked = () => {
      const refused = refusal(client, policy, name, parameters);
      return refused ? Promise.reject(refused) : action(client, parameters);
    };
    return client.sessions.loaded() ? checked() : client.sessions.load().then(checked);
  };
  // The guard takes the action's arguments and returns its own result, so it has the action's
  // signature, generic ones included (`exportWallet`'s result follows the client's signer).
  return guarded as TAction;
}

/** An action as `withStepUp` guards it: a client, the action's parameters, a promise. */
type GuardedAction = (client: SignetClient, parameters: never) => Promise<unknown>;

/** `getStepUpStatus`'s reading, once the held sessions are loaded. */
export async function stepUpStatus(
  client: SignetClient,
  parameters: { accountId?: string | undefined; action?: string | undefined },
): Promise<StepUpStatus> {
  const policy = policyOf(client);
  const action = parameters.action ?? [...(policy?.actions ?? [])][0] ?? "";
  await client.sessions.load();
  const { verifiedAt, required, validUntilMs } = verification(
    client,
    policy,
    action,
    parameters.accountId,
  );
  return {
    required,
    verifiedAt,
    validUntil: validUntilMs === undefined ? undefined : new Date(validUntilMs).toISOString(),
    maxAgeMs: policy?.maxAgeMs,
  };
}
