"use client";
// Mutations: one hook state per component, the call's own signed-request stage, cancellation on
// unmount, and the queries a success changes refetched.
import type {
  CallOptions,
  RetryEvent,
  SignedRequestStage,
  SignetClient,
  SignetError,
  SignetEvent,
} from "@signet/core";
import { useCallback, useEffect, useRef, useState } from "react";
import { useSignetContext } from "./context.js";
import { invalidatedBy, type SignetMutationName } from "./queries.js";
import { asSignetError, type UnexpectedErrorType } from "./queryCache.js";

type MutationResultBase<TVariables, TData> = {
  /** Starts the call; the outcome lands in `status`, `data` and `error` (never thrown). */
  mutate: (variables: TVariables) => void;
  /** Starts the call and returns its promise (rejects with the typed error). */
  mutateAsync: (variables: TVariables) => Promise<TData>;
  /** The latest call's signed-request progress: `challenge` → `signing` → `submitting` → `processing` → `done`/`failed`. */
  stage: SignedRequestStage | undefined;
  /**
   * The wait the latest call is in before it sends again: core's `retry` event (`reason`:
   * `"transient"`, `"rate-limited"`, `"processing"` or `"restart"`; `attempt`; `delayMs`;
   * `retryAt`, epoch ms on the client's clock; the last try's `status` and `code`). It lasts
   * until the call's next event (a signed request's next send starting, or the retried plain
   * request's answer) and is `undefined` once the call settles: show "retrying in 3 s" from it.
   */
  retrying: RetryEvent | undefined;
  /**
   * Whether the service answers the latest call PROCESSING (docs/protocol.md §2.5: it accepted
   * the operation and has not settled it; the call re-sends the same request until it does).
   * Show "still signing you in…", "still removing…" while it is `true`, not an error.
   */
  isProcessing: boolean;
  /**
   * While `isProcessing`: when the first PROCESSING answer came (epoch ms, the client's clock)
   * and how many came so far. A call the action keeps (a revoke, a sign-out, a credential add)
   * survives a reload: the next page's client carries it on (`usePendingCalls`).
   */
  pendingSince: number | undefined;
  processingAttempt: number | undefined;
  /** Back to `idle` (a call under way still finishes, and its outcome is dropped). */
  reset: () => void;
};

/** No call yet (or after `reset`). */
export type MutationIdleResult<TVariables, TData> = MutationResultBase<TVariables, TData> & {
  status: "idle";
  isIdle: true;
  isPending: false;
  isSuccess: false;
  isError: false;
  data: undefined;
  error: null;
  variables: undefined;
};
/** A call under way. */
export type MutationPendingResult<TVariables, TData> = MutationResultBase<TVariables, TData> & {
  status: "pending";
  isIdle: false;
  isPending: true;
  isSuccess: false;
  isError: false;
  data: undefined;
  error: null;
  /** The variables of the latest call. */
  variables: TVariables;
};
/** The latest call succeeded. */
export type MutationSuccessResult<TVariables, TData> = MutationResultBase<TVariables, TData> & {
  status: "success";
  isIdle: false;
  isPending: false;
  isSuccess: true;
  isError: false;
  data: TData;
  error: null;
  variables: TVariables;
};
/** The latest call failed with the action's typed error. */
export type MutationErrorResult<TVariables, TData, TError> = MutationResultBase<
  TVariables,
  TData
> & {
  status: "error";
  isIdle: false;
  isPending: false;
  isSuccess: false;
  isError: true;
  data: undefined;
  /** The action's typed error, or `UNEXPECTED_ERROR` for anything else that was thrown. */
  error: TError | UnexpectedErrorType;
  variables: TVariables;
};

/**
 * What a mutation hook returns (TanStack Query's and wagmi's shape, plus `stage`): a union that
 * narrows on `status` and each `is…` flag (`if (m.isError) m.error.code`, `m.isSuccess && m.data`).
 */
export type UseMutationReturnType<TVariables, TData, TError extends SignetError = SignetError> =
  | MutationIdleResult<TVariables, TData>
  | MutationPendingResult<TVariables, TData>
  | MutationSuccessResult<TVariables, TData>
  | MutationErrorResult<TVariables, TData, TError>;

type State<TVariables, TData, TError> = {
  status: "idle" | "pending" | "success" | "error";
  data: TData | undefined;
  error: TError | null;
  variables: TVariables | undefined;
  stage: SignedRequestStage | undefined;
  retrying?: RetryEvent | undefined;
  pending?: { since: number; attempt: number } | undefined;
};

const IDLE = {
  status: "idle",
  data: undefined,
  error: null,
  variables: undefined,
  stage: undefined,
} as const;

/** The call's PROCESSING state after one of its events: set by `pending` ones, cleared at its end. */
function pendingAfter(
  before: State<unknown, unknown, unknown>["pending"],
  event: SignetEvent,
): State<unknown, unknown, unknown>["pending"] {
  if (event.type !== "pending") return before;
  if (event.state === "processing" || event.state === "resumed")
    return { since: event.since, attempt: event.attempt };
  return undefined;
}

/**
 * @internal The mutation hook behind every `useX` of a core action. The action is called in the
 * same task as `mutate`, so a passkey prompt stays inside the user's tap.
 */
export function useSignetMutation<
  TVariables extends CallOptions,
  TData,
  TError extends SignetError,
>(
  action: (client: SignetClient, variables: TVariables) => Promise<TData>,
  mutation: SignetMutationName,
): UseMutationReturnType<TVariables, TData, TError> {
  // The hook is `use` and the action's name: `useVerifyOtp` for `verifyOtp`.
  const { client, cache } = useSignetContext(
    `use${mutation[0]!.toUpperCase()}${mutation.slice(1)}`,
  );
  const [state, setState] = useState<State<TVariables, TData, TError>>(IDLE);
  const latest = useRef(0);
  const live = useRef(new Set<AbortController>());
  useEffect(() => {
    const controllers = live.current;
    return () => {
      // Unmounted: stop waiting. What the service already committed stays committed.
      latest.current++;
      for (const controller of controllers) controller.abort();
    };
  }, []);

  const mutateAsync = useCallback(
    async (variables: TVariables): Promise<TData> => {
      const call = ++latest.current;
      const current = () => latest.current === call;
      const controller = new AbortController();
      const given = variables.signal;
      given?.addEventListener("abort", () => controller.abort(given.reason), { once: true });
      live.current.add(controller);
      setState({ ...IDLE, status: "pending", variables });
      try {
        const data = await action(client, {
          ...variables,
          signal: controller.signal,
          onEvent: (event) => {
            variables.onEvent?.(event);
            // A retry wait lasts until the call's next event: the next send of a signed request
            // starting, or the answer to a retried plain request.
            if (current())
              setState((s) => ({
                ...s,
                retrying: event.type === "retry" ? event : undefined,
                stage: event.type === "signedRequest" ? event.stage : s.stage,
                pending: pendingAfter(s.pending, event),
              }));
          },
        });
        // The queries that read what the action changed (queries.ts, `mutationChanges`).
        for (const name of invalidatedBy(mutation)) cache.invalidate([name]);
        // The call's last event (its answer) already ended any retry wait.
        if (current())
          setState((s) => ({ ...s, status: "success", data, error: null, pending: undefined }));
        return data;
      } catch (thrown) {
        const error = asSignetError(thrown) as TError;
        if (current())
          setState((s) => ({
            ...s,
            status: "error",
            error,
            retrying: undefined,
            pending: undefined,
          }));
        throw error;
      } finally {
        live.current.delete(controller);
      }
    },
    // `action` and `mutation` are each hook's constants: `mutate` stays one function.
    [client, cache, action, mutation],
  );
  const mutate = useCallback(
    (variables: TVariables) => {
      mutateAsync(variables).catch(() => undefined);
    },
    [mutateAsync],
  );
  const reset = useCallback(() => {
    latest.current++;
    setState(IDLE);
  }, []);
  const { pending, ...shown } = state;
  return {
    ...shown,
    isProcessing: pending !== undefined,
    pendingSince: pending?.since,
    processingAttempt: pending?.attempt,
    mutate,
    mutateAsync,
    reset,
    isIdle: state.status === "idle",
    isPending: state.status === "pending",
    isSuccess: state.status === "success",
    isError: state.status === "error",
  } as UseMutationReturnType<TVariables, TData, TError>;
}
