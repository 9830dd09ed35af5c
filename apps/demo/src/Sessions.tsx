// Sessions: this device's session with its expiry countdown, every session of the wallet,
// refresh, revoke (after a confirmation) and sign out.
import {
  useRefreshSession,
  useRevokeSession,
  useSession,
  useSessions,
  useSignOut,
} from "@signet/react";
import { useCallback, useEffect, useState } from "react";
import { demoApi } from "./demoApi.js";
import { useSignerFrame } from "./signerFrame.js";
import {
  announceChange,
  ConfirmButton,
  ErrorNote,
  formatSeconds,
  useFreshList,
  useSecondsLeft,
  when,
} from "./ui.js";

/** How a session was opened, inside a sentence: "an email code", "an SMS code", "a passkey". */
const SIGNED_IN_WITH: Record<string, string> = {
  EMAIL_OTP: "an email code",
  SMS_OTP: "an SMS code",
  PASSKEY: "a passkey",
  OAUTH: "a Google login",
};

/** Wallet session id → the device it was opened on, from the demo server; kept fresh. */
function useDeviceNames(): Record<string, string> {
  const [names, setNames] = useState<Record<string, string>>({});
  const load = useCallback(() => {
    demoApi.devices().then(setNames, () => undefined);
  }, []);
  useEffect(() => load(), [load]);
  useFreshList("sessions", load);
  return names;
}

export function Sessions({
  accountId,
  onEndingHere,
}: {
  accountId: string;
  /** Called just before this tab ends its own session, so the next screen says why. */
  onEndingHere: (why: "signedOut" | "revokedHere") => void;
}) {
  const { session, expiresAt, persistence } = useSession({ accountId });
  const frame = useSignerFrame();
  const sessions = useSessions({ accountId });
  const refresh = useRefreshSession();
  const revoke = useRevokeSession();
  const signOut = useSignOut();
  const left = useSecondsLeft(expiresAt);
  useFreshList("sessions", sessions.refetch);
  const devices = useDeviceNames();

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
            {frame
              ? "the signer frame (its own origin's IndexedDB)"
              : persistence === "indexeddb"
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
          // Named by the device it is on and when it began, never by the email or phone.
          const name =
            devices[s.id] ?? (mine ? "This device" : "A device this browser did not see");
          const until = new Date(s.expiresAt).toLocaleTimeString([], {
            hour: "2-digit",
            minute: "2-digit",
          });
          return (
            <li key={s.id} className="list-item">
              <div>
                <strong>{name}</strong>
                {mine && <span className="badge">this device</span>}
                <div className="muted small">
                  Signed in {when(s.createdAt)} with {SIGNED_IN_WITH[s.type] ?? "another method"} ·
                  until {until}
                </div>
              </div>
              <ConfirmButton
                label="Revoke"
                ariaLabel={`Revoke the session of ${name}, signed in ${when(s.createdAt)}${mine ? " (this device)" : ""}`}
                question={
                  mine
                    ? "End this device's session? You will need to sign in again here."
                    : `End the session of ${name}? That device will need to sign in again.`
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
