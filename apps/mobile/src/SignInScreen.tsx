// Sign in: the demo's own login by email (creates or finds the customer and wallet), then a wallet
// session on this device by email code (the steps in ./journeys.ts) or with a passkey.
import { useRequestOtp, useSignInWithPasskey, useVerifyOtp } from "@signet/react";
import { useState } from "react";
import { ScrollView, Text } from "react-native";
import { emailCredentialOf, logIn, sendEmailCode, verifyEmailCode } from "./journeys";
import { Button, ErrorNote, Field, styles } from "./ui";
import { useWallet } from "./WalletRoot";

export function SignInScreen({ onSignedIn }: { onSignedIn: () => void }) {
  const { demo, profile, setProfile } = useWallet();
  const [email, setEmail] = useState("");
  const [region, setRegion] = useState("US");
  const [code, setCode] = useState("");
  const [loginError, setLoginError] = useState<unknown>(null);
  const requestOtp = useRequestOtp();
  const verifyOtp = useVerifyOtp();
  const passkey = useSignInWithPasskey();

  if (!profile)
    return (
      <ScrollView contentContainerStyle={styles.screen}>
        <Text accessibilityRole="header" style={styles.title}>
          Sign in to your wallet
        </Text>
        <Text style={styles.muted}>
          Sandbox only: any email signs in and the code is public ({demo.otpHint}). Regions:{" "}
          {demo.regions.join(", ")} (EU payments need SCA).
        </Text>
        <Field
          label="Email"
          value={email}
          onChangeText={setEmail}
          autoCapitalize="none"
          keyboardType="email-address"
        />
        <Field label="Region" value={region} onChangeText={setRegion} autoCapitalize="characters" />
        <Button
          title="Continue"
          disabled={!email}
          onPress={() => {
            setLoginError(null);
            logIn({ email, region }).then(setProfile, setLoginError);
          }}
        />
        <ErrorNote error={loginError} title="Could not sign in" />
      </ScrollView>
    );

  const emailCredential = emailCredentialOf(profile);
  const passkeys = profile.credentials.filter((c) => c.type === "PASSKEY");
  const challenge = requestOtp.data;
  return (
    <ScrollView contentContainerStyle={styles.screen}>
      <Text accessibilityRole="header" style={styles.title}>
        Unlock your wallet
      </Text>
      <Text style={styles.muted}>{profile.email}</Text>
      {passkeys[0] ? (
        <Button
          title="Sign in with a passkey"
          disabled={passkey.isPending}
          onPress={() =>
            passkey.mutateAsync({ credentialId: passkeys[0]!.id }).then(onSignedIn, () => undefined)
          }
        />
      ) : null}
      <ErrorNote error={passkey.error} title="Passkey sign-in failed" />
      {emailCredential && !challenge ? (
        <Button
          title="Email me a code"
          disabled={requestOtp.isPending}
          onPress={() =>
            sendEmailCode({ requestOtp: requestOtp.mutateAsync }, profile).catch(() => undefined)
          }
        />
      ) : null}
      {challenge ? (
        <>
          <Field
            label="Code"
            value={code}
            onChangeText={setCode}
            keyboardType="number-pad"
            textContentType="oneTimeCode"
            autoComplete="one-time-code"
            maxLength={6}
          />
          <Button
            title="Verify"
            disabled={verifyOtp.isPending || code.length !== 6}
            onPress={() =>
              verifyEmailCode({ verifyOtp: verifyOtp.mutateAsync }, challenge, code).then(
                () => {
                  setCode("");
                  onSignedIn();
                },
                () => setCode(""),
              )
            }
          />
        </>
      ) : null}
      <ErrorNote error={requestOtp.error} title="Could not send the code" />
      <ErrorNote error={verifyOtp.error} title="The code was not accepted" />
    </ScrollView>
  );
}
