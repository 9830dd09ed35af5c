// Small building blocks shared by the screens: buttons, fields (a code field that takes a pasted
// "000 000"), choices, a confirmation before anything destructive, notes and errors in words.
import { SignetError } from "@signet/core";
import { type ReactNode, useState } from "react";
import {
  Pressable,
  ScrollView,
  StyleSheet,
  Text,
  TextInput,
  type TextInputProps,
  View,
} from "react-native";
import { SafeAreaView } from "react-native-safe-area-context";
import { adviceFor } from "./advice";
import { codeDigits } from "./format";

export const styles = StyleSheet.create({
  safe: { flex: 1 },
  screen: { padding: 20, gap: 12 },
  title: { fontSize: 24, fontWeight: "600" },
  section: { gap: 8, paddingVertical: 12, borderTopWidth: StyleSheet.hairlineWidth },
  heading: { fontSize: 18, fontWeight: "600" },
  input: { borderWidth: 1, borderRadius: 8, padding: 10, fontSize: 16 },
  button: { backgroundColor: "#1f5eff", borderRadius: 8, padding: 12, alignItems: "center" },
  secondary: { backgroundColor: "#e6e7fb" },
  danger: { backgroundColor: "#b00020" },
  buttonDisabled: { opacity: 0.5 },
  buttonText: { color: "white", fontWeight: "600" },
  secondaryText: { color: "#2b2fb0", fontWeight: "600" },
  muted: { color: "#555d6e" },
  error: { color: "#a61b1b" },
  ok: { color: "#17663a" },
  note: { padding: 10, borderRadius: 8, backgroundColor: "#f5f6fa", gap: 4 },
  phrase: { fontFamily: "Courier", fontSize: 16 },
  row: { flexDirection: "row", flexWrap: "wrap", gap: 8 },
  tab: { paddingVertical: 8, paddingHorizontal: 10, borderRadius: 999 },
  tabActive: { backgroundColor: "#e6e7fb" },
  big: { fontSize: 28, fontWeight: "700" },
});

/** A screen inside the phone's safe area (notch, home indicator), scrolling. */
export function Screen({ children }: { children: ReactNode }) {
  return (
    <SafeAreaView style={styles.safe} edges={["top", "bottom", "left", "right"]}>
      <ScrollView contentContainerStyle={styles.screen} keyboardShouldPersistTaps="handled">
        {children}
      </ScrollView>
    </SafeAreaView>
  );
}

export function Button({
  title,
  onPress,
  disabled,
  kind = "primary",
  label,
}: {
  title: string;
  onPress: () => void;
  disabled?: boolean;
  kind?: "primary" | "secondary" | "danger";
  /** The accessible name, when it says more than the title. */
  label?: string;
}) {
  return (
    <Pressable
      accessibilityRole="button"
      accessibilityLabel={label ?? title}
      accessibilityState={{ disabled: !!disabled }}
      disabled={disabled}
      onPress={onPress}
      style={[
        styles.button,
        kind === "secondary" ? styles.secondary : kind === "danger" ? styles.danger : null,
        disabled ? styles.buttonDisabled : null,
      ]}
    >
      <Text style={kind === "secondary" ? styles.secondaryText : styles.buttonText}>{title}</Text>
    </Pressable>
  );
}

export function Field(props: TextInputProps & { label: string }) {
  return (
    <>
      <Text>{props.label}</Text>
      <TextInput accessibilityLabel={props.label} style={styles.input} {...props} />
    </>
  );
}

/**
 * A one-time code: a pasted "000 000" keeps its six digits (spaces and dashes dropped; no
 * `maxLength` cuts it first), and the sixth digit sends it.
 */
export function CodeField({
  label,
  value,
  onChange,
  onComplete,
}: {
  label: string;
  value: string;
  onChange: (digits: string) => void;
  onComplete: (digits: string) => void;
}) {
  return (
    <Field
      label={label}
      value={value}
      keyboardType="number-pad"
      textContentType="oneTimeCode"
      autoComplete="one-time-code"
      onChangeText={(typed) => {
        const digits = codeDigits(typed);
        onChange(digits);
        if (digits.length === 6 && digits !== value) onComplete(digits);
      }}
    />
  );
}

/** One of a few options, as buttons that say which is picked. */
export function Choice<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: ReadonlyArray<{ value: T; title: string; disabled?: boolean }>;
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <View accessibilityRole="radiogroup" accessibilityLabel={label} style={{ gap: 6 }}>
      <Text>{label}</Text>
      <View style={styles.row}>
        {options.map((option) => (
          <Pressable
            key={option.value}
            accessibilityRole="radio"
            accessibilityLabel={option.title}
            accessibilityState={{ checked: option.value === value, disabled: !!option.disabled }}
            disabled={option.disabled}
            onPress={() => onChange(option.value)}
            style={[styles.tab, option.value === value ? styles.tabActive : null]}
          >
            <Text>{option.title}</Text>
          </Pressable>
        ))}
      </View>
    </View>
  );
}

/** A destructive button that asks first: "Yes, …" acts, "Cancel" keeps. */
export function ConfirmButton({
  title,
  label,
  question,
  yes,
  onConfirm,
  disabled,
}: {
  title: string;
  label: string;
  question: string;
  yes: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <Button
        title={title}
        label={label}
        kind="danger"
        disabled={!!disabled}
        onPress={() => setAsking(true)}
      />
    );
  return (
    <View style={styles.note}>
      <Text>{question}</Text>
      <View style={styles.row}>
        <Button
          title={yes}
          kind="danger"
          onPress={() => {
            setAsking(false);
            onConfirm();
          }}
        />
        <Button title="Cancel" kind="secondary" onPress={() => setAsking(false)} />
      </View>
    </View>
  );
}

/** What went wrong and what to do, in words: no code on screen. */
export function ErrorNote({ error, title }: { error: unknown; title: string }) {
  if (!error) return null;
  const code =
    typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
      ? error.code
      : "ERROR";
  // The demo server's and the app's own messages are written for the user; core's are not shown.
  const own = error instanceof Error && !(error instanceof SignetError) ? error.message : undefined;
  return (
    <View accessibilityRole="alert" style={styles.note}>
      <Text style={styles.error}>{title}</Text>
      {own ? <Text>{own}</Text> : null}
      <Text>{adviceFor(code)}</Text>
    </View>
  );
}
