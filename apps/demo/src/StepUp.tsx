// A second factor before something that gives the wallet away (the recovery phrase): the user
// proves it is them again, with a code sent to their email or phone, or their passkey, even with a
// live session. Each proof is a fresh sign-in with the service (a new session), good for five
// minutes here.
import { useRequestOtp, useSignInWithPasskey, useVerifyOtp } from "@signet/react";
import { type FormEvent, useId, useState } from "react";
import type { DemoCredential, DemoProfile } from "./demoApi.js";
import { CodeInput, ErrorNote } from "./ui.js";

/** How long a proof lets the phrase be revealed. */
export const STEP_UP_MS = 5 * 60_000;

export function StepUp({ profile, onProved }: { profile: DemoProfile; onProved: () => void }) {
  const passkey = useSignInWithPasskey();
  const first = profile.credentials.find((c) => c.type === "PASSKEY");
  const email = profile.credentials.find((c) => c.type === "EMAIL_OTP");
  const sms = profile.credentials.find((c) => c.type === "SMS_OTP");
  return (
    <section className="sca" aria-labelledby="step-up-title">
      <h2 id="step-up-title">Confirm it is you</h2>
      <p className="muted small">
        Before the recovery phrase is shown, prove it is you again: anyone holding this unlocked
        device could otherwise take the wallet.
      </p>
      {first && (
        <>
          <button
            type="button"
            className="primary"
            disabled={passkey.isPending}
            onClick={() =>
              passkey.mutateAsync({ credentialId: first.id }).then(onProved, () => undefined)
            }
          >
            {passkey.isPending ? "Waiting for your device…" : "Confirm with your passkey"}
          </button>
          <ErrorNote error={passkey.error} title="The passkey did not confirm it" />
        </>
      )}
      {email && (
        <CodeStep
          credential={email}
          label={`Email a code to ${profile.email}`}
          onProved={onProved}
        />
      )}
      {sms && (
        <CodeStep
          credential={sms}
          label={`Text a code to ${profile.phoneNumber ?? "your phone"}`}
          onProved={onProved}
        />
      )}
    </section>
  );
}

function CodeStep({
  credential,
  label,
  onProved,
}: {
  credential: DemoCredential;
  label: string;
  onProved: () => void;
}) {
  const request = useRequestOtp();
  const verify = useVerifyOtp();
  const [code, setCode] = useState("");
  const id = useId();
  const challenge = request.data;
  const check = (digits: string) => {
    if (!challenge || verify.isPending) return;
    verify.mutateAsync({ ...challenge, otpCode: digits }).then(onProved, () => setCode(""));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    check(code);
  };
  if (!challenge)
    return (
      <>
        <button
          type="button"
          className="secondary"
          disabled={request.isPending}
          onClick={() => request.mutate({ credentialId: credential.id })}
        >
          {request.isPending ? "Sending…" : label}
        </button>
        <ErrorNote error={request.error} title="Could not send the code" />
      </>
    );
  return (
    <form className="stack" onSubmit={submit}>
      <label htmlFor={id}>Code to confirm it is you</label>
      <CodeInput id={id} value={code} onChange={setCode} onComplete={check} />
      <div className="row wrap">
        <button type="submit" className="primary" disabled={verify.isPending}>
          {verify.isPending ? "Checking…" : "Confirm"}
        </button>
        <button
          type="button"
          className="link"
          disabled={request.isPending}
          onClick={() => {
            verify.reset();
            setCode("");
            request.mutate({ credentialId: credential.id });
          }}
        >
          Send a new code
        </button>
      </div>
      <ErrorNote error={verify.error} title="That code did not confirm it" />
    </form>
  );
}
