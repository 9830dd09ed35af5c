// The signed-in wallet: this device's session and the wallet's sessions, a passkey to add, a
// payment (EU customers confirm it with SCA), the recovery phrase behind screenshot protection,
// and sign-out.
import type { QuoteJson } from "@signet/core";
import {
  useAddPasskey,
  useAuthorizeQuote,
  useExecuteQuote,
  useExportWallet,
  useInternalAccounts,
  useRevokeSession,
  useSession,
  useSessions,
  useSignOut,
} from "@signet/react";
import { usePreventScreenCapture } from "expo-screen-capture";
import { useEffect, useState } from "react";
import { ScrollView, Text, View } from "react-native";
import { demoApi } from "./demoApi";
import { Button, ErrorNote, Field, styles } from "./ui";
import { useWallet } from "./WalletRoot";

export function WalletScreen({ onSignedOut }: { onSignedOut: () => void }) {
  const { profile, setProfile } = useWallet();
  const accountId = profile?.accountId ?? "";
  const { session, persistence } = useSession({ accountId });
  const signOut = useSignOut();
  if (!profile) return null;
  return (
    <ScrollView contentContainerStyle={styles.screen}>
      <Text accessibilityRole="header" style={styles.title}>
        Wallet
      </Text>
      <Text style={styles.muted}>
        {profile.email} · {profile.region}
        {profile.sca ? " · payments need SCA" : ""}
      </Text>
      <Text testID="this-session">
        {session
          ? `Signed in on this device until ${new Date(session.expiresAt).toLocaleTimeString()}; keys in ${persistence === "secure-store" ? "the secure store" : String(persistence)}`
          : "No session on this device"}
      </Text>
      <Sessions accountId={accountId} currentId={session?.id} />
      <Passkeys accountId={accountId} />
      <Pay sca={profile.sca} customerId={profile.customerId} />
      <Export accountId={accountId} />
      <View style={styles.section}>
        <Button
          title="Sign out"
          disabled={signOut.isPending}
          onPress={() =>
            signOut
              .mutateAsync({ accountId })
              .catch(() => undefined)
              .then(() => demoApi.signOut().catch(() => undefined))
              .then(() => {
                setProfile(null);
                onSignedOut();
              })
          }
        />
        <ErrorNote error={signOut.error} title="Could not sign out" />
      </View>
    </ScrollView>
  );
}

function Sessions({ accountId, currentId }: { accountId: string; currentId: string | undefined }) {
  const sessions = useSessions({ accountId });
  const revoke = useRevokeSession();
  return (
    <View style={styles.section}>
      <Text accessibilityRole="header" style={styles.heading}>
        Sessions
      </Text>
      <ErrorNote error={sessions.error} title="Could not load the sessions" />
      {(sessions.data ?? []).map((s) => (
        <View key={s.id} accessibilityLabel={`Session ${s.id}`}>
          <Text>
            {s.nickname || s.type}
            {s.id === currentId ? " (this device)" : ""} · until{" "}
            {new Date(s.expiresAt).toLocaleTimeString()}
          </Text>
          {s.id !== currentId ? (
            <Button
              title={`Revoke ${s.nickname || s.type}`}
              disabled={revoke.isPending}
              onPress={() => revoke.mutate({ accountId, sessionId: s.id })}
            />
          ) : null}
        </View>
      ))}
      <ErrorNote error={revoke.error} title="Could not revoke the session" />
    </View>
  );
}

function Passkeys({ accountId }: { accountId: string }) {
  const addPasskey = useAddPasskey();
  const [error, setError] = useState<unknown>(null);
  return (
    <View style={styles.section}>
      <Text accessibilityRole="header" style={styles.heading}>
        Passkeys
      </Text>
      <Button
        title="Add a passkey"
        disabled={addPasskey.isPending}
        onPress={() => {
          setError(null);
          demoApi
            .passkeyChallenge()
            .then((challenge) =>
              addPasskey.mutateAsync({ accountId, nickname: "This phone", ...challenge }),
            )
            .catch(setError);
        }}
      />
      {addPasskey.isSuccess ? <Text accessibilityRole="text">Passkey added.</Text> : null}
      <ErrorNote error={error} title="Could not add the passkey" />
    </View>
  );
}

function Pay({ sca, customerId }: { sca: boolean; customerId: string }) {
  // Amounts go in the wallet currency's smallest unit (USDB has more decimals than cents).
  const accounts = useInternalAccounts({ customerId });
  const currency = accounts.data?.[0]?.balance?.currency;
  const unit = 10 ** (currency?.decimals ?? 2);
  const [amount, setAmount] = useState("5.00");
  const [quote, setQuote] = useState<QuoteJson>();
  const [error, setError] = useState<unknown>(null);
  const [code, setCode] = useState("");
  const execute = useExecuteQuote();
  const authorize = useAuthorizeQuote();
  const executed = execute.data;
  const { mutate: startSca } = authorize;
  useEffect(() => {
    if (executed?.status === "PENDING_AUTHORIZATION") startSca({ quote: executed });
  }, [executed, startSca]);
  // A decimal comma is a decimal point (EU users write 12,50).
  const units = Math.round(Number(amount.replace(",", ".")) * unit);
  const waiting = authorize.pendingChallenge;
  const done =
    authorize.data !== undefined ||
    (executed !== undefined && executed.status !== "PENDING_AUTHORIZATION");
  return (
    <View style={styles.section}>
      <Text accessibilityRole="header" style={styles.heading}>
        Pay
      </Text>
      <Field
        label={`Amount (${currency?.code ?? "USD"})`}
        value={amount}
        onChangeText={setAmount}
        keyboardType="decimal-pad"
      />
      <Button
        title="Get a quote"
        disabled={!(units > 0) || accounts.isPending}
        onPress={() => {
          setError(null);
          execute.reset();
          authorize.reset();
          demoApi
            .fund(units)
            .then(() => demoApi.quote(units))
            .then(setQuote, setError);
        }}
      />
      {quote ? (
        <>
          <Text testID="quote">
            Quote: {((quote.totalSendingAmount ?? units) / unit).toFixed(2)}{" "}
            {quote.sendingCurrency?.code ?? currency?.code ?? ""}
          </Text>
          <Button
            title="Sign and send"
            disabled={execute.isPending || executed !== undefined}
            // An EU customer confirms by SMS, the service's default factor (sent on execute).
            onPress={() => execute.mutate({ quote, ...(sca ? { scaFactor: "SMS_OTP" } : {}) })}
          />
        </>
      ) : null}
      {waiting ? (
        <>
          <Text testID="sca-step">
            {waiting.login
              ? "Confirm it is you (your bank's login to payments)"
              : `Confirm the payment (${waiting.challenge.purpose ?? "SCA"})`}
            : the code sent by SMS (123456 in the sandbox).
          </Text>
          <Field
            label="SCA code"
            value={code}
            onChangeText={setCode}
            keyboardType="number-pad"
            maxLength={6}
          />
          <Button
            title="Confirm"
            disabled={code.length !== 6}
            onPress={() => {
              authorize.answer({ code });
              setCode("");
            }}
          />
        </>
      ) : null}
      {done ? (
        <Text accessibilityRole="text" testID="payment-done">
          Payment sent ({(authorize.data ?? executed)?.status}).
        </Text>
      ) : null}
      <ErrorNote error={error} title="Could not get a quote" />
      <ErrorNote error={execute.error} title="Could not send the payment" />
      <ErrorNote error={authorize.error} title="Could not confirm the payment" />
    </View>
  );
}

function Export({ accountId }: { accountId: string }) {
  const exportWallet = useExportWallet();
  const [shown, setShown] = useState(false);
  return (
    <View style={styles.section}>
      <Text accessibilityRole="header" style={styles.heading}>
        Recovery phrase
      </Text>
      <Text style={styles.muted}>
        Anyone with these words controls the wallet. It is decrypted on this device only.
      </Text>
      {shown && exportWallet.data ? (
        <Phrase words={exportWallet.data} onHide={() => setShown(false)} />
      ) : (
        <Button
          title="Reveal recovery phrase"
          disabled={exportWallet.isPending}
          onPress={() =>
            exportWallet.mutateAsync({ accountId }).then(
              () => setShown(true),
              () => undefined,
            )
          }
        />
      )}
      <ErrorNote error={exportWallet.error} title="Could not export the wallet" />
    </View>
  );
}

/** The phrase, with screenshots and screen recording blocked while it is on screen. */
function Phrase({ words, onHide }: { words: string; onHide: () => void }) {
  usePreventScreenCapture("signet-recovery-phrase");
  return (
    <>
      <Text accessibilityLabel="Recovery phrase" style={styles.phrase} selectable={false}>
        {words}
      </Text>
      <Button title="Hide" onPress={onHide} />
    </>
  );
}
