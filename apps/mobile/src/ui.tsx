// Small building blocks shared by the screens.
import { SignetError } from "@signet/core";
import { Pressable, StyleSheet, Text, TextInput, type TextInputProps } from "react-native";

export const styles = StyleSheet.create({
  screen: { flex: 1, padding: 20, gap: 12 },
  title: { fontSize: 24, fontWeight: "600" },
  section: { gap: 8, paddingVertical: 12, borderTopWidth: StyleSheet.hairlineWidth },
  heading: { fontSize: 18, fontWeight: "600" },
  input: { borderWidth: 1, borderRadius: 8, padding: 10, fontSize: 16 },
  button: { backgroundColor: "#1f5eff", borderRadius: 8, padding: 12, alignItems: "center" },
  buttonDisabled: { opacity: 0.5 },
  buttonText: { color: "white", fontWeight: "600" },
  muted: { color: "#666" },
  error: { color: "#b00020" },
  phrase: { fontFamily: "Courier", fontSize: 16 },
});

export function Button({
  title,
  onPress,
  disabled,
}: {
  title: string;
  onPress: () => void;
  disabled?: boolean;
}) {
  return (
    <Pressable
      accessibilityRole="button"
      accessibilityState={{ disabled: !!disabled }}
      disabled={disabled}
      onPress={onPress}
      style={[styles.button, disabled ? styles.buttonDisabled : null]}
    >
      <Text style={styles.buttonText}>{title}</Text>
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

/** What went wrong, in words for the user; Signet errors carry a code to act on. */
export function ErrorNote({ error, title }: { error: unknown; title: string }) {
  if (!error) return null;
  const message =
    error instanceof SignetError
      ? `${error.message} (${error.code})`
      : error instanceof Error
        ? error.message
        : String(error);
  return (
    <Text accessibilityRole="alert" style={styles.error}>
      {title}: {message}
    </Text>
  );
}
