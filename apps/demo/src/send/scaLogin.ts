// The customer's SCA login, asked first: the service would otherwise take the payment's first
// answer, refuse it with 409 SCA_SESSION_REQUIRED, ask for the login, then ask for the same step
// again (a passkey's assertion is spent by then: one more tap). Logging in before the payment
// costs one tap or code per step and no more. When the login lasts is kept per customer in
// localStorage, so every tab of the browser knows it. That note is only this browser's belief: the
// service judges, and when it refuses the execute for want of the login (409
// SCA_SESSION_REQUIRED), useExecuteQuote runs the login there and the note is corrected.
import type {
  ConfirmedQuote,
  ScaChallengeContext,
  ScaChallengeJson,
  ScaLoginFactor,
  ScaProof,
} from "@signet/core";
import type { PendingScaChallenge } from "@signet/react";
import { useScaLogin } from "@signet/react";
import { useCallback } from "react";
import { useCodePrompt } from "../useCodePrompt.js";

const key = (customerId: string) => `signet-demo:sca-session:${customerId}`;
/** A login that ends within this margin is treated as ended: the payment would outlive it. */
const MARGIN_MS = 60_000;

/** Whether this browser knows of a live SCA login of the customer. */
export function scaSessionLive(customerId: string, now = Date.now()): boolean {
  try {
    const until = Number(localStorage.getItem(key(customerId)));
    return Number.isFinite(until) && until - MARGIN_MS > now;
  } catch {
    return false;
  }
}

/**
 * Notes a live SCA login of the customer: until `expiresAt`, or five minutes when the service
 * gave no end (a login run inside the payment's execute reports none).
 */
export function rememberScaSession(customerId: string, expiresAt: string | undefined): void {
  // Without an end from the service, the login is taken to last five minutes.
  const until = expiresAt ? Date.parse(expiresAt) : Date.now() + 5 * 60_000;
  try {
    if (Number.isFinite(until)) localStorage.setItem(key(customerId), String(until));
  } catch {}
}

/** The service said the customer has no SCA session (409 SCA_SESSION_REQUIRED): this browser's
 * note of one is wrong (it ended early, or on the service's clock), so it is dropped. */
export function forgetScaSession(customerId: string): void {
  try {
    localStorage.removeItem(key(customerId));
  } catch {}
}

/** A step waiting for the customer, with the way to send its SMS code again. */
export type WaitingStep = PendingScaChallenge & { resend: () => Promise<void> };

/**
 * `ensure(factor, quote)`: logs the customer in to SCA unless this browser knows a live login
 * (`fresh` logs in even then: the service said there is none); its challenge shows as `waiting`,
 * with the payment it is asked for, until `answer`. Rejects with the login's typed error.
 */
export function useScaLoginFirst(customerId: string) {
  const login = useScaLogin();
  // The step on screen; the answer (a code, or a passkey's tap) is Confirm's.
  const prompt = useCodePrompt<WaitingStep, ScaProof>((code) => ({ code }));
  const { ask, clear } = prompt;
  const { mutateAsync, reset } = login;
  const ensure = useCallback(
    async (factor: ScaLoginFactor, quote: ConfirmedQuote, fresh = false) => {
      if (fresh) forgetScaSession(customerId);
      else if (scaSessionLive(customerId)) return;
      const onChallenge = (challenge: ScaChallengeJson, context: ScaChallengeContext) =>
        ask({
          challenge,
          step: context.step,
          error: context.error,
          login: true,
          // The payment this login is asked for: the quote the user pressed "Sign and send"
          // (or "Confirm") on, shown beside the prompt.
          quote: context.quote ?? quote,
          resend: context.resend,
        });
      try {
        const done = await mutateAsync({ factor, onChallenge });
        rememberScaSession(customerId, done.sessionExpiresAt);
      } finally {
        clear();
      }
    },
    [customerId, mutateAsync, ask, clear],
  );
  // The step leaves the screen as soon as it is answered (the next one, if any, replaces it).
  const answer = useCallback(
    (proof: ScaProof) => {
      prompt.answer(proof);
      clear();
    },
    [prompt.answer, clear],
  );
  return {
    ensure,
    waiting: prompt.asking,
    answer,
    error: login.error,
    isPending: login.isPending,
    isSuccess: login.isSuccess,
    isError: login.isError,
    reset,
  };
}
