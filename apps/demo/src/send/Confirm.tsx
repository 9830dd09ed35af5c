// Strong Customer Authentication (EU and EEA customers): the customer's login to payments, then
// each challenge of the executed payment, confirmed with the SMS code or a passkey. A
// cross-currency send asks twice. One box for all of them: the step waiting now.
import type { ScaProof } from "@signet/core";
import type { PendingScaChallenge } from "@signet/react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { CodeInput, ErrorNote, useSecondsLeft } from "../ui.js";

/** What each step authorizes, for its title (the service may add purposes: shown as they come). */
const PURPOSES: Record<string, string> = {
  CURRENCY_CONVERSION: "Confirm the currency conversion",
  PAYOUT: "Confirm the payout",
  TRANSFER: "Confirm the transfer",
};

export function Confirm({
  waiting,
  answer: send,
  resend: resendCode,
}: {
  waiting: PendingScaChallenge | undefined;
  answer: (proof: ScaProof) => void;
  resend: () => Promise<void>;
}) {
  const [code, setCode] = useState("");
  const [resent, setResent] = useState<"sent" | "sending">();
  const [resendError, setResendError] = useState<unknown>(null);
  const codeId = useId();
  const left = useSecondsLeft(waiting?.challenge.expiresAt);
  // Each new step (and a refused answer) brings the box into view with the field focused: on a
  // phone it would otherwise open below the fold.
  const boxRef = useRef<HTMLElement>(null);
  const fieldRef = useRef<HTMLInputElement>(null);
  const passkeyRef = useRef<HTMLButtonElement>(null);
  const challengeId = waiting?.challenge.id;
  const refused = waiting?.error;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a refused answer brings it back too
  useEffect(() => {
    if (!challengeId) return;
    boxRef.current?.scrollIntoView?.({ block: "start", behavior: "smooth" });
    (fieldRef.current ?? passkeyRef.current)?.focus({ preventScroll: true });
  }, [challengeId, refused]);
  if (!waiting) return null;
  const { challenge, step, error, login } = waiting;
  // The SMS code field is emptied for each new step and after a refused code.
  // The service may first ask for the customer's SCA login (its session lapsed or never began).
  const title = login
    ? "Confirm it is you"
    : ((challenge.purpose && PURPOSES[challenge.purpose]) ?? "Confirm the payment");

  const answer = (digits: string) => {
    send({ code: digits });
    setCode("");
    setResent(undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    answer(code);
  };
  const resend = async () => {
    setResent("sending");
    setResendError(null);
    try {
      await resendCode();
      setResent("sent");
    } catch (e) {
      setResent(undefined);
      setResendError(e);
    }
  };

  return (
    <section className="sca" aria-labelledby={`${codeId}-title`} ref={boxRef}>
      <h2 id={`${codeId}-title`}>{login ? title : `Step ${step}: ${title}`}</h2>
      <p className="muted small">
        {login
          ? "Before a payment, your bank asks EU customers to confirm it is them (strong customer authentication); it lasts a while, so the next payments ask only their own steps."
          : "Your bank asks EU customers to confirm each payment (strong customer authentication)."}
        {left !== undefined && ` This request is valid for ${left} s.`}
      </p>
      <ErrorNote error={error} title="That confirmation was not accepted" />
      {challenge.factor === "PASSKEY" ? (
        <button
          type="button"
          className="primary"
          ref={passkeyRef}
          onClick={() => send({ passkey: true })}
        >
          Confirm with your passkey
        </button>
      ) : (
        <form onSubmit={submit} className="stack">
          <label htmlFor={codeId}>Code sent by SMS (sandbox: 123456)</label>
          <div className="row">
            <CodeInput
              id={codeId}
              inputRef={fieldRef}
              value={code}
              onChange={setCode}
              onComplete={answer}
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
            <p role="status" className="note note-ok">
              A new code was sent just now. Enter it above.
            </p>
          )}
          <ErrorNote error={resendError} title="Could not send a new code" />
        </form>
      )}
    </section>
  );
}
