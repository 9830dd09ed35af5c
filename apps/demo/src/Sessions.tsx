// Sessions: this device's session with its expiry countdown, every session of the wallet,
// refresh, revoke (after a confirmation) and sign out.
import {
  useRefreshSession,
  useRevokeSession,
  useSession,
  useSessions,
  useSignOut,
} from "@signet/react";
import {
  announceChange,
  ConfirmButton,
  ErrorNote,
  formatSeconds,
  methodName,
  useFreshList,
  useSecondsLeft,
  when,
} from "./ui.js";

export function Sessions({
  accountId,
  onEndingHere,
}: {
  accountId: string;
  /** Called just before this tab ends its own session, so the next screen says why. */
  onEndingHere: (why: "signedOut" | "revokedHere") => void;
}) {
  const { session, expiresAt, persistence } = useSession({ accountId });
  const sessions = useSessions({ accountId });
  const refresh = useRefreshSession();
  const revoke = useRevokeSession();
  const signOut = useSignOut();
  const left = useSecondsLeft(expiresAt);
  useFreshList("sessions", sessions.refetch);

  return (
    <section className="card" aria-labelledby="sessions-title">
      <h1 id="sessions-title">Sessions</h1>
      <div className="panel">
        <div>
          <div className="muted small">This device</div>
          <div className="big" aria-live="off">
            {left !== undefined ? (
              <>
                Expires in <span data-testid="countdown">{formatSeconds(left)}</span>
              </>
            ) : (
              "No session"
            )}
          </div>
          <div className="muted small">
            Keys kept in{" "}
            {persistence === "indexeddb"
              ? "IndexedDB (non-extractable)"
              : "memory only (lost on reload)"}
          </div>
        </div>
        <div className="row wrap">
          <button
            type="button"
            className="primary"
            disabled={refresh.isPending || !session}
            onClick={() => {
              revoke.reset();
              refresh.mutateAsync({ accountId }).then(
                () => announceChange("sessions"),
                () => undefined,
              );
            }}
          >
            {refresh.isPending ? "Refreshing…" : "Refresh session"}
          </button>
          <button
            type="button"
            className="secondary"
            disabled={signOut.isPending}
            onClick={() => {
              onEndingHere("signedOut");
              signOut.mutateAsync({ accountId }).then(
                () => announceChange("sessions"),
                () => undefined,
              );
            }}
          >
            Sign out
          </button>
        </div>
      </div>
      {refresh.isSuccess && (
        <p role="status" className="note note-ok">
          Session refreshed: a new key, a new expiry.
        </p>
      )}
      <ErrorNote error={refresh.error} title="Could not refresh the session" />
      <ErrorNote error={signOut.error} title="Could not sign out" />

      <h2>All sessions of this wallet</h2>
      <ErrorNote error={sessions.error} title="Could not load the sessions" />
      <ul className="list" aria-label="Sessions">
        {(sessions.data ?? []).map((s) => {
          const mine = s.id === session?.id;
          const name = s.nickname || methodName(s.type);
          const until = new Date(s.expiresAt).toLocaleTimeString();
          return (
            <li key={s.id} className="list-item">
              <div>
                <strong>{name}</strong>
                {mine && <span className="badge">this device</span>}
                <div className="muted small">
                  Signed in with {methodName(s.type).toLowerCase()} · {when(s.createdAt)} · until{" "}
                  {until}
                </div>
              </div>
              <ConfirmButton
                label="Revoke"
                ariaLabel={`Revoke session ${name} until ${until}${mine ? " (this device)" : ""}`}
                question={
                  mine
                    ? "End this device's session? You will need to sign in again here."
                    : `End the session "${name}"? That device will need to sign in again.`
                }
                confirmLabel={mine ? "Yes, end it and sign out" : "Yes, revoke"}
                disabled={revoke.isPending}
                onConfirm={() => {
                  refresh.reset();
                  if (mine) onEndingHere("revokedHere");
                  revoke.mutateAsync({ accountId, sessionId: s.id }).then(
                    () => announceChange("sessions"),
                    () => undefined,
                  );
                }}
              />
            </li>
          );
        })}
      </ul>
      {revoke.isSuccess && (
        <p role="status" className="note note-ok">
          Session revoked: that device must sign in again.
        </p>
      )}
      <ErrorNote error={revoke.error} title="Could not revoke the session" />
    </section>
  );
}
