// Strong Customer Authentication (EU and EEA customers): the executed payment waits until each of
// its challenges is confirmed, with the SMS code or a passkey. A cross-currency send asks twice.
import type { UseAuthorizeQuoteReturnType } from "@signet/react";
import { type FormEvent, useId, useState } from "react";
import { ErrorNote, useSecondsLeft } from "./ui.js";

/** What each step authorizes, for its title (the service may add purposes: shown as they come). */
const PURPOSES: Record<string, string> = {
  CURRENCY_CONVERSION: "Confirm the currency conversion",
  PAYOUT: "Confirm the payout",
  TRANSFER: "Confirm the transfer",
};

export function Authorize({ sca }: { sca: UseAuthorizeQuoteReturnType }) {
  const waiting = sca.pendingChallenge;
  const [code, setCode] = useState("");
  const [resent, setResent] = useState<"sent" | "sending">();
  const [resendError, setResendError] = useState<unknown>(null);
  const codeId = useId();
  const left = useSecondsLeft(waiting?.challenge.expiresAt);
  if (!waiting) return null;
  const { challenge, step, error } = waiting;
  const title =
    (challenge.purpose && PURPOSES[challenge.purpose]) ??
    (challenge.purpose ? `Confirm: ${challenge.purpose}` : "Confirm the payment");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    sca.answer({ code });
    setCode("");
    setResent(undefined);
  };
  const resend = async () => {
    setResent("sending");
    setResendError(null);
    try {
      await sca.resend();
      setResent("sent");
    } catch (e) {
      setResent(undefined);
      setResendError(e);
    }
  };

  return (
    <section className="sca" aria-labelledby={`${codeId}-title`}>
      <h2 id={`${codeId}-title`}>
        Step {step}: {title}
      </h2>
      <p className="muted small">
        Your bank asks EU customers to confirm each payment (strong customer authentication).
        {left !== undefined && ` This request is valid for ${left} s.`}
      </p>
      <ErrorNote error={error} title="That confirmation was not accepted" />
      {challenge.factor === "PASSKEY" ? (
        <button type="button" className="primary" onClick={() => sca.answer({ passkey: true })}>
          Confirm with your passkey
        </button>
      ) : (
        <form onSubmit={submit} className="stack">
          <label htmlFor={codeId}>Code sent by SMS (sandbox: 123456)</label>
          <div className="row">
            <input
              id={codeId}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value.trim())}
              required
              pattern="[0-9]{6}"
              maxLength={6}
            />
            <button type="submit" className="primary">
              Confirm
            </button>
          </div>
          <button
            type="button"
            className="link"
            disabled={resent === "sending"}
            onClick={() => void resend()}
          >
            {resent === "sending" ? "Sending…" : "Send a new code"}
          </button>
          {resent === "sent" && (
            <p role="status" className="muted small">
              A new code is on its way.
            </p>
          )}
          <ErrorNote error={resendError} title="Could not send a new code" />
        </form>
      )}
    </section>
  );
}
