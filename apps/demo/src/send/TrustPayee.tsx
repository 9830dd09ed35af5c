// An EU customer's trusted payee: once trusted (confirmed with an SMS code), payments to it skip
// the per-payment second factor, as the service's documents say; untrusting asks for a code too.
import { useTrustBeneficiary, useUntrustBeneficiary } from "@signet/react";
import { useId, useState } from "react";
import { CodeInput, ErrorNote } from "../ui.js";
import { useCodePrompt } from "../useCodePrompt.js";

/** What the customer is asked: after a refused code, the refusal. */
type Asking = { error: unknown };

export function TrustPayee({ externalAccountId }: { externalAccountId: string }) {
  const trust = useTrustBeneficiary();
  const untrust = useUntrustBeneficiary();
  const [trusted, setTrusted] = useState<boolean>();
  // The code typed for the change on screen, handed back to the action.
  const { asking, ask, clear, code, setCode, submit } = useCodePrompt<Asking, { code: string }>(
    (typed) => ({ code: typed }),
  );
  const codeId = useId();
  const busy = trust.isPending || untrust.isPending;

  const change = (next: boolean) => {
    const run = next ? trust : untrust;
    run
      .mutateAsync({
        externalAccountId,
        // Asked again with the service's refusal after a wrong code.
        onChallenge: (_challenge, { error }) => ask({ error }),
      })
      .then(
        (done) => setTrusted(done.trusted),
        // The hook's error shows below.
        () => undefined,
      )
      .finally(clear);
  };

  return (
    <div className="stack" data-testid="trust-payee">
      {trusted ? (
        <p role="status">
          <strong>Demo Payee is trusted:</strong> your next payments to them need no SMS code.
        </p>
      ) : null}
      {!asking && !busy ? (
        <button type="button" className="secondary" onClick={() => change(!trusted)}>
          {trusted ? "Stop trusting Demo Payee" : "Trust Demo Payee"}
        </button>
      ) : null}
      {asking ? (
        <form className="stack" onSubmit={submit}>
          <label htmlFor={codeId}>Code sent by SMS</label>
          <CodeInput
            id={codeId}
            value={code}
            onChange={setCode}
            onComplete={(digits) => submit(undefined, digits)}
          />
          <ErrorNote error={asking.error} title="That code was not accepted" />
          <button type="submit" disabled={code.length !== 6}>
            Confirm
          </button>
        </form>
      ) : null}
      <ErrorNote error={trust.error ?? untrust.error} title="The payee was not changed" />
    </div>
  );
}
