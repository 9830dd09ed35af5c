// The customer's SCA login, asked first, as in the web demo (apps/demo/src/send/scaLogin.ts): the
// service would otherwise take the payment's first answer, refuse it with 409
// SCA_SESSION_REQUIRED, ask for the login, then ask for the same step again (a passkey's
// assertion is spent by then). When the login lasts is kept per customer in memory for this run
// of the app; after the app is killed the next payment logs in again.
import type { ScaChallengeContext, ScaChallengeJson, ScaLoginFactor, ScaProof } from "@signet/core";
import type { PendingScaChallenge } from "@signet/react";
import { useScaLogin } from "@signet/react";
import { useCallback, useRef, useState } from "react";

const sessions = new Map<string, number>();
/** A login that ends within this margin is treated as ended: the payment would outlive it. */
const MARGIN_MS = 60_000;

/** Whether the app knows of a live SCA login of the customer. */
export function scaSessionLive(customerId: string, now = Date.now()): boolean {
  const until = sessions.get(customerId);
  return until !== undefined && until - MARGIN_MS > now;
}

function remember(customerId: string, expiresAt: string | undefined): void {
  // Without an end from the service, the login is taken to last five minutes.
  const until = expiresAt ? Date.parse(expiresAt) : Date.now() + 5 * 60_000;
  if (Number.isFinite(until)) sessions.set(customerId, until);
}

/** A step waiting for the customer, with the way to send its SMS code again. */
export type WaitingStep = PendingScaChallenge & { resend: () => Promise<void> };

/**
 * `ensure(factor)`: logs the customer in to SCA unless the app knows a live login; its
 * challenge shows as `waiting` until `answer`. Rejects with the login's typed error.
 */
export function useScaLoginFirst(customerId: string) {
  const login = useScaLogin();
  const [waiting, setWaiting] = useState<WaitingStep>();
  const pending = useRef<(proof: ScaProof) => void>(undefined);
  const { mutateAsync, reset } = login;
  const ensure = useCallback(
    async (factor: ScaLoginFactor) => {
      if (scaSessionLive(customerId)) return;
      const onChallenge = (challenge: ScaChallengeJson, context: ScaChallengeContext) =>
        new Promise<ScaProof>((resolve) => {
          pending.current = resolve;
          setWaiting({
            challenge,
            step: context.step,
            error: context.error,
            login: true,
            // The payment this login is asked for, when the service asked at the payment.
            quote: context.quote,
            resend: context.resend,
          });
        });
      try {
        const done = await mutateAsync({ factor, onChallenge });
        remember(customerId, done.sessionExpiresAt);
      } finally {
        pending.current = undefined;
        setWaiting(undefined);
      }
    },
    [customerId, mutateAsync],
  );
  const answer = useCallback((proof: ScaProof) => {
    const resolve = pending.current;
    pending.current = undefined;
    setWaiting(undefined);
    resolve?.(proof);
  }, []);
  return {
    ensure,
    waiting,
    answer,
    error: login.error,
    isPending: login.isPending,
    isSuccess: login.isSuccess,
    isError: login.isError,
    reset,
  };
}
