"use client";
// Strong Customer Authentication as hook state: core's authorizeQuote asks for each challenge's
// answer through a callback; here the waiting challenge is state for the screen to render, and
// the screen answers it with `answer`.
import {
  type AuthorizeQuoteErrorType,
  type AuthorizeQuoteParameters,
  type AuthorizeQuoteReturnType,
  authorizeQuote,
  type ScaChallengeJson,
  type ScaProof,
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
};

/** `authorizeQuote`'s parameters; `onChallenge` is optional here (the hook's state answers). */
export type UseAuthorizeQuoteVariables = Omit<AuthorizeQuoteParameters, "onChallenge"> &
  Partial<Pick<AuthorizeQuoteParameters, "onChallenge">>;

export type UseAuthorizeQuoteReturnType = UseMutationReturnType<
  UseAuthorizeQuoteVariables,
  AuthorizeQuoteReturnType,
  AuthorizeQuoteErrorType
> & {
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

type Waiting = {
  resolve: (proof: ScaProof) => void;
  cancel: () => void;
  resend: () => Promise<void>;
};

/**
 * Releases a quote that `executeQuote` left in `PENDING_AUTHORIZATION` (customers in the EU and
 * EEA), through `authorizeQuote`. Start it with `mutate({ quote })`; each challenge then shows in
 * `pendingChallenge` until the screen calls `answer`. A refused answer comes back as the same
 * challenge with its `error`; the call ends with the released quote in `data`, or a typed `error`
 * (`SCA_SESSION_REQUIRED`, `ACCOUNT_LOCKED` with `details.lockedUntil`, `RATE_LIMITED`, …).
 * Unmounting or `reset` stops the wait; the quote is never executed again.
 *
 * @example
 * ```tsx
 * const execute = useExecuteQuote();
 * const sca = useAuthorizeQuote();
 * const executed = execute.data;
 * useEffect(() => {
 *   if (executed?.status === "PENDING_AUTHORIZATION") sca.mutate({ quote: executed });
 * }, [executed]);
 * // render sca.pendingChallenge?.challenge.purpose and a code field that calls sca.answer({ code })
 * ```
 */
export function useAuthorizeQuote(): UseAuthorizeQuoteReturnType {
  const [pendingChallenge, setPendingChallenge] = useState<PendingScaChallenge>();
  const waiting = useRef<Waiting | undefined>(undefined);

  const action = useCallback(
    (
      client: Parameters<typeof authorizeQuote>[0],
      variables: UseAuthorizeQuoteVariables,
    ): Promise<AuthorizeQuoteReturnType> => {
      const { signal } = variables;
      const onChallenge: AuthorizeQuoteParameters["onChallenge"] =
        variables.onChallenge ??
        ((challenge, { step, error, resend }) =>
          new Promise<ScaProof>((resolve, reject) => {
            const stop = () => {
              if (waiting.current?.resolve !== settle) return;
              waiting.current = undefined;
              setPendingChallenge(undefined);
              reject(
                new SignetError("ABORTED", "The authorization was stopped", {
                  cause: signal?.reason,
                }),
              );
            };
            const settle = (proof: ScaProof) => {
              signal?.removeEventListener("abort", stop);
              waiting.current = undefined;
              setPendingChallenge(undefined);
              resolve(proof);
            };
            if (signal?.aborted) return stop();
            signal?.addEventListener("abort", stop, { once: true });
            waiting.current = { resolve: settle, cancel: stop, resend };
            setPendingChallenge({ challenge, step, error });
          }));
      return authorizeQuote(client, { ...variables, onChallenge }).finally(() => {
        waiting.current = undefined;
        setPendingChallenge(undefined);
      });
    },
    [],
  );
  const mutation = useSignetMutation<
    UseAuthorizeQuoteVariables,
    AuthorizeQuoteReturnType,
    AuthorizeQuoteErrorType
  >("useAuthorizeQuote", action, ["getQuote", "listInternalAccounts", "waitForTransaction"]);

  const answer = useCallback((proof: ScaProof) => waiting.current?.resolve(proof), []);
  const resend = useCallback(async () => {
    const current = waiting.current;
    if (!current) throw new SignetError("INVALID_ARGUMENT", "No SCA challenge is waiting");
    await current.resend();
  }, []);
  const { reset: resetMutation } = mutation;
  const reset = useCallback(() => {
    // A challenge left unanswered would keep the call waiting for ever: end it first.
    waiting.current?.cancel();
    resetMutation();
  }, [resetMutation]);
  return { ...mutation, reset, pendingChallenge, answer, resend };
}
