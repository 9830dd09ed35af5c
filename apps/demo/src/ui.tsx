// Small pieces every screen uses: error notes that say what to do, step progress, countdowns.
import type { CurrencyJson } from "@signet/core";
import { Component, type ReactNode, useEffect, useRef, useState } from "react";
import { adviceFor, FRAME_REFUSALS } from "./advice.js";
import { DemoApiError, DemoInputError } from "./demoApi.js";

/** The reason a signer frame's refusal gives (`details.reason`), when it is a string. */
export function frameReason(error: unknown): string | undefined {
  const details = (error as { details?: unknown } | null)?.details;
  const reason = (details as { reason?: unknown } | null | undefined)?.reason;
  return typeof reason === "string" ? reason : undefined;
}

/** `{ code, what happened (when it is in the user's words), what to do }` for any error. */
export function explain(error: unknown): { code: string; what: string | undefined; todo: string } {
  const code =
    typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
      ? error.code
      : "ERROR";
  // The signer frame says why it refused (`details.reason`): each reason in the demo's words.
  const refusal = code === "FRAME_REFUSED" ? FRAME_REFUSALS[frameReason(error) ?? ""] : undefined;
  if (refusal) return { code, ...refusal };
  // The demo's own messages are written for the user; the service's and core's are not shown.
  const what =
    error instanceof DemoApiError || error instanceof DemoInputError ? error.message : undefined;
  return { code, what, todo: adviceFor(code) };
}

/**
 * An error with what to do about it, in plain words: no code or service wording on screen (the
 * code stays in `data-code`). `advice` overrides the advice for some codes where the screen knows
 * better (after wrong codes, "Send a new code" is the way out). It scrolls itself into view.
 */
export function ErrorNote({
  error,
  title,
  advice,
}: {
  error: unknown;
  title: string;
  advice?: Record<string, string>;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) ref.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, [error]);
  if (!error) return null;
  const explained = explain(error);
  const { code, what } = explained;
  const todo = advice?.[code] ?? explained.todo;
  return (
    <div
      className="note note-error"
      role="alert"
      ref={ref}
      data-code={code}
      data-reason={code === "FRAME_REFUSED" ? frameReason(error) : undefined}
    >
      <strong>
        <span aria-hidden="true">⚠ </span>
        {title}
      </strong>
      {what && <p>{what}</p>}
      <p>{todo}</p>
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

/**
 * Whole seconds left until `until` (RFC 3339 or ms), ticking once a second. Rounded down, and
 * measured from now when `until` changes, so a minute shows as 60 s, never 61.
 */
export function useSecondsLeft(until: string | number | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  const [seen, setSeen] = useState(until);
  // A new deadline: the clock reads the time now, not the last tick's.
  let current = now;
  if (seen !== until) {
    current = Date.now();
    setSeen(until);
    setNow(current);
  }
  useEffect(() => {
    if (until === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [until]);
  if (until === undefined) return undefined;
  const end = typeof until === "number" ? until : Date.parse(until);
  return Math.max(0, Math.floor((end - current) / 1000));
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

/**
 * An amount as people type it, in the currency's smallest unit: `12.50`, `12,50` (a decimal
 * comma, as in most of the EU), `1,234.50`, `1.234,50`, ` 12 ` all read; `undefined` when it is
 * not an amount or has more decimals than the currency.
 */
export function parseAmount(typed: string, decimals: number): number | undefined {
  const text = typed.replace(/[\s\u00a0\u202f']/g, "");
  if (!/^[0-9]*([.,][0-9]*)*$/.test(text) || !/[0-9]/.test(text)) return undefined;
  const dots = text.split(".").length - 1;
  const commas = text.split(",").length - 1;
  // The decimal mark: the last of two kinds (`1.234,50`), or a lone one not followed by a group
  // of three digits (`12,50`, `12.5`; `1,000` is a thousand). Every other mark groups thousands.
  let mark: string | undefined;
  if (dots > 0 && commas > 0) mark = text.lastIndexOf(".") > text.lastIndexOf(",") ? "." : ",";
  else if (dots + commas === 1) {
    const lone = dots ? "." : ",";
    if (text.length - text.indexOf(lone) - 1 !== 3) mark = lone;
  }
  const [whole = "", fraction = "", ...rest] = mark ? text.split(mark) : [text];
  if (rest.length > 0) return undefined;
  const digits = whole.replace(/[.,]/g, "");
  if (fraction.length > decimals || /[.,]/.test(fraction)) return undefined;
  const units =
    Number(digits || "0") * 10 ** decimals + Number(fraction.padEnd(decimals, "0") || "0");
  return Number.isSafeInteger(units) ? units : undefined;
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

/** The digits of a typed or pasted code (`"000 000"`, `"123-456"`), at most `length`. */
export const codeDigits = (typed: string, length = 6) => typed.replace(/\D/g, "").slice(0, length);

/**
 * A one-time code field: pasting `"000 000"` keeps all six digits (spaces and dashes dropped),
 * and the sixth digit submits the code (`onComplete`) without a tap on the button.
 */
export function CodeInput({
  id,
  value,
  onChange,
  onComplete,
  describedBy,
  inputRef,
}: {
  id: string;
  value: string;
  onChange: (digits: string) => void;
  onComplete?: (digits: string) => void;
  describedBy?: string;
  inputRef?: React.Ref<HTMLInputElement>;
}) {
  return (
    <input
      id={id}
      ref={inputRef}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      required
      value={value}
      aria-describedby={describedBy}
      onChange={(e) => {
        const digits = codeDigits(e.target.value);
        onChange(digits);
        if (digits.length === 6 && digits !== value) onComplete?.(digits);
      }}
    />
  );
}

/** What the service calls a credential or session type, in the user's words. */
export const METHOD_NAMES: Record<string, string> = {
  EMAIL_OTP: "Email code",
  SMS_OTP: "SMS code",
  PASSKEY: "Passkey",
  OAUTH: "Google login",
};
export const methodName = (type: string) => METHOD_NAMES[type] ?? "Other sign-in method";

// Tabs of this browser tell each other when the wallet's sessions or sign-in methods changed, so
// a list in another tab never stays stale (BroadcastChannel: same origin only, no content).
type Changed = "sessions" | "credentials";
const channel =
  typeof BroadcastChannel === "undefined" ? undefined : new BroadcastChannel("signet-demo");

export function announceChange(what: Changed): void {
  channel?.postMessage(what);
}

/**
 * Refetches when another tab announces a change to `what`, and whenever this tab comes back into
 * view (a change made on another device is seen then).
 */
export function useFreshList(what: Changed, refetch: () => unknown): void {
  const latest = useRef(refetch);
  latest.current = refetch;
  useEffect(() => {
    const again = () => void latest.current();
    const onMessage = (event: MessageEvent) => {
      if (event.data === what) again();
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") again();
    };
    channel?.addEventListener("message", onMessage);
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("focus", again);
    return () => {
      channel?.removeEventListener("message", onMessage);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("focus", again);
    };
  }, [what]);
}

/**
 * A destructive button that asks first: the first press shows what will happen with "Yes" and
 * "Cancel" beside it; only "Yes" acts.
 */
export function ConfirmButton({
  label,
  ariaLabel,
  question,
  confirmLabel,
  disabled,
  onConfirm,
}: {
  label: string;
  ariaLabel: string;
  question: string;
  confirmLabel: string;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const yesRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yesRef.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button
        type="button"
        className="danger"
        disabled={disabled}
        aria-label={ariaLabel}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  return (
    <fieldset className="confirm">
      <legend className="small">{question}</legend>
      <div className="row">
        <button
          type="button"
          className="danger"
          ref={yesRef}
          disabled={disabled}
          onClick={() => {
            setAsking(false);
            onConfirm();
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" className="secondary" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}

/** A short "when" for lists: `today 14:05`, or the date. */
export function when(iso: string | undefined): string {
  if (!iso) return "—";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "—";
  const sameDay = at.toDateString() === new Date().toDateString();
  return sameDay
    ? `today ${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`
    : at.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}
