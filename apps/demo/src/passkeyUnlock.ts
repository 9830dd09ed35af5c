// The unlock screen's passkey: a challenge is asked of the service only when a passkey is about to
// be used (the button is pressed, or the account field is focused for autofill), never on load,
// so reloading the screen costs nothing. A challenge not spent (the prompt was closed) is used
// again while it lives, and a 429 is waited out (its Retry-After) instead of shown as a failure.
import { isSignetError, type PreparedPasskeySignIn, preparePasskeySignIn } from "@signet/core";
import { useClient, useSignInWithPasskey } from "@signet/react";
import { useCallback, useEffect, useRef, useState } from "react";

/** A challenge is not used within this margin of its end: the tap and the prompt take time. */
const MARGIN_MS = 20_000;
/** Waits out at most this many 429s in a row before the last one is shown. */
const MAX_WAITS = 3;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

const retryAfterMs = (error: unknown): number | undefined => {
  if (!isSignetError(error) || error.code !== "RATE_LIMITED") return undefined;
  const details = error.details as { retryAfterMs?: unknown } | undefined;
  const ms = typeof details?.retryAfterMs === "number" ? details.retryAfterMs : 5_000;
  return Math.min(Math.max(ms, 1_000), 60_000);
};

export function usePasskeyUnlock(credentialId: string | undefined) {
  const client = useClient();
  const signIn = useSignInWithPasskey();
  const prepared = useRef<PreparedPasskeySignIn | undefined>(undefined);
  const [waitingUntil, setWaitingUntil] = useState<number>();
  const [prepareError, setPrepareError] = useState<unknown>(null);
  const stop = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    stop.current = controller;
    return () => controller.abort();
  }, []);

  /** The live challenge, or a new one (429s waited out). */
  const challenge = useCallback(
    async (id: string): Promise<PreparedPasskeySignIn> => {
      const held = prepared.current;
      if (held && Date.parse(held.challenge.expiresAt) - MARGIN_MS > Date.now()) return held;
      prepared.current = undefined;
      for (let waits = 0; ; waits++) {
        try {
          const fresh = await preparePasskeySignIn(client, { credentialId: id });
          setWaitingUntil(undefined);
          prepared.current = fresh;
          return fresh;
        } catch (error) {
          const wait = retryAfterMs(error);
          if (wait === undefined || waits >= MAX_WAITS || stop.current.signal.aborted) {
            setWaitingUntil(undefined);
            throw error;
          }
          setWaitingUntil(Date.now() + wait);
          await sleep(wait, stop.current.signal);
        }
      }
    },
    [client],
  );

  const { mutateAsync } = signIn;
  const run = useCallback(
    async (options: { autofill?: boolean; signal?: AbortSignal } = {}) => {
      if (!credentialId) return;
      setPrepareError(null);
      let ready: PreparedPasskeySignIn;
      try {
        ready = await challenge(credentialId);
      } catch (error) {
        if (!options.autofill) setPrepareError(error);
        return;
      }
      try {
        await mutateAsync({ prepared: ready, ...options });
        prepared.current = undefined;
      } catch (error) {
        // A closed or timed-out prompt leaves the challenge unspent: the next tap uses it again.
        const unspent =
          isSignetError(error) && (error.code.startsWith("WEBAUTHN_") || error.code === "ABORTED");
        if (!unspent) prepared.current = undefined;
      }
    },
    [credentialId, challenge, mutateAsync],
  );
  return { signIn, run, waitingUntil, prepareError };
}
