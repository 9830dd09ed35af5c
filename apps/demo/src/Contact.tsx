// Contact change: a new email or phone number for the customer, proved by a code sent to it
// first, then signed by the wallet session. Through the PATCH or the contact-change resource, as
// the client's `contactChanges` says (the demo server's DEMO_CONTACT_CHANGES); the resource's
// status is shown as it moves.
import type { ContactChangeStatus } from "@signet/core";
import { useChangeContact } from "@signet/react";
import { type FormEvent, useId, useRef, useState } from "react";
import { DemoApiError, demoApi } from "./demoApi.js";
import { CodeInput, ErrorNote } from "./ui.js";

type Kind = "email" | "phoneNumber";

/** What each state of a contact change means to the user. */
const CHANGE_STATUS: Record<ContactChangeStatus, string> = {
  AWAITING_SIGNATURE: "waiting for this device's signature",
  PROCESSING: "updating…",
  APPLIED: "applied",
  FAILED: "failed; nothing changed",
  EXPIRED: "expired before it was signed; nothing changed",
  CANCELLED: "cancelled; nothing changed",
};

export function Contact({
  customerId,
  accountId,
  email,
  phoneNumber,
  onChanged,
}: {
  customerId: string;
  accountId: string;
  email: string;
  phoneNumber: string | undefined;
  onChanged: () => void;
}) {
  const update = useChangeContact();
  // The contact-change resource's state as last read (resource mode only).
  const [changeStatus, setChangeStatus] = useState<ContactChangeStatus>();
  const [kind, setKind] = useState<Kind>("email");
  const [value, setValue] = useState("");
  // The contact a code was sent to, waiting for that code.
  const [pending, setPending] = useState<{ kind: Kind; value: string }>();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState<"sending" | "checking">();
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<Kind>();
  const [resent, setResent] = useState(false);
  const fieldId = useId();
  const codeId = useId();
  const codeRef = useRef<HTMLInputElement>(null);

  // The same new address or number gets a new code (the old one is used up after five tries).
  const resend = async () => {
    if (!pending) return;
    setBusy("sending");
    setError(null);
    setResent(false);
    try {
      await demoApi.contactStart(
        pending.kind === "email" ? { email: pending.value } : { phoneNumber: pending.value },
      );
      setCode("");
      setResent(true);
      codeRef.current?.focus();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };
  const startOver = () => {
    setPending(undefined);
    setCode("");
    setError(null);
  };
  const sendCode = async (event?: FormEvent) => {
    event?.preventDefault();
    const v = value.trim();
    setBusy("sending");
    setError(null);
    setSaved(undefined);
    setChangeStatus(undefined);
    update.reset();
    try {
      const { sentTo } = await demoApi.contactStart(
        kind === "email" ? { email: v } : { phoneNumber: v },
      );
      setPending({ kind, value: sentTo });
      setCode("");
      setTimeout(() => codeRef.current?.focus(), 0);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };
  const verify = async (digits: string) => {
    if (!pending || busy) return;
    setBusy("checking");
    setError(null);
    setResent(false);
    try {
      const proved = await demoApi.contactVerify(digits);
      // Proved: now the device signs the change.
      const onChange = (change: { status: ContactChangeStatus }) => setChangeStatus(change.status);
      const outcome = await update.mutateAsync(
        proved.kind === "email"
          ? { customerId, accountId, email: proved.value, onChange }
          : { customerId, accountId, phoneNumber: proved.value, onChange },
      );
      if (outcome.status !== "APPLIED") {
        // A change that ended otherwise changed nothing: its status says why, below.
        setCode("");
        return;
      }
      setSaved(proved.kind);
      setPending(undefined);
      setValue("");
      setCode("");
      onChanged();
    } catch (e) {
      // The update's own error shows below; a wrong code shows here.
      if (e instanceof DemoApiError) setError(e);
      setCode("");
    } finally {
      setBusy(undefined);
    }
  };

  const changed = update.data?.via === "resource" ? update.data.change : undefined;
  const currentEmail =
    (update.data?.via === "patch" ? update.data.customer.email : undefined) ??
    (changed?.status === "APPLIED" && changed.type === "EMAIL" ? changed.value : undefined) ??
    email;
  const currentPhone =
    (update.data?.via === "patch" ? update.data.customer.phoneNumber : undefined) ??
    (changed?.status === "APPLIED" && changed.type === "PHONE" ? changed.value : undefined) ??
    phoneNumber;
  return (
    <section className="card" aria-labelledby="contact-title">
      <h1 id="contact-title">Contact details</h1>
      <p className="muted">
        Current email: <strong>{currentEmail}</strong>
        {" · "}phone: <strong>{currentPhone ?? "none yet"}</strong>
      </p>
      {!pending ? (
        <form onSubmit={sendCode} className="stack">
          <fieldset className="row">
            <legend>Change</legend>
            <label className="radio">
              <input
                type="radio"
                name="kind"
                checked={kind === "email"}
                onChange={() => setKind("email")}
              />{" "}
              Email
            </label>
            <label className="radio">
              <input
                type="radio"
                name="kind"
                checked={kind === "phoneNumber"}
                onChange={() => setKind("phoneNumber")}
              />{" "}
              Phone
            </label>
          </fieldset>
          <label htmlFor={fieldId}>
            {kind === "email"
              ? "New email"
              : "New phone number (with country code, e.g. +14155550123)"}
          </label>
          <input
            id={fieldId}
            // Text, not "email": the browser's check refuses accents (zoë@…) the service takes.
            type={kind === "email" ? "text" : "tel"}
            inputMode={kind === "email" ? "email" : "tel"}
            autoComplete={kind === "email" ? "email" : "tel"}
            maxLength={kind === "email" ? 254 : 24}
            required
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
          <p className="hint">
            We send a code to the new {kind === "email" ? "address" : "number"} first; it is linked
            only once you enter that code.
          </p>
          <button type="submit" className="primary" disabled={busy !== undefined}>
            {busy === "sending" ? "Sending…" : "Send a code"}
          </button>
        </form>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void verify(code);
          }}
          className="stack"
        >
          <label htmlFor={codeId}>Code sent to {pending.value}</label>
          <CodeInput
            id={codeId}
            inputRef={codeRef}
            value={code}
            onChange={setCode}
            onComplete={(digits) => void verify(digits)}
            describedBy={`${codeId}-hint`}
          />
          <p id={`${codeId}-hint`} className="hint">
            The demo sends nothing; its code is <code>000000</code>. The sixth digit sends it.
          </p>
          <div className="row wrap">
            <button type="submit" className="primary" disabled={busy !== undefined}>
              {busy === "checking" ? "Checking…" : "Verify and save"}
            </button>
            <button
              type="button"
              className="link"
              disabled={busy !== undefined}
              onClick={() => void resend()}
            >
              {busy === "sending" ? "Sending…" : "Send a new code"}
            </button>
            <button type="button" className="link" onClick={startOver}>
              Use another {pending.kind === "email" ? "address" : "number"}
            </button>
          </div>
          {resent && !error && (
            <p role="status" className="note note-ok">
              A new code was sent to {pending.value}. Enter it above.
            </p>
          )}
        </form>
      )}
      {changeStatus && (
        <p role="status" className="muted" data-testid="contact-change-status">
          Contact change: <strong>{CHANGE_STATUS[changeStatus]}</strong>
          {changed?.status === "FAILED" && changed.failureReason
            ? ` (${changed.failureReason})`
            : ""}
        </p>
      )}
      {saved && (
        <p role="status" className="note note-ok">
          Saved and verified. Sign-in codes now go to the new{" "}
          {saved === "email" ? "address" : "number"}.
        </p>
      )}
      <ErrorNote
        error={error}
        title="That did not work"
        advice={{
          WRONG_CODE: "Check the code and type it again, or press “Send a new code”.",
          TOO_MANY_CODES: "Press “Send a new code”, then enter the new one.",
          NO_CODE_PENDING: "Press “Send a new code”, then enter the new one.",
        }}
      />
      <ErrorNote error={update.error} title="Could not change the contact details" />
    </section>
  );
}
