// Sessions: every session of the wallet named by the device it is on and when it began, this
// phone's marked; revoking one asks first.
import { useRevokeSession, useSessions } from "@signet/react";
import { useEffect, useState } from "react";
import { Text, View } from "react-native";
import { demoApi } from "../demoApi";
import { when } from "../format";
import { ConfirmButton, ErrorNote, styles } from "../ui";

const WITH: Record<string, string> = {
  EMAIL_OTP: "an email code",
  SMS_OTP: "an SMS code",
  PASSKEY: "a passkey",
  OAUTH: "a Google login",
};

export function Sessions({
  accountId,
  currentId,
}: {
  accountId: string;
  currentId: string | undefined;
}) {
  const sessions = useSessions({ accountId });
  const revoke = useRevokeSession();
  const [names, setNames] = useState<Record<string, string>>({});
  const count = sessions.data?.length ?? 0;
  useEffect(() => {
    if (count > 0) demoApi.devices().then(setNames, () => undefined);
  }, [count]);
  return (
    <View style={{ gap: 10 }}>
      <ErrorNote error={sessions.error} title="Could not load the sessions" />
      {(sessions.data ?? []).map((s) => {
        const mine = s.id === currentId;
        const name = names[s.id] ?? (mine ? "This phone" : "Another device");
        return (
          <View key={s.id} style={styles.section} testID="session">
            <Text style={styles.heading}>
              {name}
              {mine ? " (this phone)" : ""}
            </Text>
            <Text style={styles.muted}>
              Signed in {when(s.createdAt)} with {WITH[s.type] ?? "another method"}
            </Text>
            {!mine ? (
              <ConfirmButton
                title="Revoke"
                label={`Revoke the session of ${name}`}
                question={`End the session of ${name}? That device will need to sign in again.`}
                yes="Yes, revoke"
                disabled={revoke.isPending}
                onConfirm={() => revoke.mutate({ accountId, sessionId: s.id })}
              />
            ) : null}
          </View>
        );
      })}
      {revoke.isSuccess ? (
        <Text style={styles.ok}>Session revoked: that device must sign in again.</Text>
      ) : null}
      <ErrorNote error={revoke.error} title="Could not revoke the session" />
    </View>
  );
}
