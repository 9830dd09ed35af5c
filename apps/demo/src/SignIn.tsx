// Sign in: the demo's own login by email (creates or finds the customer and wallet), then a
// wallet session by email code, passkey (with browser autofill where supported) or OAuth.
import { browserSupportsPasskeyAutofill } from "@signet/core";
import {
  useRequestOtp,
  useSignInWithOAuth,
  useSignInWithPasskey,
  useVerifyOtp,
} from "@signet/react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { type DemoConfig, type DemoProfile, demoApi } from "./demoApi.js";
import { ErrorNote } from "./ui.js";

const REGION_NAMES: Record<string, string> = {
  US: "United States",
  DE: "Germany (EU, payments need SCA)",
  FR: "France (EU, payments need SCA)",
  NL: "Netherlands (EU, payments need SCA)",
  IE: "Ireland (EU, payments need SCA)",
  ES: "Spain (EU, payments need SCA)",
};

export function DemoLogin({
  config,
  onProfile,
}: {
  config: DemoConfig;
  onProfile: (p: DemoProfile) => void;
}) {
  const [email, setEmail] = useState("");
  const [region, setRegion] = useState("US");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const emailId = useId();
  const regionId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onProfile(await demoApi.signIn(email, region));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card narrow" aria-labelledby="login-title">
      <h1 id="login-title">Sign in to your wallet</h1>
      <p className="muted">
        New here? Enter any email: the demo creates a customer and an Embedded Wallet for it
        {config.mode === "emulator" ? " on the local emulator." : " in the sandbox."}
      </p>
      <p className="note note-warn" data-testid="sandbox-notice">
        <strong>Sandbox only.</strong> Any email signs in here and the sandbox code is public, so
        this sign-in proves nothing: never let this demo guard real money.
      </p>
      <form onSubmit={submit} className="stack">
        <label htmlFor={emailId}>Email</label>
        <input
          id={emailId}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="ada@example.com"
        />
        <label htmlFor={regionId}>Where you live</label>
        <select id={regionId} value={region} onChange={(e) => setRegion(e.target.value)}>
          {config.regions.map((r) => (
            <option key={r} value={r}>
              {REGION_NAMES[r] ?? r}
            </option>
          ))}
        </select>
        <p className="hint">
          Used for new wallets only; EU customers confirm payments with a second factor.
        </p>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Finding your wallet…" : "Continue"}
        </button>
      </form>
      <ErrorNote error={error} title="Could not sign in to the demo" />
    </section>
  );
}

export function WalletSignIn({
  config,
  profile,
  onSwitchUser,
}: {
  config: DemoConfig;
  profile: DemoProfile;
  onSwitchUser: () => void;
}) {
  const requestOtp = useRequestOtp();
  const verifyOtp = useVerifyOtp();
  const passkey = useSignInWithPasskey();
  const oauth = useSignInWithOAuth();
  const [code, setCode] = useState("");
  const codeId = useId();
  const accountFieldId = useId();
  const emailCredential = profile.credentials.find((c) => c.type === "EMAIL_OTP");
  const passkeys = profile.credentials.filter((c) => c.type === "PASSKEY");
  const oauthCredential = profile.credentials.find((c) => c.type === "OAUTH");
  const firstPasskey = passkeys[0];

  // Browser autofill (conditional UI): the passkey is offered when the account field is focused.
  const [autofill] = useState(() => new AbortController());
  const passkeyId = firstPasskey?.id;
  const { mutate: startPasskey } = passkey;
  useEffect(() => {
    if (!passkeyId) return;
    let live = true;
    void browserSupportsPasskeyAutofill().then((supported) => {
      if (supported && live && !autofill.signal.aborted)
        startPasskey({ credentialId: passkeyId, autofill: true, signal: autofill.signal });
    });
    return () => {
      live = false;
    };
  }, [passkeyId, autofill, startPasskey]);
  useEffect(() => () => autofill.abort(), [autofill]);

  const verify = (event: FormEvent) => {
    event.preventDefault();
    if (!requestOtp.data) return;
    verifyOtp.mutate({
      credential: requestOtp.data.credential,
      otpEncryptionTargetBundle: requestOtp.data.otpEncryptionTargetBundle,
      otpCode: code.trim(),
    });
  };
  // An autofill attempt that ends (aborted, or the browser gave up) is not the user's doing.
  const passkeyError = passkey.variables?.autofill === true ? null : passkey.error;

  return (
    <section className="card narrow" aria-labelledby="wallet-signin-title">
      <h1 id="wallet-signin-title">Unlock your wallet</h1>
      <label htmlFor={accountFieldId}>Account</label>
      <div className="row">
        <input
          id={accountFieldId}
          value={profile.email}
          readOnly
          autoComplete="username webauthn"
          aria-describedby={`${accountFieldId}-hint`}
        />
        <button type="button" className="link" onClick={onSwitchUser}>
          Not you?
        </button>
      </div>
      <p id={`${accountFieldId}-hint`} className="hint">
        {profile.region === "US"
          ? "United States customer"
          : `EU customer (${profile.region}): payments need SCA`}
      </p>

      {firstPasskey && (
        <div className="method">
          <h2>Passkey</h2>
          <button
            type="button"
            className="primary"
            disabled={passkey.isPending && passkey.variables?.autofill !== true}
            onClick={() => {
              // Straight from the tap, so the prompt opens in this task (iOS Safari needs it).
              autofill.abort();
              passkey.mutate({ credentialId: firstPasskey.id });
            }}
          >
            Sign in with passkey
          </button>
          <ErrorNote error={passkeyError} title="Passkey sign-in did not finish" />
        </div>
      )}

      {emailCredential && (
        <div className="method">
          <h2>Email code</h2>
          {!requestOtp.data ? (
            <button
              type="button"
              className={firstPasskey ? "secondary" : "primary"}
              disabled={requestOtp.isPending}
              onClick={() => requestOtp.mutate({ credentialId: emailCredential.id })}
            >
              {requestOtp.isPending ? "Sending…" : `Email a code to ${profile.email}`}
            </button>
          ) : (
            <form onSubmit={verify} className="stack">
              <label htmlFor={codeId}>6-digit code</label>
              <input
                id={codeId}
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                maxLength={6}
                required
                value={code}
                onChange={(e) => setCode(e.target.value)}
                aria-describedby={`${codeId}-hint`}
              />
              <p id={`${codeId}-hint`} className="hint">
                Sent to {profile.email}.{" "}
                {config.mode === "emulator" ? "The emulator" : "The sandbox"} accepts{" "}
                <code>{config.otpHint}</code>.
              </p>
              <div className="row">
                <button type="submit" className="primary" disabled={verifyOtp.isPending}>
                  {verifyOtp.isPending ? "Checking…" : "Verify and sign in"}
                </button>
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    verifyOtp.reset();
                    requestOtp.mutate({ credentialId: emailCredential.id });
                  }}
                >
                  Send a new code
                </button>
              </div>
            </form>
          )}
          <ErrorNote error={requestOtp.error} title="Could not send the code" />
          <ErrorNote error={verifyOtp.error} title="That code did not work" />
        </div>
      )}

      {oauthCredential && (
        <div className="method">
          <h2>OAuth</h2>
          <button
            type="button"
            className="secondary"
            disabled={oauth.isPending}
            onClick={() =>
              oauth.mutate({
                credentialId: oauthCredential.id,
                getIdToken: async ({ nonce }) => (await demoApi.oidcToken(nonce)).idToken,
              })
            }
          >
            Continue with Google (sandbox token)
          </button>
          <ErrorNote error={oauth.error} title="OAuth sign-in did not finish" />
        </div>
      )}
    </section>
  );
}
