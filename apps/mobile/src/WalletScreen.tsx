// The signed-in wallet: who is signed in, the wallet's screens as tabs that wrap (none hidden),
// and sign-out. Each new session of this phone is named by the app for the session lists.
import { useSession, useSignOut } from "@signet/react";
import { useCallback, useEffect, useState } from "react";
import { Pressable, Text, View } from "react-native";
import { demoApi } from "./demoApi";
import { REGION_NAMES } from "./format";
import { Button, ErrorNote, Screen, styles } from "./ui";
import { useWallet } from "./WalletRoot";
import { Activity } from "./wallet/Activity";
import { Contact } from "./wallet/Contact";
import { Methods } from "./wallet/Methods";
import { Pay } from "./wallet/Pay";
import { Receive } from "./wallet/Receive";
import { Recovery } from "./wallet/Recovery";
import { Sessions } from "./wallet/Sessions";

const TABS = [
  ["pay", "Pay"],
  ["activity", "Activity"],
  ["receive", "Receive"],
  ["methods", "Sign-in methods"],
  ["sessions", "Sessions"],
  ["recovery", "Recovery"],
  ["contact", "Contact"],
] as const;
type Tab = (typeof TABS)[number][0];

export function WalletScreen({ onSignedOut }: { onSignedOut: () => void }) {
  const { profile, setProfile, reload } = useWallet();
  const accountId = profile?.accountId ?? "";
  const { session, status } = useSession({ accountId });
  const signOut = useSignOut();
  const [tab, setTab] = useState<Tab>("pay");
  const sessionId = session?.id;
  useEffect(() => {
    if (sessionId) demoApi.registerDevice(sessionId).catch(() => undefined);
  }, [sessionId]);
  // The session ended elsewhere (revoked, expired): back to unlock.
  useEffect(() => {
    if (status === "signedOut") onSignedOut();
  }, [status, onSignedOut]);
  const { mutate: signOutNow } = signOut;
  const sessionEnded = useCallback(() => signOutNow({ accountId }), [signOutNow, accountId]);
  if (!profile) return null;
  return (
    <Screen>
      <Text accessibilityRole="header" style={styles.title}>
        Wallet
      </Text>
      <Text style={styles.muted}>
        {profile.email} · {REGION_NAMES[profile.region] ?? profile.region}
        {profile.sca ? " · payments are confirmed with a second factor" : ""}
      </Text>
      <View accessibilityRole="tablist" style={styles.row}>
        {TABS.map(([id, title]) => (
          <Pressable
            key={id}
            accessibilityRole="tab"
            accessibilityLabel={title}
            accessibilityState={{ selected: tab === id }}
            onPress={() => setTab(id)}
            style={[styles.tab, tab === id ? styles.tabActive : null]}
          >
            <Text>{title}</Text>
          </Pressable>
        ))}
      </View>
      {tab === "pay" ? <Pay profile={profile} onSessionEnded={sessionEnded} /> : null}
      {tab === "activity" ? <Activity onConfirm={() => setTab("pay")} /> : null}
      {tab === "receive" ? <Receive /> : null}
      {tab === "methods" ? <Methods profile={profile} onChanged={reload} /> : null}
      {tab === "sessions" ? <Sessions accountId={accountId} currentId={sessionId} /> : null}
      {tab === "recovery" ? <Recovery accountId={accountId} /> : null}
      {tab === "contact" ? <Contact profile={profile} onChanged={reload} /> : null}
      <View style={styles.section}>
        <Button
          title="Sign out"
          kind="secondary"
          disabled={signOut.isPending}
          onPress={() => signOut.mutateAsync({ accountId }).catch(() => undefined)}
        />
        <Button
          title="Leave the demo"
          kind="secondary"
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
    </Screen>
  );
}
