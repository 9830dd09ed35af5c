"use client";
// docs/migrating.md, "The SCA login step and useAuthorizeQuote's states": the "after" code of an
// App Router app's EU payment, as the note shows it (a test compares the two, and
// test/migrating.test.tsx runs it against the emulator over HTTP).
import type { ExecuteQuoteReturnType, ScaProof } from "@signet/core";
import { skipToken, useAuthorizeQuote, useScaLogin, useTransaction } from "@signet/react";
import { type ReactNode, useEffect, useState } from "react";

/**
 * Logs the customer in to SCA before the payment (once per SCA session: until
 * `data.sessionExpiresAt`), so the payment's first answer is not refused with 409
 * `SCA_SESSION_REQUIRED` and a passkey payment costs one tap less.
 */
export function ScaLoginFirst({ children }: { children: ReactNode }) {
  const login = useScaLogin();
  const { mutate } = login;
  const [submit, setSubmit] = useState<((proof: ScaProof) => void) | undefined>();
  const [code, setCode] = useState("");
  useEffect(() => {
    mutate({
      factor: "SMS_OTP",
      // The login's SMS code, from the form below.
      onChallenge: () => new Promise<ScaProof>((resolve) => setSubmit(() => resolve)),
    });
  }, [mutate]);
  if (login.isSuccess) return children;
  if (login.isError) return <p role="alert">{login.error.message}</p>;
  if (!submit) return <p>Sending a code…</p>;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setSubmit(undefined);
        submit({ code });
      }}
    >
      <h2>Confirm it is you</h2>
      <input value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" />
      <button type="submit">Log in</button>
    </form>
  );
}

/** Confirms an executed EU quote: each of its challenges, and the login if the service asks. */
export function ConfirmPayment({ executed }: { executed: ExecuteQuoteReturnType }) {
  const sca = useAuthorizeQuote();
  const { mutate } = sca;
  useEffect(() => {
    if (executed.status === "PENDING_AUTHORIZATION") mutate({ quote: executed });
  }, [executed, mutate]);
  const [code, setCode] = useState("");
  // The released quote names its transaction; follow it until it settles.
  const transactionId = sca.isSuccess ? sca.data.transactionId : undefined;
  const transaction = useTransaction(transactionId ? { transactionId } : skipToken);
  if (sca.isError) {
    const { error } = sca;
    // `details` is typed by the code: the lockout says until when.
    if (error.code === "ACCOUNT_LOCKED")
      return <p role="alert">Locked until {error.details.lockedUntil ?? "support unlocks it"}</p>;
    return <p role="alert">{error.message}</p>;
  }
  const waiting = sca.pendingChallenge;
  if (!waiting) return sca.isSuccess ? <p>Payment {transaction.data?.status ?? "sent"}</p> : null;
  // The service may still ask for the SCA login inside the payment (a session that ran out).
  const title = waiting.login ? "Confirm it is you" : (waiting.challenge.purpose ?? "Confirm");
  if (waiting.challenge.factor === "PASSKEY")
    return (
      <button type="button" onClick={() => sca.answer({ passkey: true })}>
        {title}: use your passkey
      </button>
    );
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        sca.answer({ code });
      }}
    >
      <h2>{title}</h2>
      {waiting.error && <p role="alert">{waiting.error.message}</p>}
      <input value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" />
      <button type="submit">Confirm</button>
      <button type="button" onClick={() => void sca.resend()}>
        Send a new code
      </button>
    </form>
  );
}
