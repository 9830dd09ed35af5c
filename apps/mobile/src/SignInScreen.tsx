// Sign in: the demo's own login by email with a region picker (creates or finds the customer and
// wallet), then a wallet session on this phone by email code, SMS code, passkey or Google login,
// with "Not you?" to start over with another email.
import type { RequestOtpReturnType } from "@signet/core";
import {
  useRequestOtp,
  useSignInWithOAuth,
  useSignInWithPasskey,
  useVerifyOtp,
} from "@signet/react";
import { useState } from "react";
import { Text, View } from "react-native";
import { type DemoCredential, demoApi } from "./demoApi";
import { REGION_NAMES } from "./format";
import { JourneyError, logIn, verifyEmailCode } from "./journeys";
import { Button, Choice, CodeField, ErrorNote, Field, Screen, styles } from "./ui";
import { useWallet } from "./WalletRoot";

const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@.]{2,24}$/u;

export function SignInScreen({ onSignedIn }: { onSignedIn: () => void }) {
  const { profile } = useWallet();
  return profile ? <Unlock onSignedIn={onSignedIn} /> : <Login />;
}

function Login() {
  const { demo, setProfile } = useWallet();
  const [email, setEmail] = useState("");
  const [region, setRegion] = useState("US");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const go = () => {
    if (!EMAIL_SHAPE.test(email.trim())) {
      setError(new JourneyError("INVALID_EMAIL", `“${email}” is not an email address.`));
      return;
    }
    setError(null);
    setBusy(true);
    logIn({ email, region })
      .then(setProfile, setError)
      .finally(() => setBusy(false));
  };
  return (
    <Screen>
      <Text accessibilityRole="header" style={styles.title}>
        Sign in to your wallet
      </Text>
      <Text style={styles.muted}>
        Sandbox only: any email signs in and the code is public ({demo.otpHint}), so this sign-in
        proves nothing. Never let it guard real money.
      </Text>
      <Field
        label="Email"
        value={email}
        onChangeText={setEmail}
        autoCapitalize="none"
        keyboardType="email-address"
        autoComplete="email"
      />
      <Choice
        label="Where you live"
        value={region}
        onChange={setRegion}
        options={demo.regions.map((r) => ({ value: r, title: REGION_NAMES[r] ?? r }))}
      />
      <Text style={styles.muted}>
        For new wallets only. In the EU, payments are confirmed with a second factor.
      </Text>
      <Button title={busy ? "Finding your wallet…" : "Continue"} disabled={busy} onPress={go} />
      <ErrorNote error={error} title="Could not sign in" />
    </Screen>
  );
}

function Unlock({ onSignedIn }: { onSignedIn: () => void }) {
  const { profile, setProfile } = useWallet();
  const passkey = useSignInWithPasskey();
  const oauth = useSignInWithOAuth();
  if (!profile) return null;
  const email = profile.credentials.find((c) => c.type === "EMAIL_OTP");
  const sms = profile.credentials.find((c) => c.type === "SMS_OTP");
  const firstPasskey = profile.credentials.find((c) => c.type === "PASSKEY");
  const google = profile.credentials.find((c) => c.type === "OAUTH");
  const notYou = () => {
    void demoApi.signOut().catch(() => undefined);
    setProfile(null);
  };
  return (
    <Screen>
      <Text accessibilityRole="header" style={styles.title}>
        Unlock your wallet
      </Text>
      <View style={styles.row}>
        <Text style={styles.muted}>{profile.email}</Text>
        <Button title="Not you?" kind="secondary" onPress={notYou} />
      </View>
      {firstPasskey ? (
        <>
          <Button
            title="Sign in with a passkey"
            disabled={passkey.isPending}
            onPress={() =>
              passkey
                .mutateAsync({ credentialId: firstPasskey.id })
                .then(onSignedIn, () => undefined)
            }
          />
          <ErrorNote error={passkey.error} title="Passkey sign-in did not finish" />
        </>
      ) : null}
      {email ? (
        <OtpMethod
          credential={email}
          send={`Email a code to ${profile.email}`}
          field="Email code"
          onSignedIn={onSignedIn}
        />
      ) : null}
      {sms ? (
        <OtpMethod
          credential={sms}
          send={`Text a code to ${profile.phoneNumber ?? sms.nickname ?? "your phone"}`}
          field="SMS code"
          onSignedIn={onSignedIn}
        />
      ) : null}
      {google ? (
        <>
          <Button
            title="Continue with Google (sandbox token)"
            kind="secondary"
            disabled={oauth.isPending}
            onPress={() =>
              oauth
                .mutateAsync({
                  credentialId: google.id,
                  getIdToken: async ({ nonce }) => (await demoApi.oidcToken(nonce)).idToken,
                })
                .then(onSignedIn, () => undefined)
            }
          />
          <ErrorNote error={oauth.error} title="Google sign-in did not finish" />
        </>
      ) : null}
    </Screen>
  );
}

function OtpMethod({
  credential,
  send,
  field,
  onSignedIn,
}: {
  credential: DemoCredential;
  send: string;
  field: string;
  onSignedIn: () => void;
}) {
  const requestOtp = useRequestOtp();
  const verifyOtp = useVerifyOtp();
  const [code, setCode] = useState("");
  const challenge: RequestOtpReturnType | undefined = requestOtp.data;
  const verify = (digits: string) => {
    if (!challenge || verifyOtp.isPending) return;
    verifyEmailCode({ verifyOtp: verifyOtp.mutateAsync }, challenge, digits).then(
      () => {
        setCode("");
        onSignedIn();
      },
      // A refused code leaves the field empty for the next one.
      () => setCode(""),
    );
  };
  return (
    <View style={styles.section}>
      {!challenge ? (
        <Button
          title={requestOtp.isPending ? "Sending…" : send}
          kind="secondary"
          disabled={requestOtp.isPending}
          onPress={() => requestOtp.mutate({ credentialId: credential.id })}
        />
      ) : (
        <>
          <CodeField label={field} value={code} onChange={setCode} onComplete={verify} />
          <View style={styles.row}>
            <Button
              title="Verify"
              disabled={verifyOtp.isPending || code.length !== 6}
              onPress={() => verify(code)}
            />
            <Button
              title="Send a new code"
              kind="secondary"
              onPress={() => {
                verifyOtp.reset();
                setCode("");
                requestOtp.mutate({ credentialId: credential.id });
              }}
            />
          </View>
        </>
      )}
      <ErrorNote error={requestOtp.error} title="Could not send the code" />
      <ErrorNote error={verifyOtp.error} title="That code did not work" />
    </View>
  );
}
