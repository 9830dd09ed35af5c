// The recovery phrase: behind screenshot protection, hidden again by itself after a minute or on
// demand, with a "wrote it down" check of two words asked back.
import { useExportWallet } from "@signet/react";
import { usePreventScreenCapture } from "expo-screen-capture";
import { useEffect, useState } from "react";
import { Text, View } from "react-native";
import { useSecondsLeft } from "../format";
import { Button, ErrorNote, Field, styles } from "../ui";

const SHOW_MS = 60_000;

export function Recovery({ accountId }: { accountId: string }) {
  const exportWallet = useExportWallet();
  const [hideAt, setHideAt] = useState<number>();
  const [quiz, setQuiz] = useState<{ positions: [number, number]; words: [string, string] }>();
  const [answers, setAnswers] = useState<[string, string]>(["", ""]);
  const [verdict, setVerdict] = useState<"ok" | "wrong">();
  const left = useSecondsLeft(hideAt);
  const { reset } = exportWallet;
  const phrase = exportWallet.data;
  const hide = () => {
    reset();
    setHideAt(undefined);
  };
  useEffect(() => {
    if (left === 0) hide();
  });
  const wroteItDown = () => {
    const words = (phrase ?? "").split(" ");
    const first = Math.floor(Math.random() * words.length);
    let second = Math.floor(Math.random() * (words.length - 1));
    if (second >= first) second++;
    const positions: [number, number] = first < second ? [first, second] : [second, first];
    setQuiz({ positions, words: [words[positions[0]] ?? "", words[positions[1]] ?? ""] });
    setAnswers(["", ""]);
    setVerdict(undefined);
    hide();
  };
  return (
    <View style={{ gap: 10 }}>
      <Text style={styles.muted}>
        Anyone with these words controls the wallet. Write them on paper, alone; they are decrypted
        on this phone only.
      </Text>
      {phrase && hideAt !== undefined ? (
        <Phrase
          words={phrase}
          left={left ?? SHOW_MS / 1000}
          onHide={hide}
          onWroteItDown={wroteItDown}
        />
      ) : quiz ? (
        <View style={{ gap: 8 }}>
          {quiz.positions.map((position, i) => (
            <Field
              key={position}
              label={`Word ${position + 1}`}
              value={answers[i]}
              autoCapitalize="none"
              onChangeText={(text) => {
                const next: [string, string] = [...answers];
                next[i] = text;
                setAnswers(next);
              }}
            />
          ))}
          <Button
            title="Check"
            onPress={() => {
              const same = (a: string, b: string) => a.trim().toLowerCase() === b;
              setVerdict(
                same(answers[0], quiz.words[0]) && same(answers[1], quiz.words[1]) ? "ok" : "wrong",
              );
              setQuiz(undefined);
            }}
          />
        </View>
      ) : (
        <>
          {verdict === "ok" ? <Text style={styles.ok}>Your written copy checks out.</Text> : null}
          {verdict === "wrong" ? (
            <Text accessibilityRole="alert" style={styles.error}>
              That does not match. Reveal the phrase again and correct your copy.
            </Text>
          ) : null}
          <Button
            title={exportWallet.isPending ? "Decrypting on this phone…" : "Reveal recovery phrase"}
            disabled={exportWallet.isPending}
            onPress={() =>
              exportWallet.mutateAsync({ accountId }).then(
                () => setHideAt(Date.now() + SHOW_MS),
                () => undefined,
              )
            }
          />
        </>
      )}
      <ErrorNote error={exportWallet.error} title="Could not export the wallet" />
    </View>
  );
}

/** The phrase, with screenshots and screen recording blocked while it is on screen. */
function Phrase({
  words,
  left,
  onHide,
  onWroteItDown,
}: {
  words: string;
  left: number;
  onHide: () => void;
  onWroteItDown: () => void;
}) {
  usePreventScreenCapture("signet-recovery-phrase");
  return (
    <>
      <Text accessibilityLabel="Recovery phrase" style={styles.phrase} selectable={false}>
        {words}
      </Text>
      <Text testID="hide-countdown">Hidden again in {left} s.</Text>
      <View style={styles.row}>
        <Button title="I wrote it down" onPress={onWroteItDown} />
        <Button title="Hide now" kind="secondary" onPress={onHide} />
      </View>
    </>
  );
}
