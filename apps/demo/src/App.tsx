// The demo's shell: the app's own login, the wallet's session, and one screen per flow.
import { useSession, useSignOut } from "@signet/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Activity } from "./Activity.js";
import { Contact } from "./Contact.js";
import { Credentials } from "./Credentials.js";
import { DemoApiError, type DemoConfig, type DemoProfile, demoApi } from "./demoApi.js";
import { EventLog } from "./EventLog.js";
import { Export } from "./Export.js";
import { onRelayUnauthorized, onSessionRejected } from "./log.js";
import { Receive } from "./Receive.js";
import { Send } from "./Send.js";
import { Sessions } from "./Sessions.js";
import { DemoLogin, WalletSignIn } from "./SignIn.js";
import { announceChange, ErrorNote, ScreenBoundary } from "./ui.js";

const SCREENS = [
  { id: "send", label: "Send money" },
  { id: "activity", label: "Activity" },
  { id: "receive", label: "Receive" },
  { id: "credentials", label: "Sign-in methods" },
  { id: "sessions", label: "Sessions" },
  { id: "export", label: "Export" },
  { id: "contact", label: "Contact" },
] as const;
type ScreenId = (typeof SCREENS)[number]["id"];

const screenOfHash = (): ScreenId =>
  SCREENS.find((s) => `#${s.id}` === window.location.hash)?.id ?? "send";

export function App({ config }: { config: DemoConfig }) {
  const [profile, setProfile] = useState<DemoProfile | null>();
  const [loadError, setLoadError] = useState<unknown>(null);
  const [screen, setScreen] = useState<ScreenId>(screenOfHash);
  const { status } = useSession(profile ? { accountId: profile.accountId } : {});
  const signOut = useSignOut();
  const wasSignedIn = useRef(false);
  // Why the wallet session ended, for a message that tells the truth: the user signed out or
  // revoked this device's session here, or it ended on its own (expiry, another tab or device).
  const [lostSession, setLostSession] = useState<"signedOut" | "revokedHere" | "lost">();
  const endingHere = useRef<"signedOut" | "revokedHere">(undefined);
  // The demo server no longer knows this browser (restarted, or the demo was left elsewhere).
  const [demoForgot, setDemoForgot] = useState(false);
  const headingRef = useRef<HTMLDivElement>(null);

  const reloadProfile = useCallback(() => {
    demoApi.me().then(
      (p) => setProfile(p),
      (e) => (e instanceof DemoApiError && e.status === 401 ? setProfile(null) : setLoadError(e)),
    );
  }, []);
  // Any 401 of the relay: ask the demo server whether it still knows us. If not, only a new
  // demo sign-in helps, so say so instead of retrying a call that can never pass.
  const checking = useRef(false);
  useEffect(
    () =>
      onRelayUnauthorized(() => {
        if (checking.current) return;
        checking.current = true;
        demoApi
          .me()
          .then(
            (p) => {
              if (p === null) {
                wasSignedIn.current = false;
                setLostSession(undefined);
                setDemoForgot(true);
                setProfile(null);
              }
            },
            () => undefined,
          )
          .finally(() => {
            checking.current = false;
          });
      }),
    [],
  );
  useEffect(() => reloadProfile(), [reloadProfile]);
  useEffect(() => {
    const onHash = () => setScreen(screenOfHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  useEffect(() => {
    if (status === "signedIn") {
      wasSignedIn.current = true;
      endingHere.current = undefined;
      setLostSession(undefined);
      reloadProfile();
      // Other tabs' session lists show this new session at once.
      announceChange("sessions");
    } else if (status === "signedOut" && wasSignedIn.current) {
      wasSignedIn.current = false;
      setLostSession(endingHere.current ?? "lost");
      endingHere.current = undefined;
    }
  }, [status, reloadProfile]);

  // A session revoked in another tab or device: the next signed call gets 401, and signing out
  // here drops the dead session's key (core treats a session the service no longer knows as gone).
  const accountId = profile?.accountId;
  const { mutate: signOutNow } = signOut;
  useEffect(
    () =>
      onSessionRejected(() => {
        if (accountId && status === "signedIn") signOutNow({ accountId });
      }),
    [accountId, status, signOutNow],
  );

  const go = (id: ScreenId) => {
    window.location.hash = id;
    setScreen(id);
    headingRef.current?.focus();
  };
  const leaveDemo = async () => {
    if (profile && status === "signedIn")
      await signOut.mutateAsync({ accountId: profile.accountId }).catch(() => undefined);
    await demoApi.signOut().catch(() => undefined);
    wasSignedIn.current = false;
    setLostSession(undefined);
    setDemoForgot(false);
    setProfile(null);
  };

  let main: React.ReactNode;
  if (loadError) main = <ErrorNote error={loadError} title="Could not reach the demo server" />;
  else if (profile === undefined || (profile && status === "loading"))
    main = <p aria-live="polite">Loading…</p>;
  else if (profile === null)
    main = (
      <>
        {demoForgot && (
          <div className="note note-warn narrow" role="alert">
            <strong>You are signed out of the demo.</strong>
            <p>
              The demo server no longer knows this browser: it was restarted, or you left the demo
              in another tab. Enter your email to continue; your wallet is still there.
            </p>
          </div>
        )}
        <DemoLogin
          config={config}
          onProfile={(p) => {
            setDemoForgot(false);
            setProfile(p);
          }}
        />
      </>
    );
  else if (status !== "signedIn")
    main = (
      <>
        {lostSession === "lost" && (
          <div className="note note-warn narrow" role="alert">
            <strong>You were signed out of the wallet.</strong>
            <p>
              The session expired or was ended in another tab or device. Sign in again to continue.
            </p>
          </div>
        )}
        {lostSession === "signedOut" && (
          <p className="note note-ok narrow" role="status">
            <strong>You signed out of the wallet.</strong> This device holds no key for it now.
          </p>
        )}
        {lostSession === "revokedHere" && (
          <p className="note note-ok narrow" role="status">
            <strong>You ended this device's session.</strong> Sign in again to continue.
          </p>
        )}
        <WalletSignIn config={config} profile={profile} onSwitchUser={leaveDemo} />
      </>
    );
  else
    main = (
      <>
        <nav aria-label="Wallet" className="tabs">
          {SCREENS.map((s) => (
            <a
              key={s.id}
              href={`#${s.id}`}
              aria-current={screen === s.id ? "page" : undefined}
              onClick={(e) => {
                e.preventDefault();
                go(s.id);
              }}
            >
              {s.label}
            </a>
          ))}
        </nav>
        <div ref={headingRef} tabIndex={-1} className="screen">
          {screen === "send" && <Send customerId={profile.customerId} region={profile.region} />}
          {screen === "credentials" && (
            <Credentials
              accountId={profile.accountId}
              phoneNumber={profile.phoneNumber}
              onChanged={reloadProfile}
            />
          )}
          {screen === "activity" && <Activity />}
          {screen === "receive" && <Receive />}
          {screen === "sessions" && (
            <Sessions
              accountId={profile.accountId}
              onEndingHere={(why) => {
                endingHere.current = why;
              }}
            />
          )}
          {screen === "export" && <Export accountId={profile.accountId} />}
          {screen === "contact" && (
            <Contact
              customerId={profile.customerId}
              accountId={profile.accountId}
              email={profile.email}
              phoneNumber={profile.phoneNumber}
              onChanged={reloadProfile}
            />
          )}
        </div>
      </>
    );

  return (
    <div className="app">
      <a href="#main" className="skip">
        Skip to content
      </a>
      <header className="top">
        <div className="brand">
          <span className="logo" aria-hidden="true">
            ◆
          </span>{" "}
          Signet <span className="muted">demo wallet</span>
        </div>
        <div className="row">
          <span className="badge" title="Where the service calls go">
            {config.mode === "emulator" ? "Local emulator" : "Sandbox"}
          </span>
          {profile && (
            <>
              <span className="who" title={profile.email}>
                {profile.email}
              </span>
              <button type="button" className="link" onClick={leaveDemo}>
                Leave demo
              </button>
            </>
          )}
        </div>
      </header>
      <div className="layout">
        <main id="main">
          <ScreenBoundary>{main}</ScreenBoundary>
        </main>
        <EventLog />
      </div>
    </div>
  );
}
