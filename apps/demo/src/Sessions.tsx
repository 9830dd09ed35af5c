// Sessions: this device's session with its expiry countdown, every session of the wallet,
// refresh, revoke and sign out.
import {
  useRefreshSession,
  useRevokeSession,
  useSession,
  useSessions,
  useSignOut,
} from "@signet/react";
import { ErrorNote, formatSeconds, useSecondsLeft } from "./ui.js";

export function Sessions({ accountId }: { accountId: string }) {
  const { session, expiresAt, persistence } = useSession({ accountId });
  const sessions = useSessions({ accountId });
  const refresh = useRefreshSession();
  const revoke = useRevokeSession();
  const signOut = useSignOut();
  const left = useSecondsLeft(expiresAt);

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
            onClick={() => refresh.mutate({ accountId })}
          >
            {refresh.isPending ? "Refreshing…" : "Refresh session"}
          </button>
          <button
            type="button"
            className="secondary"
            disabled={signOut.isPending}
            onClick={() => signOut.mutate({ accountId })}
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
        {(sessions.data ?? []).map((s) => (
          <li key={s.id} className="list-item">
            <div>
              <strong>{s.nickname || s.type}</strong>
              {s.id === session?.id && <span className="badge">this device</span>}
              <div className="muted small">
                {s.type} · until {new Date(s.expiresAt).toLocaleTimeString()}
              </div>
            </div>
            <button
              type="button"
              className="danger"
              disabled={revoke.isPending}
              aria-label={`Revoke session ${s.nickname || s.type} until ${new Date(s.expiresAt).toLocaleTimeString()}${s.id === session?.id ? " (this device)" : ""}`}
              onClick={() => revoke.mutate({ accountId, sessionId: s.id })}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <ErrorNote error={revoke.error} title="Could not revoke the session" />
    </section>
  );
}
