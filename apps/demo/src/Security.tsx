// The second factors of an EU customer (Strong Customer Authentication): an authenticator app
// set up from a QR code and confirmed with its first code, and the reset of a lost factor after a
// liveness check. Customers elsewhere have no SCA: the screen says so.
import { getScaFactorReset, type ScaTotpSetup } from "@signet/core";
import {
  useClient,
  useCompleteScaFactorReset,
  useEnrollScaTotp,
  useScaFactors,
  useStartScaFactorReset,
} from "@signet/react";
import { useEffect, useId, useRef, useState } from "react";
import type { DemoProfile } from "./demoApi.js";
import { QrCode } from "./Qr.js";
import { CodeInput, ErrorNote } from "./ui.js";
import { useCodePrompt } from "./useCodePrompt.js";

/** What the customer is asked: the QR code's setup and, after a refused code, the refusal. */
type Asking = { setup: ScaTotpSetup; error: unknown };

export function Security({ profile }: { profile: DemoProfile }) {
  if (profile.region === "US") {
    return (
      <section className="card" aria-labelledby="security-title">
        <h1 id="security-title">Security</h1>
        <p className="muted">
          Second factors are for customers in the EU and EEA, where payments need Strong Customer
          Authentication.
        </p>
      </section>
    );
  }
  return (
    <section className="card stack" aria-labelledby="security-title">
      <h1 id="security-title">Security</h1>
      <Authenticator />
      <FactorReset />
    </section>
  );
}

function Authenticator() {
  const factors = useScaFactors({});
  const enroll = useEnrollScaTotp();
  // The code typed for the QR code on screen, handed back to `enrollScaTotp`.
  const { asking, ask, clear, code, setCode, submit } = useCodePrompt<Asking, { code: string }>(
    (typed) => ({ code: typed }),
  );
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const codeId = useId();
  const enrolled = factors.data?.some((f) => f.factor === "TOTP") ?? false;

  const start = () => {
    setRecoveryCodes(undefined);
    enroll
      .mutateAsync({
        // Core asks again with the service's refusal after a wrong code.
        onSecret: (setup, { error }) => ask({ setup, error }),
      })
      .then(
        (done) => setRecoveryCodes(done.recoveryCodes),
        // The hook's error shows below.
        () => undefined,
      )
      .finally(clear);
  };

  return (
    <div className="stack" data-testid="totp">
      <h2>Authenticator app</h2>
      {enrolled && !asking ? (
        <p>
          <strong>Set up.</strong> Your app's codes confirm logins and trusted payees.
        </p>
      ) : null}
      {!enrolled && !asking && !enroll.isPending ? (
        <button type="button" onClick={start}>
          Set up an authenticator app
        </button>
      ) : null}
      {asking ? (
        <form className="stack" onSubmit={submit}>
          <p>Scan this code with your authenticator app, then type the code it shows.</p>
          <QrCode text={asking.setup.totpUri} label="QR code for your authenticator app" />
          <p className="muted">
            Can't scan? Type this key: <code>{groups(asking.setup.secretBase32Encoded)}</code>
          </p>
          <label htmlFor={codeId}>Code from the app</label>
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
      {recoveryCodes ? (
        <div className="stack" data-testid="recovery-codes">
          <p>
            <strong>Authenticator app added.</strong> Keep these recovery codes somewhere safe; they
            are shown only once.
          </p>
          <ul>
            {recoveryCodes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ErrorNote error={enroll.error} title="The authenticator app was not added" />
    </div>
  );
}

/** A Base32 key in groups of four, easier to type. */
const groups = (key: string) => key.replace(/(.{4})/g, "$1 ").trim();

/** How often the reset's status is read while the liveness check runs. */
const POLL_MS = 1_000;

function FactorReset() {
  const client = useClient();
  const factors = useScaFactors({});
  const start = useStartScaFactorReset();
  const complete = useCompleteScaFactorReset();
  const [reset, setReset] = useState<{ resetId: string; factor: "TOTP" | "PASSKEY" }>();
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<unknown>(null);
  const stopped = useRef(false);
  const lost = factors.data?.find((f) => f.factor === "TOTP" || f.factor === "PASSKEY");

  // Reads the status until liveness passed or the reset is over (the app's own timer).
  useEffect(() => {
    if (!reset) return;
    stopped.current = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const next = await getScaFactorReset(client, { resetId: reset.resetId });
        if (stopped.current) return;
        setStatus(next.status);
        if (next.status === "INITIATED" || next.status === "PENDING_REVIEW") {
          timer = setTimeout(read, POLL_MS);
        }
      } catch (e) {
        if (!stopped.current) setError(e);
      }
    };
    read();
    return () => {
      stopped.current = true;
      clearTimeout(timer);
    };
  }, [client, reset]);

  if (!lost && !reset) return null;
  const factorName = (f: string) => (f === "TOTP" ? "authenticator app" : "passkey");
  return (
    <div className="stack" data-testid="factor-reset">
      <h2>Lost a factor?</h2>
      {!reset && lost ? (
        <button
          type="button"
          disabled={start.isPending}
          onClick={() => {
            const factor = lost.factor as "TOTP" | "PASSKEY";
            setError(null);
            start.mutateAsync({ factor }).then(
              (started) => setReset({ resetId: started.resetId, factor }),
              // The hook's error shows below.
              () => undefined,
            );
          }}
        >
          Reset my {factorName(lost.factor)}
        </button>
      ) : null}
      {reset ? (
        <p role="status">
          Reset of your {factorName(reset.factor)}: <strong>{statusText(status)}</strong>
        </p>
      ) : null}
      {reset && status === "LIVENESS_PASSED" && !complete.isSuccess ? (
        <button
          type="button"
          disabled={complete.isPending}
          onClick={() => complete.mutate({ resetId: reset.resetId, factor: reset.factor })}
        >
          Finish the reset
        </button>
      ) : null}
      {complete.isSuccess ? (
        <p>
          <strong>Reset complete.</strong> Set up a new {reset ? factorName(reset.factor) : "one"}{" "}
          above.
        </p>
      ) : null}
      <ErrorNote error={start.error ?? complete.error ?? error} title="The reset stopped" />
    </div>
  );
}

function statusText(status: string | undefined): string {
  switch (status) {
    case undefined:
      return "starting…";
    case "INITIATED":
    case "PENDING_REVIEW":
      return "checking it is you…";
    case "LIVENESS_PASSED":
      return "identity confirmed";
    case "COMPLETED":
      return "done";
    default:
      return `stopped (${status}): start again`;
  }
}
