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
  /**
   * True for the customer's SCA login, which the service asked for before it would take the
   * payment's answer (`challenge.purpose` is `"SCA_LOGIN"`): say "confirm it is you".
   */
  login: boolean;
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
  const [pendingChallenge, setPendingChallenge] = useState<PendingScaChallenge>();
  // The latest call's number and its waiting challenge: only the latest call touches them.
  const latest = useRef(0);
  const waiting = useRef<Waiting | undefined>(undefined);

  const action = useCallback(
    (
      client: Parameters<typeof authorizeQuote>[0],
      variables: UseAuthorizeQuoteVariables,
    ): Promise<AuthorizeQuoteReturnType> => {
      // A new call: the previous one's wait ends (`answer` only ever reaches the latest call).
      waiting.current?.cancel();
      const call = ++latest.current;
      const isLatest = () => latest.current === call;
      const { signal } = variables;
      const onChallenge: AuthorizeQuoteParameters["onChallenge"] =
        variables.onChallenge ??
        ((challenge, { step, error, resend, login }) =>
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
            setPendingChallenge({ challenge, step, error, login: login === true });
          }));
      return authorizeQuote(client, { ...variables, onChallenge }).finally(() => {
        // A stale call's settlement never touches the latest call's state.
        if (!isLatest()) return;
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
  >(action, "authorizeQuote");

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
