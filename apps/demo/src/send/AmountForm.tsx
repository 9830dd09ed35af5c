// The amount to send, and for an EU customer how they confirm payments (an SMS code, or a passkey
// once one is set up for payments: a sign-in passkey is not enough).
import type { ScaLoginFactor } from "@signet/core";
import { skipToken, useEnrollScaPasskey, useScaFactors } from "@signet/react";
import { type FormEvent, useId } from "react";
import { ErrorNote } from "../ui.js";

export function AmountForm({
  amount,
  onAmount,
  onQuote,
  currencyCode,
  quoting,
  locked,
  lockedHint,
}: {
  amount: string;
  onAmount: (typed: string) => void;
  onQuote: () => void;
  currencyCode: string;
  quoting: boolean;
  /** A payment is on its way: no new quote until it ends. */
  locked: boolean;
  lockedHint: string | undefined;
}) {
  const amountId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onQuote();
  };
  return (
    <form onSubmit={submit} className="stack">
      <label htmlFor={amountId}>
        Amount to send to Demo Payee (bank account ••6789), {currencyCode}
      </label>
      <div className="row">
        <input
          id={amountId}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(e) => onAmount(e.target.value)}
          required
          aria-describedby={`${amountId}-hint`}
        />
        <button type="submit" className="secondary" disabled={quoting || locked}>
          {quoting ? "Quoting…" : "Get quote"}
        </button>
      </div>
      <p id={`${amountId}-hint`} className="hint">
        {locked
          ? (lockedHint ?? "A payment is on its way: finish it before starting another.")
          : "A decimal point or comma both work: 12.50 or 12,50."}
      </p>
    </form>
  );
}

export function FactorChoice({
  factor,
  onFactor,
  disabled,
}: {
  factor: ScaLoginFactor;
  onFactor: (factor: ScaLoginFactor) => void;
  disabled: boolean;
}) {
  const hintId = useId();
  const factors = useScaFactors({});
  const enroll = useEnrollScaPasskey();
  const hasPasskey = factors.data?.some((f) => f.factor === "PASSKEY") === true;
  // The choice can never promise a passkey the customer does not have.
  const chosen = factor === "PASSKEY" && hasPasskey ? "PASSKEY" : "SMS_OTP";
  return (
    <fieldset disabled={disabled}>
      <legend>Confirm EU payments with</legend>
      <label className="radio">
        <input
          type="radio"
          name="sca-factor"
          checked={chosen === "SMS_OTP"}
          onChange={() => onFactor("SMS_OTP")}
        />
        SMS code
      </label>
      <label className="radio">
        <input
          type="radio"
          name="sca-factor"
          checked={chosen === "PASSKEY"}
          disabled={!hasPasskey}
          aria-describedby={hintId}
          onChange={() => onFactor("PASSKEY")}
        />
        Passkey{hasPasskey ? "" : " (set one up first)"}
      </label>
      {!hasPasskey && factors.isSuccess && (
        <p id={hintId} className="hint">
          A passkey confirms payments once it is set up for that (a sign-in passkey is not enough).{" "}
          <button
            type="button"
            className="link"
            disabled={enroll.isPending}
            // Straight from the tap: the passkey prompt opens at once.
            onClick={() =>
              enroll.mutateAsync({}).then(
                () => onFactor("PASSKEY"),
                () => undefined,
              )
            }
          >
            {enroll.isPending ? "Waiting for your device…" : "Set up a passkey for payments"}
          </button>
        </p>
      )}
      <ErrorNote error={enroll.error} title="Could not set up the passkey for payments" />
      <ErrorNote error={factors.error} title="Could not load how you confirm payments" />
    </fieldset>
  );
}

/** The factor that will be used: a passkey only when one is set up for payments. */
export function useChosenFactor(factor: ScaLoginFactor, needsSca: boolean): ScaLoginFactor {
  const factors = useScaFactors(needsSca ? {} : skipToken);
  const hasPasskey = factors.data?.some((f) => f.factor === "PASSKEY") === true;
  return factor === "PASSKEY" && hasPasskey ? "PASSKEY" : "SMS_OTP";
}
