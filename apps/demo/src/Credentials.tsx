// Credentials: list, add a passkey / SMS code / Google login, remove (after a confirmation).
import type { CredentialType } from "@signet/core";
import {
  useAddCredential,
  useAddPasskey,
  useCredentials,
  useRevokeCredential,
  useSession,
} from "@signet/react";
import { useCallback, useEffect, useState } from "react";
import { demoApi } from "./demoApi.js";
import { announceChange, ConfirmButton, ErrorNote, methodName, useFreshList, when } from "./ui.js";

type Challenge = Awaited<ReturnType<typeof demoApi.passkeyChallenge>>;

/**
 * A passkey's name says where it lives (`Chrome on Linux (added 2025-03-12)`), so the session it
 * opens is recognisable from another device. Only the characters the service allows.
 */
export function passkeyNickname(userAgent = navigator.userAgent, now = new Date()): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : "Browser";
  const system = /iPhone|iPad/.test(userAgent)
    ? "iOS"
    : /Android/.test(userAgent)
      ? "Android"
      : /Mac OS X/.test(userAgent)
        ? "macOS"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Linux|X11/.test(userAgent)
            ? "Linux"
            : "this device";
  return `${browser} on ${system} (added ${now.toISOString().slice(0, 10)})`;
}

type Notice = { tone: "ok"; text: string } | undefined;

/** A credential type core can remove: the device signs only the removal of the type shown. */
const removable = (type: string): type is CredentialType =>
  ["EMAIL_OTP", "SMS_OTP", "OAUTH", "PASSKEY"].includes(type);

export function Credentials({
  accountId,
  phoneNumber,
  onChanged,
}: {
  accountId: string;
  /**
   * The customer's phone on file, which an SMS code credential needs; shown beside the button, it
   * is the number the device checks the signed payload against.
   */
  phoneNumber: string | undefined;
  onChanged: () => void;
}) {
  const hasPhone = phoneNumber !== undefined;
  const credentials = useCredentials({ accountId });
  const addPasskey = useAddPasskey();
  const addCredential = useAddCredential();
  const revoke = useRevokeCredential();
  useFreshList("credentials", credentials.refetch);
  // The credential this device signed in with cannot sign its own removal (docs/protocol.md §5).
  const inUse = useSession({ accountId }).session?.credentialId;
  // The passkey challenge is fetched ahead, so the tap opens the prompt at once.
  const [challenge, setChallenge] = useState<Challenge>();
  const [challengeError, setChallengeError] = useState<unknown>(null);
  // One success note at a time: the latest action's.
  const [notice, setNotice] = useState<Notice>();
  const loadChallenge = useCallback(() => {
    demoApi.passkeyChallenge().then(setChallenge, setChallengeError);
  }, []);
  useEffect(() => loadChallenge(), [loadChallenge]);
  const changed = (text: string) => {
    setNotice({ tone: "ok", text });
    announceChange("credentials");
    announceChange("sessions");
    // The profile reloads, so sign-in offers the new method.
    onChanged();
  };
  const clearNotes = () => {
    setNotice(undefined);
    setChallengeError(null);
    addPasskey.reset();
    addCredential.reset();
    revoke.reset();
  };
  const list = credentials.data ?? [];
  const hasOauth = list.some((c) => c.type === "OAUTH");
  const hasSms = list.some((c) => c.type === "SMS_OTP");
  const busy = addPasskey.isPending || addCredential.isPending || revoke.isPending;

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
        {list.map((c) => {
          const name = methodName(c.type);
          return (
            <li key={c.id} className="list-item">
              <div>
                <strong>{name}</strong>
                {c.nickname && <span className="muted small"> · {c.nickname}</span>}
                {c.id === inUse && <span className="badge">signed in with this</span>}
                <div className="muted small">
                  Added {when(c.createdAt)}
                  {c.updatedAt && c.updatedAt !== c.createdAt
                    ? ` · last changed ${when(c.updatedAt)}`
                    : ""}
                </div>
              </div>
              <ConfirmButton
                label="Remove"
                ariaLabel={`Remove ${name} ${c.nickname ?? ""}`.trim()}
                question={`Remove ${name}${c.nickname ? ` (${c.nickname})` : ""}? Its sessions end too.`}
                confirmLabel="Yes, remove"
                disabled={busy || list.length < 2 || c.id === inUse || !removable(c.type)}
                onConfirm={() => {
                  if (!removable(c.type)) return;
                  clearNotes();
                  // A passkey's WebAuthn id lets the browser drop it from its passkey manager too.
                  revoke
                    .mutateAsync({
                      accountId,
                      credentialId: c.id,
                      // The type the user confirmed removing: never another kind.
                      type: c.type,
                      passkeyCredentialId: c.credentialId,
                    })
                    .then(
                      () => changed(`Removed ${name}. Its sessions ended too.`),
                      () => undefined,
                    );
                }}
              />
            </li>
          );
        })}
      </ul>
      {list.length === 1 && (
        <p className="hint">The only sign-in method cannot be removed: add another first.</p>
      )}

      <h2>Add a sign-in method</h2>
      <div className="row wrap">
        <button
          type="button"
          className="primary"
          disabled={!challenge || busy}
          onClick={() => {
            if (!challenge) return;
            clearNotes();
            addPasskey.mutateAsync({ accountId, nickname: passkeyNickname(), ...challenge }).then(
              () => changed("Passkey added. You can now sign in with it alone."),
              () => undefined,
            );
            setChallenge(undefined);
            loadChallenge();
          }}
        >
          {addPasskey.isPending ? "Waiting for your device…" : "Add a passkey"}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={busy || hasSms || !hasPhone}
          aria-describedby="sms-hint"
          onClick={() => {
            if (phoneNumber === undefined) return;
            clearNotes();
            addCredential.mutateAsync({ accountId, type: "SMS_OTP", phoneNumber }).then(
              () => changed("Added SMS code: the unlock screen offers it now."),
              () => undefined,
            );
          }}
        >
          Add SMS code
        </button>
        <button
          type="button"
          className="secondary"
          disabled={busy || hasOauth}
          onClick={async () => {
            clearNotes();
            try {
              const { idToken } = await demoApi.oidcToken();
              addCredential.mutateAsync({ accountId, type: "OAUTH", oidcToken: idToken }).then(
                () => changed("Added Google login."),
                () => undefined,
              );
            } catch (error) {
              setChallengeError(error);
            }
          }}
        >
          Add Google login (sandbox)
        </button>
      </div>
      <p id="sms-hint" className="hint">
        {hasSms
          ? "SMS code is already a sign-in method."
          : hasPhone
            ? `SMS codes go to ${phoneNumber}, the number on file.`
            : "SMS code needs a phone number: add one under Contact first (it is verified by a code)."}
      </p>
      {notice && (
        <p role="status" className="note note-ok">
          {notice.text}
        </p>
      )}
      <ErrorNote error={revoke.error} title="Could not remove the sign-in method" />
      <ErrorNote error={addPasskey.error} title="The passkey was not added" />
      <ErrorNote error={addCredential.error} title="Could not add the sign-in method" />
      <ErrorNote error={challengeError} title="The demo server did not answer" />
    </section>
  );
}
