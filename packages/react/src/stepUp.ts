"use client";
// Step-up in React (core's `stepUp` option, docs/security.md "Step-up"): whether the user must
// verify again before a sensitive action, and the one call that does it.
import {
  getStepUpStatus,
  type StepUpAction,
  type StepUpErrorType,
  type StepUpParameters,
  type StepUpReturnType,
  type StepUpStatus,
  stepUp,
} from "@signet/core";
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { useSignetContext } from "./context.js";
import { type UseMutationReturnType, useSignetMutation } from "./mutation.js";

/** Until the first reading (the held sessions are read from the key store). */
const UNKNOWN: StepUpStatus = {
  required: false,
  verifiedAt: undefined,
  validUntil: undefined,
  maxAgeMs: undefined,
};

/** Parameters of {@link useStepUp}. */
export type UseStepUpParameters = {
  /** The wallet (`InternalAccount:…`) whose user verifies. */
  accountId?: string | undefined;
  /** The action about to run; absent: any action the client's `stepUp` names. */
  action?: StepUpAction | undefined;
};

/** What {@link useStepUp} returns: the status, and `stepUp` as a mutation. */
export type UseStepUpReturnType = UseMutationReturnType<
  StepUpParameters,
  StepUpReturnType,
  StepUpErrorType
> &
  StepUpStatus & {
    /**
     * Verifies again for the hook's account (by passkey, or by code with `onCode`) and resolves
     * to the new session; `required` turns false with it.
     */
    verify: (
      options?: Omit<StepUpParameters, "accountId"> & { accountId?: string },
    ) => Promise<StepUpReturnType>;
  };

/**
 * Step-up for one account: `required` (the action would fail with `STEP_UP_REQUIRED` now; false
 * until the held sessions are read), `verifiedAt` and `validUntil`, re-rendered when a
 * verification lapses or a new one is held; and
 * `verify()`, core's `stepUp` in one call, with the mutation's `status` and typed `error`. A
 * mutation hook whose action was refused has `error.code === "STEP_UP_REQUIRED"`: show the
 * prompt, `verify()`, then run the action again.
 *
 * @example
 * ```tsx
 * const exportWallet = useExportWallet();
 * const step = useStepUp({ accountId, action: "exportWallet" });
 * const run = async () => {
 *   if (step.required) await step.verify(); // a passkey; or step.verify({ onCode: askCode })
 *   exportWallet.mutate({ accountId });
 * };
 * ```
 */
export function useStepUp(parameters: UseStepUpParameters = {}): UseStepUpReturnType {
  const { client } = useSignetContext("useStepUp");
  const { accountId, action } = parameters;
  const snapshot = useSyncExternalStore(
    client.sessions.subscribe,
    client.sessions.getSnapshot,
    client.sessions.getSnapshot,
  );
  const [tick, setTick] = useState(0);
  const [status, setStatus] = useState<StepUpStatus>(UNKNOWN);
  // Read again when the held sessions change (a sign-in, a stepUp) and when a verification lapses.
  // biome-ignore lint/correctness/useExhaustiveDependencies: snapshot and tick are the reasons to read again
  useEffect(() => {
    let live = true;
    getStepUpStatus(client, { accountId, action }).then(
      (read) => live && setStatus(read),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, accountId, action, snapshot, tick]);
  // Render again when the verification lapses, so that `required` turns true on time.
  useEffect(() => {
    if (status.required || status.validUntil === undefined) return;
    const delay = Math.max(0, Date.parse(status.validUntil) - Date.now()) + 10;
    const timer = setTimeout(() => setTick((n) => n + 1), delay);
    return () => clearTimeout(timer);
  }, [status.required, status.validUntil]);
  const mutation = useSignetMutation<StepUpParameters, StepUpReturnType, StepUpErrorType>(
    stepUp,
    "stepUp",
  );
  const { mutateAsync } = mutation;
  const verify = useCallback<UseStepUpReturnType["verify"]>(
    (options = {}) => mutateAsync({ ...options, accountId: options.accountId ?? accountId ?? "" }),
    [mutateAsync, accountId],
  );
  return { ...mutation, ...status, verify };
}
