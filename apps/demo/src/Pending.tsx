// Calls the service still answers PROCESSING for (docs/protocol.md §2.5): it accepted them and
// has not settled them yet. Not an error: the page says what is still happening, and a call
// carried on after a reload (or from another tab) says so too.
import type { PendingCall } from "@signet/core";
import { usePendingCalls } from "@signet/react";

/** What a call still processing is doing, in the words of the screen that started it. */
const STILL: Record<string, string> = {
  signOut: "Still signing you out…",
  revokeSession: "Still ending that session…",
  revokeCredential: "Still removing the sign-in method…",
  addCredential: "Still adding the sign-in method…",
  addPasskey: "Still adding the passkey…",
  verifyOtp: "Still signing you in…",
  signInWithPasskey: "Still signing you in…",
  signInWithOAuth: "Still signing you in…",
  refreshSession: "Still refreshing the session…",
  exportWallet: "Still exporting the wallet…",
};

const words = (call: PendingCall) => STILL[call.action] ?? "Still finishing…";

/** One line per call still processing; nothing when there is none. */
export function PendingNote() {
  const calls = usePendingCalls();
  if (calls.length === 0) return null;
  return (
    <div role="status" className="note" data-testid="pending">
      {calls.map((call) => (
        <p key={call.requestId}>
          {words(call)}
          {call.resumed ? " (carried on after a reload)" : ""}{" "}
          <span className="muted small">
            The service is settling it; this page asks again ({call.attempt}).
          </span>
        </p>
      ))}
    </div>
  );
}
