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
import { PendingNote } from "./Pending.js";
import { Receive } from "./Receive.js";
import { Security } from "./Security.js";
import { Sessions } from "./Sessions.js";
import {
  DemoForgotNote,
  Header,
  type LostSession,
  LostSessionNote,
  type ScreenId,
  screenOfHash,
  WalletNav,
} from "./Shell.js";
import { DemoLogin, WalletSignIn } from "./SignIn.js";
import { SmsOffer } from "./SmsOffer.js";
import { SendScreen } from "./send/SendScreen.js";
import { onSignal } from "./signals.js";
import { SignerSlot } from "./signerFrame.js";
import { announceChange, ErrorNote, ScreenBoundary } from "./ui.js";

export function App({
  config,
  restarted,
  onForgotten,
}: {
  config: DemoConfig;
  /** The demo server restarted since this page loaded (main.tsx found a new instance id). */
  restarted: boolean;
  /** The demo server no longer knows this browser: main.tsx checks whether it restarted. */
  onForgotten: () => void;
}) {
  const [profile, setProfile] = useState<DemoProfile | null>();
  const [loadError, setLoadError] = useState<unknown>(null);
  const [screen, setScreen] = useState<ScreenId>(screenOfHash);
  const { status, session } = useSession(profile ? { accountId: profile.accountId } : {});
  const signOut = useSignOut();
  const wasSignedIn = useRef(false);
  // Why the wallet session ended, for a message that tells the truth: the user signed out or
  // revoked this device's session here, or it ended on its own (expiry, another tab or device).
  const [lostSession, setLostSession] = useState<LostSession>();
  const endingHere = useRef<"signedOut" | "revokedHere">(undefined);
  // The demo server no longer knows this browser (signed out elsewhere, or restarted).
  const [demoForgot, setDemoForgot] = useState(restarted);
  const headingRef = useRef<HTMLDivElement>(null);

  // Whether this page held a demo profile: the demo server answering "nobody" after that means
  // it forgot the browser, whichever call learns it first, and the page says so.
  const heldProfile = useRef(false);
  useEffect(() => {
    if (profile) heldProfile.current = true;
  }, [profile]);
  const forgotten = useCallback(() => {
    heldProfile.current = false;
    wasSignedIn.current = false;
    setLostSession(undefined);
    setDemoForgot(true);
    setProfile(null);
    onForgotten();
  }, [onForgotten]);
  const reloadProfile = useCallback(() => {
    demoApi.me().then(
      (p) => (p === null && heldProfile.current ? forgotten() : setProfile(p)),
      (e) => (e instanceof DemoApiError && e.status === 401 ? setProfile(null) : setLoadError(e)),
    );
  }, [forgotten]);
  // Any 401 of the relay, or SIGNED_OUT from a demo endpoint: ask the demo server whether it
  // still knows us. If not, only a new demo sign-in helps: say so, with the email field in sight.
  const checking = useRef(false);
  useEffect(() => {
    const check = () => {
      if (checking.current) return;
      checking.current = true;
      demoApi
        .me()
        .then(
          (p) => (p === null ? forgotten() : undefined),
          () => undefined,
        )
        .finally(() => {
          checking.current = false;
        });
    };
    const stops = [onRelayUnauthorized(check), onSignal("demoSignedOut", check)];
    return () => {
      for (const stop of stops) stop();
    };
  }, [forgotten]);
  useEffect(() => reloadProfile(), [reloadProfile]);
  useEffect(() => {
    const onHash = () => setScreen(screenOfHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const sessionId = session?.id;
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
  // Each new wallet session is named by this device (the server reads the browser's name).
  useEffect(() => {
    if (!sessionId) return;
    demoApi.registerDevice(sessionId).then(
      () => announceChange("sessions"),
      () => undefined,
    );
  }, [sessionId]);

  // A session revoked in another tab or device: the next signed call gets 401 (or the demo server
  // says so before funding or a quote), and signing out here drops the dead session's key.
  const accountId = profile?.accountId;
  const { mutate: signOutNow } = signOut;
  useEffect(() => {
    const end = () => {
      if (accountId && status === "signedIn") signOutNow({ accountId });
    };
    const stops = [onSessionRejected(end), onSignal("walletSessionEnded", end)];
    return () => {
      for (const stop of stops) stop();
    };
  }, [accountId, status, signOutNow]);

  const go = (id: ScreenId) => {
    window.location.hash = id;
    setScreen(id);
    headingRef.current?.focus();
  };
  const leaveDemo = async () => {
    if (profile && status === "signedIn")
      await signOut.mutateAsync({ accountId: profile.accountId }).catch(() => undefined);
    await demoApi.signOut().catch(() => undefined);
    heldProfile.current = false;
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
        {demoForgot && <DemoForgotNote config={config} restarted={restarted} />}
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
        <LostSessionNote why={lostSession} />
        <WalletSignIn config={config} profile={profile} onSwitchUser={leaveDemo} />
      </>
    );
  else
    main = (
      <>
        <WalletNav screen={screen} go={go} />
        <SmsOffer profile={profile} onAdded={reloadProfile} />
        <div ref={headingRef} tabIndex={-1} className="screen">
          <WalletScreen
            screen={screen}
            profile={profile}
            go={go}
            reloadProfile={reloadProfile}
            onEndingHere={(why) => {
              endingHere.current = why;
            }}
          />
        </div>
      </>
    );

  return (
    <div className="app">
      <a href="#main" className="skip">
        Skip to content
      </a>
      <Header config={config} profile={profile} onLeave={leaveDemo} />
      <div className="layout">
        <main id="main">
          <PendingNote />
          <SignerSlot />
          <ScreenBoundary>{main}</ScreenBoundary>
        </main>
        <EventLog />
      </div>
    </div>
  );
}

function WalletScreen({
  screen,
  profile,
  go,
  reloadProfile,
  onEndingHere,
}: {
  screen: ScreenId;
  profile: DemoProfile;
  go: (id: ScreenId) => void;
  reloadProfile: () => void;
  onEndingHere: (why: "signedOut" | "revokedHere") => void;
}) {
  switch (screen) {
    case "send":
      return <SendScreen profile={profile} />;
    case "credentials":
      return (
        <Credentials
          accountId={profile.accountId}
          phoneNumber={profile.phoneNumber}
          onChanged={reloadProfile}
        />
      );
    case "activity":
      return <Activity profile={profile} onConfirm={() => go("send")} />;
    case "receive":
      return <Receive />;
    case "sessions":
      return <Sessions accountId={profile.accountId} onEndingHere={onEndingHere} />;
    case "export":
      return <Export profile={profile} />;
    case "security":
      return <Security profile={profile} />;
    case "contact":
      return (
        <Contact
          customerId={profile.customerId}
          accountId={profile.accountId}
          email={profile.email}
          phoneNumber={profile.phoneNumber}
          onChanged={reloadProfile}
        />
      );
  }
}
