"use client";
// Strong Customer Authentication as hook state: core's authorizeQuote (and executeQuote, when the
// service asks for the SCA login at execute) asks for each challenge's answer through a callback;
// here the waiting challenge is state for the screen to render, with the payment it confirms, and
// the screen answers it with `answer`.
import {
  type AuthorizeQuoteErrorType,
  type AuthorizeQuoteParameters,
  type AuthorizeQuoteReturnType,
  authorizeQuote,
  type CallOptions,
  type ConfirmedQuote,
  type ExecuteQuoteErrorType,
  type ExecuteQuoteParameters,
  type ExecuteQuoteReturnType,
  executeQuote,
  type ScaChallengeJson,
  type ScaProof,
  type SignetClient,
  SignetError,
} from "@signet/core";
import { useCallback, useRef, useState } from "react";
import { type UseMutationReturnType, useSignetMutation } from "./mutation.js";

/** The challenge that waits for the customer, as `useAuthorizeQuote` exposes it. */
export type PendingScaChallenge = {
  challenge: ScaChallengeJson;
  /** 1 for the payment's first challenge, 2 for the next (a cross-currency send asks twice). */
  step: number;
  /** Why the previous answer to this challenge was refused (a wrong or lapsed code): show it. */
  error: SignetError | undefined;
  /**
   * True for the customer's SCA login, which the service asked for before it would take the
   * payment's answer (`challenge.purpose` is `"SCA_LOGIN"`): say "confirm it is you".
   */
  login: boolean;
  /**
   * The payment this prompt confirms, as the user confirmed it (its amount, currencies and
   * payee): show it beside every prompt, the login's too.
   */
  quote: ConfirmedQuote | undefined;
};

/** `authorizeQuote`'s parameters; `onChallenge` is optional here (the hook's state answers). */
export type UseAuthorizeQuoteVariables = Omit<AuthorizeQuoteParameters, "onChallenge"> &
  Partial<Pick<AuthorizeQuoteParameters, "onChallenge">>;

/** What a hook whose call may ask for SCA proofs adds to a mutation's state. */
export type ScaPromptState = {
  /** The challenge the customer must answer now, or `undefined` when none waits. */
  pendingChallenge: PendingScaChallenge | undefined;
  /**
   * Answers the waiting challenge: `{ code }` for `SMS_OTP` and `TOTP`, `{ passkey: true }` for
   * `PASSKEY`. Call it in the tap's event handler for a passkey: the prompt opens right after.
   * Does nothing when no challenge waits.
   */
  answer: (proof: ScaProof) => void;
  /**
   * Sends the SMS code of the waiting challenge again (`SMS_OTP` only). Rejects with the typed
   * error (`RATE_LIMITED` when asked too often, `CONFLICT` for a factor without a resend).
   */
  resend: () => Promise<void>;
};

export type UseAuthorizeQuoteReturnType = UseMutationReturnType<
  UseAuthorizeQuoteVariables,
  AuthorizeQuoteReturnType,
  AuthorizeQuoteErrorType
> &
  ScaPromptState;

/** `executeQuote`'s parameters; `onChallenge` is optional here (the hook's state answers). */
export type UseExecuteQuoteVariables = ExecuteQuoteParameters;

export type UseExecuteQuoteReturnType = UseMutationReturnType<
  UseExecuteQuoteVariables,
  ExecuteQuoteReturnType,
  ExecuteQuoteErrorType
> &
  ScaPromptState;

type Waiting = {
  resolve: (proof: ScaProof) => void;
  cancel: () => void;
  resend: () => Promise<void>;
};

const aborted = (reason: unknown) =>
  new SignetError("ABORTED", "The authorization was stopped", { cause: reason });

/**
 * Releases a quote that `executeQuote` left in `PENDING_AUTHORIZATION` (customers in the EU and
 * EEA), through `authorizeQuote`. Start it with `mutate({ quote })`; each challenge then shows in
 * `pendingChallenge` until the screen calls `answer`. A refused answer comes back as the same
 * challenge with its `error`; the call ends with the released quote in `data`, or a typed `error`
 * (`SCA_SESSION_REQUIRED`, `ACCOUNT_LOCKED` with `details.lockedUntil`, `RATE_LIMITED`, …).
 * Unmounting or `reset` stops the wait; the quote is never executed again.
 *
 * Each call owns its wait: a new `mutate` (Strict Mode's second effect, say) ends the previous
 * call's wait as `ABORTED`, and a call that is no longer the latest never shows a challenge nor
 * clears the latest call's.
 *
 * @example
 * ```tsx
 * const execute = useExecuteQuote();
 * const sca = useAuthorizeQuote();
 * const { mutate } = sca;
 * const executed = execute.data;
 * useEffect(() => {
 *   if (executed?.status === "PENDING_AUTHORIZATION") mutate({ quote: executed });
 * }, [executed, mutate]);
 * // render sca.pendingChallenge?.challenge.purpose and a code field that calls sca.answer({ code })
 * ```
 */
export function useAuthorizeQuote(): UseAuthorizeQuoteReturnType {
  return useScaPrompts<
    UseAuthorizeQuoteVariables,
    AuthorizeQuoteReturnType,
    AuthorizeQuoteErrorType
  >(authorizeQuote, "authorizeQuote");
}

/**
 * Executes a quote from the wallet, once (`executeQuote`). For a customer in the EU or EEA whose
 * service asks for the SCA login at execute (409 `SCA_SESSION_REQUIRED`), the login's challenge
 * shows in `pendingChallenge` (`login: true`, with the payment in `quote`) until the screen calls
 * `answer`; the execute then goes again, once, under the same `Idempotency-Key`. Pass your own
 * `onChallenge` to answer it yourself, or `scaLogin: false` to get the 409 instead.
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset, pendingChallenge, answer, resend }`.
 */
export function useExecuteQuote(): UseExecuteQuoteReturnType {
  return useScaPrompts<UseExecuteQuoteVariables, ExecuteQuoteReturnType, ExecuteQuoteErrorType>(
    executeQuote,
    "executeQuote",
  );
}

/** The mutation of an action that asks for SCA proofs through `onChallenge`, as state. */
function useScaPrompts<
  TVariables extends CallOptions & {
    onChallenge?: AuthorizeQuoteParameters["onChallenge"] | undefined;
  },
  TData,
  TError extends SignetError,
>(
  run: (
    client: SignetClient,
    variables: TVariables & Pick<AuthorizeQuoteParameters, "onChallenge">,
  ) => Promise<TData>,
  name: "authorizeQuote" | "executeQuote",
): UseMutationReturnType<TVariables, TData, TError> & ScaPromptState {
  const [pendingChallenge, setPendingChallenge] = useState<PendingScaChallenge>();
  // The latest call's number and its waiting challenge: only the latest call touches them.
  const latest = useRef(0);
  const waiting = useRef<Waiting | undefined>(undefined);

  const action = useCallback(
    (client: SignetClient, variables: TVariables): Promise<TData> => {
      // A new call: the previous one's wait ends (`answer` only ever reaches the latest call).
      waiting.current?.cancel();
      const call = ++latest.current;
      const isLatest = () => latest.current === call;
      const { signal } = variables;
      const onChallenge: AuthorizeQuoteParameters["onChallenge"] =
        variables.onChallenge ??
        ((challenge, { step, error, resend, login, quote }) =>
          new Promise<ScaProof>((resolve, reject) => {
            let mine: Waiting | undefined;
            const release = () => {
              signal?.removeEventListener("abort", stop);
              if (mine && waiting.current === mine) {
                waiting.current = undefined;
                setPendingChallenge(undefined);
              }
            };
            const stop = () => {
              release();
              reject(aborted(signal?.reason));
            };
            // A call that is stopped, or no longer the latest, never shows its challenge.
            if (signal?.aborted || !isLatest()) return stop();
            mine = {
              resolve: (proof) => {
                release();
                resolve(proof);
              },
              cancel: stop,
              resend,
            };
            signal?.addEventListener("abort", stop, { once: true });
            waiting.current = mine;
            setPendingChallenge({ challenge, step, error, login: login === true, quote });
          }));
      return run(client, { ...variables, onChallenge }).finally(() => {
        // A stale call's settlement never touches the latest call's state.
        if (!isLatest()) return;
        waiting.current = undefined;
        setPendingChallenge(undefined);
      });
    },
    [run],
  );
  const mutation = useSignetMutation<TVariables, TData, TError>(action, name);

  const answer = useCallback((proof: ScaProof) => waiting.current?.resolve(proof), []);
  const resend = useCallback(async () => {
    const current = waiting.current;
    if (!current) throw new SignetError("INVALID_ARGUMENT", "No SCA challenge is waiting");
    await current.resend();
  }, []);
  const { reset: resetMutation } = mutation;
  const reset = useCallback(() => {
    // A challenge left unanswered would keep the call waiting for ever: end it first. The call
    // is no longer the latest: a challenge it meets after this is refused, never shown.
    latest.current++;
    waiting.current?.cancel();
    resetMutation();
  }, [resetMutation]);
  return { ...mutation, reset, pendingChallenge, answer, resend };
}
