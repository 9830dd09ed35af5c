// Export: the wallet's recovery phrase behind an explicit confirmation, hidden again after a
// minute. It lives only in this component's state: never logged, stored or sent anywhere. Core's
// step-up guards it: a sign-in older than the client's `stepUp.maxAgeMs` is asked to confirm it is
// the user first (before the click, when `useStepUp` already knows; or when the export itself comes
// back STEP_UP_REQUIRED, nothing sent), and the export then goes on by itself. With the signer
// frame on, the phrase never reaches this page: the frame asks for a tap in itself and shows the
// words there (`exportWallet` resolves to `{ shownIn: "frame" }`); this screen says so.
import { useExportWallet, useStepUp } from "@signet/react";
import { type FormEvent, useEffect, useId, useState } from "react";
import type { DemoProfile } from "./demoApi.js";
import { StepUp } from "./StepUp.js";
import { useSignerFrame } from "./signerFrame.js";
import { ErrorNote, useSecondsLeft } from "./ui.js";

const SHOW_MS = 60_000;

export function Export({ profile }: { profile: DemoProfile }) {
  const { accountId } = profile;
  const exportWallet = useExportWallet();
  const step = useStepUp({ accountId, action: "exportWallet" });
  // Refused for a stale sign-in (nothing was sent): the prompt shows, and the export runs again
  // once the user has confirmed it is them.
  const refused = exportWallet.error?.code === "STEP_UP_REQUIRED";
  const asksStepUp = step.required || refused;
  const verified = () => {
    if (refused) exportWallet.mutate({ accountId });
  };
  const [confirmed, setConfirmed] = useState(false);
  const [hideAt, setHideAt] = useState<number>();
  const confirmId = useId();
  const left = useSecondsLeft(hideAt);
  const { reset } = exportWallet;
  // Keys in this page: the export returns the phrase itself. In the signer frame: only where it
  // is shown (the frame), and the words stay there.
  const frame = useSignerFrame();
  const phrase = typeof exportWallet.data === "string" ? exportWallet.data : undefined;
  const inFrame = exportWallet.data !== undefined && typeof exportWallet.data !== "string";
  const shown = phrase !== undefined && hideAt !== undefined;
  // "Wrote it down?": two random positions asked back once the phrase is hidden. Only those two
  // words stay, in this component's state, until the check ends.
  const [quiz, setQuiz] = useState<{ positions: [number, number]; words: [string, string] }>();
  const [answers, setAnswers] = useState<[string, string]>(["", ""]);
  const [verdict, setVerdict] = useState<"ok" | "wrong">();
  const quizId = useId();
  const wroteItDown = () => {
    const words = (exportWallet.data ?? "").split(" ");
    const first = Math.floor(Math.random() * words.length);
    let second = Math.floor(Math.random() * (words.length - 1));
    if (second >= first) second++;
    const positions: [number, number] = first < second ? [first, second] : [second, first];
    setQuiz({ positions, words: [words[positions[0]] ?? "", words[positions[1]] ?? ""] });
    setAnswers(["", ""]);
    setVerdict(undefined);
    hide();
  };
  const check = (event: FormEvent) => {
    event.preventDefault();
    if (!quiz) return;
    const same = (a: string, b: string) => a.trim().toLowerCase() === b;
    const ok = same(answers[0], quiz.words[0]) && same(answers[1], quiz.words[1]);
    setVerdict(ok ? "ok" : "wrong");
    setQuiz(undefined);
  };
  const hide = () => {
    reset();
    setHideAt(undefined);
    setConfirmed(false);
  };
  // The page hides only words it holds; the frame's own "Done" hides the ones it shows.
  useEffect(() => {
    if (typeof exportWallet.data === "string") setHideAt(Date.now() + SHOW_MS);
  }, [exportWallet.data]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: hide once the time is up
  useEffect(() => {
    if (left === 0) hide();
  }, [left]);

  return (
    <section className="card" aria-labelledby="export-title">
      <h1 id="export-title">Export recovery phrase</h1>
      <div className="note note-warn">
        <strong>Anyone with these words controls the wallet.</strong>
        <p>
          Write them down on paper, alone. Never type them into a website or share a screenshot.
        </p>
      </div>
      {quiz && !shown ? (
        <form className="stack" onSubmit={check} aria-labelledby={`${quizId}-title`}>
          <h2 id={`${quizId}-title`}>Check your written copy</h2>
          <p className="muted">From your paper, not from memory: which words are these?</p>
          {quiz.positions.map((position, i) => (
            <div className="stack" key={position}>
              <label htmlFor={`${quizId}-${i}`}>Word {position + 1}</label>
              <input
                id={`${quizId}-${i}`}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                required
                value={answers[i]}
                onChange={(e) => {
                  const next: [string, string] = [...answers];
                  next[i] = e.target.value;
                  setAnswers(next);
                }}
              />
            </div>
          ))}
          <div className="row wrap">
            <button type="submit" className="primary">
              Check
            </button>
            <button
              type="button"
              className="link"
              onClick={() => {
                setQuiz(undefined);
                setVerdict(undefined);
              }}
            >
              Skip the check
            </button>
          </div>
        </form>
      ) : inFrame ? (
        <div className="stack">
          <p className="note note-ok" role="status" data-testid="phrase-in-frame">
            Your recovery phrase is shown in the signer frame above, never in this page. Write it
            down from there, then press Done in the frame.
          </p>
          <button type="button" className="secondary" onClick={hide}>
            Finished
          </button>
        </div>
      ) : !shown && asksStepUp ? (
        <StepUp profile={profile} step={step} onVerified={verified} />
      ) : !shown ? (
        <div className="stack">
          {verdict === "ok" && (
            <p className="note note-ok" role="status">
              Your written copy checks out. Keep it somewhere safe and offline.
            </p>
          )}
          {verdict === "wrong" && (
            <p className="note note-error" role="alert">
              That does not match your recovery phrase. Reveal it again and correct your copy.
            </p>
          )}
          {frame && (
            <p className="muted">
              The signer frame above asks you to confirm the export, and shows the words there: they
              never reach this page.
            </p>
          )}
          <div className="check">
            <input
              id={confirmId}
              type="checkbox"
              checked={confirmed}
              onChange={(e) => setConfirmed(e.target.checked)}
            />
            <label htmlFor={confirmId}>I am alone and nobody can see my screen</label>
          </div>
          <button
            type="button"
            className="primary"
            disabled={!confirmed || exportWallet.isPending}
            onClick={() => exportWallet.mutate({ accountId })}
          >
            {!exportWallet.isPending
              ? "Reveal recovery phrase"
              : frame
                ? "Confirm in the signer frame above…"
                : "Decrypting on this device…"}
          </button>
        </div>
      ) : (
        <div className="stack">
          <ol className="mnemonic" aria-label="Recovery phrase">
            {(exportWallet.data ?? "").split(" ").map((word, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: words repeat; the position is the identity
              <li key={i}>{word}</li>
            ))}
          </ol>
          <p className="muted" role="status">
            Hidden again in {left ?? SHOW_MS / 1000} s.
          </p>
          <div className="row wrap">
            <button type="button" className="primary" onClick={wroteItDown}>
              I wrote it down
            </button>
            <button type="button" className="secondary" onClick={hide}>
              Hide now
            </button>
          </div>
        </div>
      )}
      {!refused && <ErrorNote error={exportWallet.error} title="Could not export the wallet" />}
    </section>
  );
}
