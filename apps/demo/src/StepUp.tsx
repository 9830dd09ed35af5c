// "Confirm it is you": core's step-up (`createClient`'s `stepUp`, on in this demo for the
// sensitive actions) asks for a sign-in by passkey or code within the last few minutes before
// something that gives the wallet away. This prompt is the one call that re-verifies
// (`useStepUp().verify`): the passkey ceremony, or a code sent to the email or phone and typed
// here. The user stays signed in; the new session carries the new verification time.
import type { UseStepUpReturnType } from "@signet/react";
import { type FormEvent, useId, useRef, useState } from "react";
import type { DemoCredential, DemoProfile } from "./demoApi.js";
import { CodeInput, ErrorNote } from "./ui.js";

/** How long a sign-in counts before an export asks again (the demo client's `stepUp.maxAgeMs`). */
export const STEP_UP_MAX_AGE_MS = 5 * 60_000;

export function StepUp({
  profile,
  step,
  onVerified,
}: {
  profile: DemoProfile;
  /** The screen's `useStepUp` (its status decides when this shows). */
  step: UseStepUpReturnType;
  onVerified: () => void;
}) {
  const first = profile.credentials.find((c) => c.type === "PASSKEY");
  const email = profile.credentials.find((c) => c.type === "EMAIL_OTP");
  const sms = profile.credentials.find((c) => c.type === "SMS_OTP");
  // Which way the user chose (the mutation is shared, so each button knows its own call).
  const [via, setVia] = useState<string>();
  return (
    <section className="sca" aria-labelledby="step-up-title">
      <h2 id="step-up-title">Confirm it is you</h2>
      <p className="muted small">
        Your last sign-in on this device was more than {STEP_UP_MAX_AGE_MS / 60_000} minutes ago.
        Before the recovery phrase is shown, prove it is you again: anyone holding this unlocked
        device could otherwise take the wallet.
      </p>
      {first && (
        <>
          <button
            type="button"
            className="primary"
            disabled={step.isPending}
            onClick={() => {
              setVia(first.id);
              step.verify({ credentialId: first.id }).then(onVerified, () => undefined);
            }}
          >
            {step.isPending && via === first.id
              ? "Waiting for your device…"
              : "Confirm with your passkey"}
          </button>
          {via === first.id && (
            <ErrorNote error={step.error} title="The passkey did not confirm it" />
          )}
        </>
      )}
      {[
        email && { credential: email, label: `Email a code to ${profile.email}` },
        sms && { credential: sms, label: `Text a code to ${profile.phoneNumber ?? "your phone"}` },
      ].map(
        (way) =>
          way && (
            <CodeStep
              key={way.credential.id}
              credential={way.credential}
              label={way.label}
              step={step}
              chosen={via === way.credential.id}
              onChoose={() => setVia(way.credential.id)}
              onVerified={onVerified}
            />
          ),
      )}
    </section>
  );
}

/**
 * A code sent by `stepUp` itself: its `onCode` waits for what the user types here. A new code
 * starts another `stepUp`; the one it replaces is ended.
 */
function CodeStep({
  credential,
  label,
  step,
  chosen,
  onChoose,
  onVerified,
}: {
  credential: DemoCredential;
  label: string;
  step: UseStepUpReturnType;
  chosen: boolean;
  onChoose: () => void;
  onVerified: () => void;
}) {
  const [code, setCode] = useState("");
  const [asking, setAsking] = useState(false);
  const waiting = useRef<{ resolve: (code: string) => void; reject: (why: Error) => void }>(
    undefined,
  );
  const id = useId();
  const send = () => {
    waiting.current?.reject(new Error("a new code was asked for"));
    waiting.current = undefined;
    onChoose();
    setCode("");
    step
      .verify({
        credentialId: credential.id,
        onCode: () =>
          new Promise<string>((resolve, reject) => {
            waiting.current = { resolve, reject };
            setAsking(true);
          }),
      })
      .then(onVerified, () => {
        setCode("");
        setAsking(false);
      });
  };
  const check = (digits: string) => {
    const pending = waiting.current;
    if (!pending) return;
    waiting.current = undefined;
    pending.resolve(digits);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    check(code);
  };
  if (!chosen || !asking)
    return (
      <>
        <button type="button" className="secondary" disabled={step.isPending} onClick={send}>
          {step.isPending && chosen ? "Sending…" : label}
        </button>
        {chosen && <ErrorNote error={step.error} title="That did not confirm it" />}
      </>
    );
  return (
    <form className="stack" onSubmit={submit}>
      <label htmlFor={id}>Code to confirm it is you</label>
      <CodeInput id={id} value={code} onChange={setCode} onComplete={check} />
      <div className="row wrap">
        <button type="submit" className="primary" disabled={!waiting.current}>
          {step.isPending && !waiting.current ? "Checking…" : "Confirm"}
        </button>
        <button type="button" className="link" onClick={send}>
          Send a new code
        </button>
      </div>
      <ErrorNote error={step.error} title="That code did not confirm it" />
    </form>
  );
}
