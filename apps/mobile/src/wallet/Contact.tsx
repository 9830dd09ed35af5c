// Contact: a new email or phone, proved by a code sent to it (a pasted "000 000" works, a new code
// can be asked for), then signed by this phone's session.
import { useUpdateCustomerContact } from "@signet/react";
import { useState } from "react";
import { Text, View } from "react-native";
import { type DemoProfile, demoApi } from "../demoApi";
import { Button, Choice, CodeField, ErrorNote, Field, styles } from "../ui";

export function Contact({ profile, onChanged }: { profile: DemoProfile; onChanged: () => void }) {
  const update = useUpdateCustomerContact();
  const [kind, setKind] = useState<"email" | "phoneNumber">("email");
  const [value, setValue] = useState("");
  const [pending, setPending] = useState<string>();
  const [code, setCode] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const start = (target: string) => {
    setError(null);
    setSaved(false);
    demoApi
      .contactStart(kind === "email" ? { email: target } : { phoneNumber: target })
      .then(({ sentTo }) => {
        setPending(sentTo);
        setCode("");
      }, setError);
  };
  const verify = async (digits: string) => {
    setError(null);
    try {
      const proved = await demoApi.contactVerify(digits);
      await update.mutateAsync(
        proved.kind === "email"
          ? { customerId: profile.customerId, accountId: profile.accountId, email: proved.value }
          : {
              customerId: profile.customerId,
              accountId: profile.accountId,
              phoneNumber: proved.value,
            },
      );
      setSaved(true);
      setPending(undefined);
      setValue("");
      onChanged();
    } catch (e) {
      setError(e);
      setCode("");
    }
  };
  return (
    <View style={{ gap: 10 }}>
      <Text style={styles.muted}>
        Email: {profile.email} · phone: {profile.phoneNumber ?? "none yet"}
      </Text>
      {!pending ? (
        <>
          <Choice
            label="Change"
            value={kind}
            onChange={setKind}
            options={[
              { value: "email", title: "Email" },
              { value: "phoneNumber", title: "Phone" },
            ]}
          />
          <Field
            label={kind === "email" ? "New email" : "New phone number (with country code)"}
            value={value}
            onChangeText={setValue}
            autoCapitalize="none"
            keyboardType={kind === "email" ? "email-address" : "phone-pad"}
          />
          <Button
            title="Send a code"
            disabled={!value.trim()}
            onPress={() => start(value.trim())}
          />
        </>
      ) : (
        <>
          <CodeField
            label={`Code sent to ${pending}`}
            value={code}
            onChange={setCode}
            onComplete={(d) => void verify(d)}
          />
          <Button title="Send a new code" kind="secondary" onPress={() => start(pending)} />
        </>
      )}
      {saved ? <Text style={styles.ok}>Saved and verified.</Text> : null}
      <ErrorNote error={error} title="That did not work" />
    </View>
  );
}
