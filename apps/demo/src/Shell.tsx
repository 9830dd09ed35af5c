// The frame around every screen: the header (who is signed in, where the calls go, the way out),
// the wallet's navigation, and the notes that say why the user is back at a sign-in screen.
import type { DemoConfig, DemoProfile } from "./demoApi.js";

export const SCREENS = [
  { id: "send", label: "Send money" },
  { id: "activity", label: "Activity" },
  { id: "receive", label: "Receive" },
  { id: "credentials", label: "Sign-in methods" },
  { id: "sessions", label: "Sessions" },
  { id: "export", label: "Export" },
  { id: "contact", label: "Contact" },
  { id: "security", label: "Security" },
] as const;
export type ScreenId = (typeof SCREENS)[number]["id"];

export const screenOfHash = (): ScreenId =>
  SCREENS.find((s) => `#${s.id}` === window.location.hash)?.id ?? "send";

export function Header({
  config,
  profile,
  onLeave,
}: {
  config: DemoConfig;
  profile: DemoProfile | null | undefined;
  onLeave: () => void;
}) {
  return (
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
            <span className="who" title={profile.email} data-testid="who">
              {profile.email}
            </span>
            <button type="button" className="link" onClick={onLeave}>
              Leave demo
            </button>
          </>
        )}
      </div>
    </header>
  );
}

export function WalletNav({ screen, go }: { screen: ScreenId; go: (id: ScreenId) => void }) {
  return (
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
  );
}

/** Why the user is at the demo's own sign-in: the server restarted, or forgot this browser. */
export function DemoForgotNote({ config, restarted }: { config: DemoConfig; restarted: boolean }) {
  if (restarted)
    return (
      <div className="note note-warn narrow" role="alert" data-testid="restarted">
        <strong>The demo server restarted.</strong>
        {config.mode === "emulator" ? (
          <p>
            Its emulator keeps nothing once it stops: the wallet you had here, its balance and its
            payments are gone. Sign in below to start a new, empty wallet (any email works, the same
            one too).
          </p>
        ) : (
          <p>
            It forgot who was signed in, but your wallet and its money are kept by the sandbox. Sign
            in below with the same email to find them again.
          </p>
        )}
      </div>
    );
  return (
    <div className="note note-warn narrow" role="alert">
      <strong>You are signed out of the demo.</strong>
      <p>You left the demo in another tab, or your sign-in ended. Sign in below to continue.</p>
    </div>
  );
}

export type LostSession = "signedOut" | "revokedHere" | "lost";

/** Why the user is at the wallet's unlock screen, when they were signed in before. */
export function LostSessionNote({ why }: { why: LostSession | undefined }) {
  if (why === "lost")
    return (
      <div className="note note-warn narrow" role="alert">
        <strong>You were signed out of the wallet.</strong>
        <p>The session expired or was ended in another tab or device. Sign in again to continue.</p>
      </div>
    );
  if (why === "signedOut")
    return (
      <p className="note note-ok narrow" role="status">
        <strong>You signed out of the wallet.</strong> This device holds no key for it now.
      </p>
    );
  if (why === "revokedHere")
    return (
      <p className="note note-ok narrow" role="status">
        <strong>You ended this device's session.</strong> Sign in again to continue.
      </p>
    );
  return null;
}
