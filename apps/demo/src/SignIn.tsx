// Sign in: the demo's own login by email (creates or finds the customer and wallet), then a
// wallet session by email code, passkey (with browser autofill where supported) or OAuth.
import { browserSupportsPasskeyAutofill } from "@signet/core";
import { useRequestOtp, useSignInWithOAuth, useVerifyOtp } from "@signet/react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { EMAIL_SHAPE } from "./checks.js";
import {
  type DemoConfig,
  type DemoCredential,
  DemoInputError,
  type DemoProfile,
  demoApi,
} from "./demoApi.js";
import { usePasskeyUnlock } from "./passkeyUnlock.js";
import { CodeInput, ErrorNote, useSecondsLeft } from "./ui.js";

/** After five wrong codes the service stops taking that code: a new one is the way out. */
const OTP_ADVICE = {
  RATE_LIMITED: "Too many wrong tries for this code. Press “Send a new code”, then enter that one.",
  UNAUTHORIZED: "That code was not accepted. Type it again, or press “Send a new code”.",
};

export const REGION_NAMES: Record<string, string> = {
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
    // The browser's own email check refuses addresses with accents (zoë@…) that the service
    // takes, so the field is text and the demo checks the shape itself.
    if (!EMAIL_SHAPE.test(email.trim())) {
      setError(
        new DemoInputError("INVALID_EMAIL", `“${email.slice(0, 60)}” is not an email address.`),
      );
      return;
    }
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
          type="text"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          autoComplete="email"
          maxLength={254}
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
  const oauth = useSignInWithOAuth();
  const accountFieldId = useId();
  const smsCredential = profile.credentials.find((c) => c.type === "SMS_OTP");
  const emailCredential = profile.credentials.find((c) => c.type === "EMAIL_OTP");
  const passkeys = profile.credentials.filter((c) => c.type === "PASSKEY");
  const oauthCredential = profile.credentials.find((c) => c.type === "OAUTH");
  const firstPasskey = passkeys[0];
  const unlock = usePasskeyUnlock(firstPasskey?.id);
  const passkey = unlock.signIn;
  const waitLeft = useSecondsLeft(unlock.waitingUntil);

  // Browser autofill (conditional UI) offers the passkey once the account field has the focus:
  // only then does the screen ask the service for a challenge (never on load).
  const autofill = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => autofill.current?.abort(), []);
  const offerAutofill = () => {
    if (!firstPasskey || autofill.current) return;
    const controller = new AbortController();
    autofill.current = controller;
    void browserSupportsPasskeyAutofill().then((supported) => {
      if (supported && !controller.signal.aborted)
        void unlock.run({ autofill: true, signal: controller.signal });
    });
  };

  // An autofill attempt that ends (aborted, or the browser gave up) is not the user's doing.
  const passkeyError =
    unlock.prepareError ?? (passkey.variables?.autofill === true ? null : passkey.error);

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
          onFocus={offerAutofill}
          aria-describedby={`${accountFieldId}-hint`}
        />
        <button type="button" className="link" onClick={onSwitchUser}>
          Not you?
        </button>
      </div>
      <p id={`${accountFieldId}-hint`} className="hint">
        {profile.region === "US"
          ? "Customer in the United States"
          : `Customer in ${(REGION_NAMES[profile.region] ?? "the EU").replace(/ \(.*\)$/, "")}: payments are confirmed with a second factor`}
      </p>

      {firstPasskey && (
        <div className="method">
          <h2>Passkey</h2>
          <button
            type="button"
            className="primary"
            disabled={
              (passkey.isPending && passkey.variables?.autofill !== true) ||
              unlock.waitingUntil !== undefined
            }
            onClick={() => {
              autofill.current?.abort();
              autofill.current = undefined;
              void unlock.run();
            }}
          >
            Sign in with passkey
          </button>
          {unlock.waitingUntil !== undefined && (
            <p className="note" role="status">
              Many sign-in attempts just now: the wallet service asks to wait. Trying again in{" "}
              {waitLeft ?? 0} s.
            </p>
          )}
          <ErrorNote error={passkeyError} title="Passkey sign-in did not finish" />
        </div>
      )}

      {emailCredential && (
        <OtpMethod
          config={config}
          credential={emailCredential}
          heading="Email code"
          sendLabel={`Email a code to ${profile.email}`}
          fieldLabel="6-digit code"
          sentTo={profile.email}
          primary={!firstPasskey}
        />
      )}

      {smsCredential && (
        <OtpMethod
          config={config}
          credential={smsCredential}
          heading="SMS code"
          sendLabel={`Text a code to ${smsCredential.nickname ?? profile.phoneNumber ?? "your phone"}`}
          fieldLabel="Code from the SMS"
          sentTo={smsCredential.nickname ?? profile.phoneNumber ?? "your phone"}
          primary={false}
        />
      )}

      {oauthCredential && (
        <div className="method">
          <h2>Google login</h2>
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
          <ErrorNote error={oauth.error} title="Google sign-in did not finish" />
        </div>
      )}
    </section>
  );
}

/** Sign-in with a one-time code (email or SMS): send, type or paste, the sixth digit submits. */
function OtpMethod({
  config,
  credential,
  heading,
  sendLabel,
  fieldLabel,
  sentTo,
  primary,
}: {
  config: DemoConfig;
  credential: DemoCredential;
  heading: string;
  sendLabel: string;
  fieldLabel: string;
  sentTo: string;
  primary: boolean;
}) {
  const requestOtp = useRequestOtp();
  const verifyOtp = useVerifyOtp();
  const [code, setCode] = useState("");
  const [sentAgain, setSentAgain] = useState(false);
  const codeId = useId();
  const challenge = requestOtp.data;
  const verify = (digits: string) => {
    if (!challenge || verifyOtp.isPending) return;
    verifyOtp
      .mutateAsync({
        credential: challenge.credential,
        otpEncryptionTargetBundle: challenge.otpEncryptionTargetBundle,
        otpCode: digits,
      })
      // A refused code leaves the field empty for the next one.
      .catch(() => setCode(""));
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    verify(code);
  };
  return (
    <div className="method">
      <h2>{heading}</h2>
      {!challenge ? (
        <button
          type="button"
          className={primary ? "primary" : "secondary"}
          disabled={requestOtp.isPending}
          onClick={() => requestOtp.mutate({ credentialId: credential.id })}
        >
          {requestOtp.isPending ? "Sending…" : sendLabel}
        </button>
      ) : (
        <form onSubmit={onSubmit} className="stack">
          <label htmlFor={codeId}>{fieldLabel}</label>
          <CodeInput
            id={codeId}
            value={code}
            onChange={setCode}
            onComplete={verify}
            describedBy={`${codeId}-hint`}
          />
          <p id={`${codeId}-hint`} className="hint">
            Sent to {sentTo}. {config.mode === "emulator" ? "The emulator" : "The sandbox"} accepts{" "}
            <code>{config.otpHint}</code>. Pasting works; the sixth digit sends it.
          </p>
          <div className="row wrap">
            <button type="submit" className="primary" disabled={verifyOtp.isPending}>
              {verifyOtp.isPending ? "Checking…" : "Verify and sign in"}
            </button>
            <button
              type="button"
              className="link"
              disabled={requestOtp.isPending}
              onClick={() => {
                verifyOtp.reset();
                setCode("");
                setSentAgain(false);
                requestOtp.mutateAsync({ credentialId: credential.id }).then(
                  () => setSentAgain(true),
                  () => undefined,
                );
              }}
            >
              {requestOtp.isPending ? "Sending…" : "Send a new code"}
            </button>
          </div>
          {sentAgain && !verifyOtp.error && (
            <p role="status" className="note note-ok">
              A new code was sent to {sentTo}. Enter it above.
            </p>
          )}
        </form>
      )}
      <ErrorNote error={requestOtp.error} title="Could not send the code" />
      <ErrorNote error={verifyOtp.error} title="That code did not work" advice={OTP_ADVICE} />
    </div>
  );
}
