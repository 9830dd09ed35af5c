// Sign-in methods: list, add a passkey, an SMS code (the phone on file) or a Google login, and
// remove one (after a confirmation; not the one this phone signed in with).
import type { CredentialType } from "@signet/core";
import {
  useAddCredential,
  useAddPasskey,
  useCredentials,
  useRevokeCredential,
  useSession,
} from "@signet/react";
import { Text, View } from "react-native";
import { type DemoProfile, demoApi } from "../demoApi";
import { methodName } from "../format";
import { Button, ConfirmButton, ErrorNote, styles } from "../ui";

/** A credential type core can remove. */
const removable = (type: string): type is CredentialType =>
  ["EMAIL_OTP", "SMS_OTP", "OAUTH", "PASSKEY"].includes(type);

export function Methods({ profile, onChanged }: { profile: DemoProfile; onChanged: () => void }) {
  const { accountId } = profile;
  const credentials = useCredentials({ accountId });
  const inUse = useSession({ accountId }).session?.credentialId;
  const addPasskey = useAddPasskey();
  const add = useAddCredential();
  const revoke = useRevokeCredential();
  const list = credentials.data ?? [];
  const has = (type: string) => list.some((c) => c.type === type);
  const busy = addPasskey.isPending || add.isPending || revoke.isPending;
  const done = () => onChanged();
  return (
    <View style={{ gap: 10 }}>
      <ErrorNote error={credentials.error} title="Could not load the sign-in methods" />
      {list.map((c) => (
        <View key={c.id} style={styles.section} testID="method">
          <Text style={styles.heading}>
            {methodName(c.type)}
            {c.id === inUse ? " · signed in with this" : ""}
          </Text>
          {c.nickname ? <Text style={styles.muted}>{c.nickname}</Text> : null}
          <ConfirmButton
            title="Remove"
            label={`Remove ${methodName(c.type)}`}
            question={`Remove ${methodName(c.type)}? Its sessions end too.`}
            yes="Yes, remove"
            disabled={busy || list.length < 2 || c.id === inUse || !removable(c.type)}
            onConfirm={() => {
              if (!removable(c.type)) return;
              // The type the user confirmed removing: the device signs the removal of no other kind.
              revoke
                .mutateAsync({ accountId, credentialId: c.id, type: c.type })
                .then(done, () => undefined);
            }}
          />
        </View>
      ))}
      <Button
        title={addPasskey.isPending ? "Waiting for your phone…" : "Add a passkey"}
        disabled={busy}
        onPress={() =>
          demoApi
            .passkeyChallenge()
            .then((challenge) =>
              addPasskey.mutateAsync({ accountId, nickname: "This phone", ...challenge }),
            )
            .then(done, () => undefined)
        }
      />
      <Button
        title={
          profile.phoneNumber
            ? `Add SMS code for ${profile.phoneNumber}`
            : "Add SMS code (add a phone under Contact first)"
        }
        kind="secondary"
        disabled={busy || has("SMS_OTP") || !profile.phoneNumber}
        onPress={() => {
          // The number shown is the one the device checks the signed payload against.
          const phoneNumber = profile.phoneNumber;
          if (!phoneNumber) return;
          add.mutateAsync({ accountId, type: "SMS_OTP", phoneNumber }).then(done, () => undefined);
        }}
      />
      <Button
        title="Add Google login (sandbox)"
        kind="secondary"
        disabled={busy || has("OAUTH")}
        onPress={() =>
          demoApi
            .oidcToken()
            .then(({ idToken }) =>
              add.mutateAsync({ accountId, type: "OAUTH", oidcToken: idToken }),
            )
            .then(done, () => undefined)
        }
      />
      <ErrorNote error={addPasskey.error} title="The passkey was not added" />
      <ErrorNote error={add.error} title="Could not add the sign-in method" />
      <ErrorNote error={revoke.error} title="Could not remove the sign-in method" />
    </View>
  );
}
