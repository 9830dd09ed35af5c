// The signed-in wallet: this device's session and the wallet's sessions, a passkey to add, a
// payment (EU customers confirm it with SCA; the steps in ./journeys.ts), the recovery phrase
// behind screenshot protection, and sign-out.
import type { AuthorizeQuoteReturnType, QuoteJson, TransactionJson } from "@signet/core";
import {
  useAddPasskey,
  useAuthorizeQuote,
  useClient,
  useExecuteQuote,
  useExportWallet,
  useInternalAccounts,
  useRevokeSession,
  useSession,
  useSessions,
  useSignOut,
} from "@signet/react";
import { usePreventScreenCapture } from "expo-screen-capture";
import { useEffect, useRef, useState } from "react";
import { ScrollView, Text, View } from "react-native";
import { demoApi } from "./demoApi";
import { paymentUnits, quotePayment, scaPrompt, sendPayment, settlePayment } from "./journeys";
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
  const client = useClient();
  const accounts = useInternalAccounts({ customerId });
  const currency = accounts.data?.[0]?.balance?.currency;
  const decimals = currency?.decimals ?? 2;
  const [amount, setAmount] = useState("5.00");
  const [quote, setQuote] = useState<QuoteJson>();
  const [error, setError] = useState<unknown>(null);
  const [code, setCode] = useState("");
  const [sent, setSent] = useState<AuthorizeQuoteReturnType>();
  const [settled, setSettled] = useState<TransactionJson>();
  const [settleError, setSettleError] = useState<unknown>(null);
  const execute = useExecuteQuote();
  const authorize = useAuthorizeQuote();
  // The wait for settlement ends when the screen goes.
  const following = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => following.current?.abort(), []);
  const units = paymentUnits(amount, decimals);
  const waiting = authorize.pendingChallenge;
  const send = (quoted: QuoteJson) => {
    following.current?.abort();
    const controller = new AbortController();
    following.current = controller;
    // execute, then SCA through useAuthorizeQuote (its pendingChallenge below), then settlement;
    // a failed step's typed error shows through its hook.
    sendPayment(
      { executeQuote: execute.mutateAsync, authorizeQuote: authorize.mutateAsync },
      { quote: quoted, sca },
    ).then(
      (released) => {
        setSent(released);
        settlePayment(client, released, { signal: controller.signal }).then(
          setSettled,
          setSettleError,
        );
      },
      () => undefined,
    );
  };
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
        disabled={Number.isNaN(units) || accounts.isPending}
        onPress={() => {
          setError(null);
          setSent(undefined);
          setSettled(undefined);
          setSettleError(null);
          execute.reset();
          authorize.reset();
          quotePayment(units).then(setQuote, setError);
        }}
      />
      {quote ? (
        <>
          <Text testID="quote">
            Quote: {((quote.totalSendingAmount ?? units) / 10 ** decimals).toFixed(2)}{" "}
            {quote.sendingCurrency?.code ?? currency?.code ?? ""}
          </Text>
          <Button
            title="Sign and send"
            disabled={execute.isPending || execute.data !== undefined}
            onPress={() => send(quote)}
          />
        </>
      ) : null}
      {waiting ? (
        <>
          <Text testID="sca-step">{scaPrompt(waiting)}</Text>
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
      {sent ? (
        <Text accessibilityRole="text" testID="payment-done">
          Payment sent ({sent.status}).
        </Text>
      ) : null}
      {settled ? (
        <Text accessibilityRole="text" testID="payment-settled">
          {settled.status === "COMPLETED"
            ? "Payment settled."
            : `The payment ended as ${settled.status}.`}
        </Text>
      ) : null}
      <ErrorNote error={error} title="Could not get a quote" />
      <ErrorNote error={execute.error} title="Could not send the payment" />
      <ErrorNote error={authorize.error} title="Could not confirm the payment" />
      <ErrorNote error={settleError} title="Could not follow the payment" />
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
