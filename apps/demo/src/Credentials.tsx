// Credentials: list, add a passkey / SMS code / OAuth login, revoke.
import {
  useAddCredential,
  useAddPasskey,
  useCredentials,
  useRevokeCredential,
  useSession,
} from "@signet/react";
import { useCallback, useEffect, useState } from "react";
import { demoApi } from "./demoApi.js";
import { ErrorNote } from "./ui.js";

type Challenge = Awaited<ReturnType<typeof demoApi.passkeyChallenge>>;

const TYPE_NAMES: Record<string, string> = {
  EMAIL_OTP: "Email code",
  SMS_OTP: "SMS code",
  PASSKEY: "Passkey",
  OAUTH: "OAuth login",
};

export function Credentials({
  accountId,
  onChanged,
}: {
  accountId: string;
  onChanged: () => void;
}) {
  const credentials = useCredentials({ accountId });
  const addPasskey = useAddPasskey();
  const addCredential = useAddCredential();
  const revoke = useRevokeCredential();
  // The credential this device signed in with cannot sign its own removal (docs/protocol.md §5).
  const inUse = useSession({ accountId }).session?.credentialId;
  // The passkey challenge is fetched ahead, so the tap opens the prompt at once.
  const [challenge, setChallenge] = useState<Challenge>();
  const [challengeError, setChallengeError] = useState<unknown>(null);
  const loadChallenge = useCallback(() => {
    demoApi.passkeyChallenge().then(setChallenge, setChallengeError);
  }, []);
  useEffect(() => loadChallenge(), [loadChallenge]);
  // After a change the profile reloads, so sign-in offers the new method.
  useEffect(() => {
    if (addPasskey.data || addCredential.data || revoke.isSuccess) onChanged();
  }, [addPasskey.data, addCredential.data, revoke.isSuccess, onChanged]);
  const list = credentials.data ?? [];
  const hasOauth = list.some((c) => c.type === "OAUTH");
  const hasSms = list.some((c) => c.type === "SMS_OTP");

  return (
    <section className="card" aria-labelledby="cred-title">
      <h1 id="cred-title">Sign-in methods</h1>
      <p className="muted">
        Every way to unlock this wallet. Keep at least two, so losing one device does not lock you
        out.
      </p>
      {credentials.isPending && <p aria-live="polite">Loading…</p>}
      <ErrorNote error={credentials.error} title="Could not load the sign-in methods" />
      <ul className="list" aria-label="Sign-in methods">
        {list.map((c) => (
          <li key={c.id} className="list-item">
            <div>
              <strong>{TYPE_NAMES[c.type] ?? c.type}</strong>
              <span className="muted small"> · {c.nickname}</span>
              {c.id === inUse && <span className="badge">signed in with this</span>}
              <div className="muted small">Added {new Date(c.createdAt).toLocaleString()}</div>
            </div>
            <button
              type="button"
              className="danger"
              disabled={revoke.isPending || list.length < 2 || c.id === inUse}
              aria-label={`Remove ${TYPE_NAMES[c.type] ?? c.type} ${c.nickname}`}
              onClick={() =>
                // A passkey's WebAuthn id lets the browser drop it from its passkey manager too.
                revoke.mutate({
                  accountId,
                  credentialId: c.id,
                  passkeyCredentialId: c.credentialId,
                })
              }
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <ErrorNote error={revoke.error} title="Could not remove the sign-in method" />
      {revoke.isSuccess && (
        <p role="status" className="note note-ok">
          Removed. Its sessions ended too.
        </p>
      )}

      <h2>Add a sign-in method</h2>
      <div className="row wrap">
        <button
          type="button"
          className="primary"
          disabled={!challenge || addPasskey.isPending}
          onClick={() => {
            if (!challenge) return;
            addPasskey.mutate({ accountId, nickname: "This device", ...challenge });
            setChallenge(undefined);
            loadChallenge();
          }}
        >
          {addPasskey.isPending ? "Waiting for your device…" : "Add a passkey"}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={addCredential.isPending || hasSms}
          onClick={() => addCredential.mutate({ accountId, type: "SMS_OTP" })}
        >
          Add SMS code
        </button>
        <button
          type="button"
          className="secondary"
          disabled={addCredential.isPending || hasOauth}
          onClick={async () => {
            try {
              const { idToken } = await demoApi.oidcToken();
              addCredential.mutate({ accountId, type: "OAUTH", oidcToken: idToken });
            } catch (error) {
              setChallengeError(error);
            }
          }}
        >
          Add Google login (sandbox)
        </button>
      </div>
      {addPasskey.isSuccess && (
        <p role="status" className="note note-ok">
          Passkey added. You can now sign in with it alone.
        </p>
      )}
      {addCredential.data && (
        <p role="status" className="note note-ok">
          Added {TYPE_NAMES[addCredential.data.type] ?? addCredential.data.type}.
        </p>
      )}
      <ErrorNote error={addPasskey.error} title="The passkey was not added" />
      <ErrorNote error={addCredential.error} title="Could not add the sign-in method" />
      <ErrorNote error={challengeError} title="The demo server did not answer" />
    </section>
  );
}
