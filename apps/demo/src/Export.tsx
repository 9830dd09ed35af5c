// Export: the wallet's recovery phrase behind an explicit confirmation, hidden again after a
// minute. It lives only in this component's state: never logged, stored or sent anywhere.
import { useExportWallet } from "@signet/react";
import { useEffect, useId, useState } from "react";
import { ErrorNote, useSecondsLeft } from "./ui.js";

const SHOW_MS = 60_000;

export function Export({ accountId }: { accountId: string }) {
  const exportWallet = useExportWallet();
  const [confirmed, setConfirmed] = useState(false);
  const [hideAt, setHideAt] = useState<number>();
  const confirmId = useId();
  const left = useSecondsLeft(hideAt);
  const { reset } = exportWallet;
  const shown = exportWallet.data !== undefined && hideAt !== undefined;
  const hide = () => {
    reset();
    setHideAt(undefined);
    setConfirmed(false);
  };
  useEffect(() => {
    if (exportWallet.data !== undefined) setHideAt(Date.now() + SHOW_MS);
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
      {!shown ? (
        <div className="stack">
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
            {exportWallet.isPending ? "Decrypting on this device…" : "Reveal recovery phrase"}
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
            Hidden again in {left ?? 60} s.
          </p>
          <button type="button" className="secondary" onClick={hide}>
            Hide now
          </button>
        </div>
      )}
      <ErrorNote error={exportWallet.error} title="Could not export the wallet" />
    </section>
  );
}
