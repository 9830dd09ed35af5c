// Contact change: a new email or phone number for the customer, signed by the wallet session.
import { useUpdateCustomerContact } from "@signet/react";
import { type FormEvent, useId, useState } from "react";
import { ErrorNote } from "./ui.js";

export function Contact({
  customerId,
  accountId,
  email,
}: {
  customerId: string;
  accountId: string;
  email: string;
}) {
  const update = useUpdateCustomerContact();
  const [kind, setKind] = useState<"email" | "phoneNumber">("email");
  const [value, setValue] = useState("");
  const fieldId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const v = value.trim();
    update.mutate(
      kind === "email"
        ? { customerId, accountId, email: v }
        : { customerId, accountId, phoneNumber: v },
    );
  };
  return (
    <section className="card" aria-labelledby="contact-title">
      <h1 id="contact-title">Contact details</h1>
      <p className="muted">
        Current email: <strong>{update.data?.email ?? email}</strong>
        {update.data?.phoneNumber ? (
          <>
            {" "}
            · phone: <strong>{update.data.phoneNumber}</strong>
          </>
        ) : null}
      </p>
      <form onSubmit={submit} className="stack">
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
          {kind === "email" ? "New email" : "New phone number (E.164, e.g. +14155550123)"}
        </label>
        <input
          id={fieldId}
          type={kind === "email" ? "email" : "tel"}
          autoComplete={kind === "email" ? "email" : "tel"}
          required
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" className="primary" disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save"}
        </button>
      </form>
      {update.isSuccess && (
        <p role="status" className="note note-ok">
          Saved. Sign-in codes now go to the new {kind === "email" ? "address" : "number"}.
        </p>
      )}
      <ErrorNote error={update.error} title="Could not change the contact details" />
    </section>
  );
}
