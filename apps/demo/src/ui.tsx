// Small pieces every screen uses: error notes that say what to do, step progress, countdowns.
import type { CurrencyJson } from "@signet/core";
import { Component, type ReactNode, useEffect, useState } from "react";
import { DemoApiError } from "./demoApi.js";

const ADVICE: Record<string, string> = {
  INVALID_INPUT: "Check what you typed and try again.",
  UNAUTHORIZED:
    "The code or credential was not accepted. Check it and try again, or ask for a new code.",
  CHALLENGE_EXPIRED: "The code expired. Ask for a new one.",
  CHALLENGE_INVALID: "That code is not valid any more. Ask for a new one.",
  ACCOUNT_LOCKED: "Too many wrong attempts. Wait a few minutes, then ask for a new code.",
  SCA_SESSION_REQUIRED:
    "Your confirmation login lapsed. Sign out and in again, then confirm the payment again.",
  BAD_REQUEST: "That confirmation was not accepted. Check the code and try again.",
  NO_SESSION: "This device holds no session for the wallet. Sign in again.",
  SESSION_EXPIRED: "Your session ended. Sign in again to continue.",
  NOT_FOUND: "The service no longer knows this session or item. Sign in again, or reload the page.",
  WEBAUTHN_CANCELLED: "The passkey prompt was closed. Try again and confirm on your device.",
  WEBAUTHN_INVALID_STATE: "This device already holds a passkey for this wallet.",
  WEBAUTHN_UNSUPPORTED: "This browser cannot use passkeys. Use the email code instead.",
  WEBAUTHN_WRONG_CREDENTIAL: "That passkey belongs to another wallet. Pick this wallet's passkey.",
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: "This passkey is already on the wallet.",
  INSUFFICIENT_FUNDS: "The wallet has too little money. Add test funds, then get a new quote.",
  QUOTE_EXPIRED: "The quote expired before it was signed; nothing was sent. Get a new quote.",
  PAYLOAD_MISMATCH:
    "This device refused to sign: what the server asked it to sign is not what you asked for. Nothing was signed or sent. If it repeats, the app's server may be compromised; stop and tell its operator.",
  QUOTE_ALREADY_EXECUTED: "This quote was already sent. Check the transfer below.",
  NETWORK: "The server did not answer. Check that the demo is still running, then try again.",
  TIMEOUT: "The server took too long. Try again.",
  PROCESSING_TIMEOUT: "The service is still working on it. Wait a moment and try again.",
  RATE_LIMITED: "Too many requests. Wait a minute and try again.",
  UNEXPECTED_STATUS:
    "The server answered in a way the app did not expect. Reload the page and try again.",
  SIGNED_OUT: "Enter your email to sign in to the demo again.",
};

/** `{ what happened, what to do }` for a Signet or demo error. */
export function explain(error: unknown): { code: string; what: string; todo: string } {
  const code =
    typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
      ? error.code
      : "ERROR";
  const what = error instanceof Error ? error.message : "Something went wrong.";
  const todo =
    ADVICE[code] ??
    (error instanceof DemoApiError
      ? "Try again; if it repeats, restart the demo."
      : "Try again. If it keeps failing, reload the page.");
  return { code, what, todo };
}

export function ErrorNote({ error, title }: { error: unknown; title: string }) {
  if (!error) return null;
  const { code, what, todo } = explain(error);
  return (
    <div className="note note-error" role="alert">
      <strong>
        <span aria-hidden="true">⚠ </span>
        {title}
      </strong>
      <p>{todo}</p>
      <p className="muted small">
        {what} <code>{code}</code>
      </p>
    </div>
  );
}

export type Step = { label: string; state: "todo" | "active" | "done" | "failed" };

/** An ordered list of steps; the state is in words as well as colour. */
export function Steps({ steps, label }: { steps: Step[]; label: string }) {
  const words = { todo: "to do", active: "in progress", done: "done", failed: "failed" } as const;
  return (
    <ol className="steps" aria-label={label}>
      {steps.map((step) => (
        <li
          key={step.label}
          className={`step step-${step.state}`}
          aria-current={step.state === "active" ? "step" : undefined}
        >
          <span className="step-mark" aria-hidden="true">
            {step.state === "done"
              ? "✓"
              : step.state === "failed"
                ? "✕"
                : step.state === "active"
                  ? "…"
                  : ""}
          </span>
          <span>{step.label}</span>
          <span className="visually-hidden">({words[step.state]})</span>
        </li>
      ))}
    </ol>
  );
}

/** Seconds left until `until` (RFC 3339 or ms), ticking once a second. */
export function useSecondsLeft(until: string | number | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  if (until === undefined) return undefined;
  const end = typeof until === "number" ? until : Date.parse(until);
  return Math.max(0, Math.round((end - now) / 1000));
}

export const formatSeconds = (s: number) =>
  `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

/** An amount in the currency's smallest unit, shown with its symbol and code: `$25.00 USDB`. */
export function formatMoney(
  amount: number | undefined,
  currency: CurrencyJson | undefined,
): string {
  if (amount === undefined) return "—";
  const decimals = currency?.decimals ?? 2;
  const value = (amount / 10 ** decimals).toLocaleString("en-US", {
    minimumFractionDigits: 2,
    maximumFractionDigits: Math.max(2, decimals),
  });
  return `${currency?.symbol ?? ""}${value} ${currency?.code ?? ""}`.trim();
}

/** Shows what to do instead of a blank page when a screen throws while rendering. */
export class ScreenBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    if (this.state.error)
      return (
        <div className="card">
          <ErrorNote error={this.state.error} title="This screen stopped working" />
          <button
            type="button"
            className="secondary"
            onClick={() => this.setState({ error: null })}
          >
            Try again
          </button>
        </div>
      );
    return this.props.children;
  }
}
