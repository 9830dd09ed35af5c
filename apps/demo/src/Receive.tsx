// Receive: what someone needs to pay into this wallet, from the service's account details.
import { useEffect, useState } from "react";
import { type DemoReceive, demoApi } from "./demoApi.js";
import { ErrorNote } from "./ui.js";

/** Field names of payment instructions, in words (others are shown as the service names them). */
const FIELD_NAMES: Record<string, string> = {
  accountType: "Type",
  accountNumber: "Account number",
  routingNumber: "Routing number",
  iban: "IBAN",
  bic: "BIC",
  address: "Address",
  network: "Network",
  bankName: "Bank",
  beneficiaryName: "Beneficiary",
};

export function Receive() {
  const [details, setDetails] = useState<DemoReceive>();
  const [error, setError] = useState<unknown>(null);
  const [copied, setCopied] = useState<string>();
  useEffect(() => {
    demoApi.receive().then(setDetails, setError);
  }, []);
  const copy = (label: string, text: string) => {
    navigator.clipboard?.writeText(text).then(
      () => setCopied(label),
      () => setCopied(undefined),
    );
  };
  const rows: Array<[string, string]> = details
    ? [
        ["Wallet", details.accountId],
        ["Holder", details.holder],
        ...(details.currency
          ? ([["Currency", details.currency.code]] as Array<[string, string]>)
          : []),
        ...(details.instructions ?? []).flatMap((instruction) =>
          Object.entries(instruction.accountOrWalletInfo ?? {})
            .filter(
              ([key, v]) =>
                key !== "payloadToSign" && (typeof v === "string" || typeof v === "number"),
            )
            .map(([key, v]) => [FIELD_NAMES[key] ?? key, String(v)] as [string, string]),
        ),
      ]
    : [];

  return (
    <section className="card" aria-labelledby="receive-title">
      <h1 id="receive-title">Receive money</h1>
      <p className="muted">
        Give these details to whoever pays you. In the demo, "Add test funds" on Send money does it.
      </p>
      <ErrorNote error={error} title="Could not load the wallet's details" />
      {!details && !error && <p aria-live="polite">Loading…</p>}
      {details && (
        <dl className="details" aria-label="Wallet details">
          {rows.map(([label, text]) => (
            <div key={`${label}-${text}`} className="detail">
              <dt>{label}</dt>
              <dd>
                <code>{text}</code>{" "}
                <button
                  type="button"
                  className="link"
                  aria-label={`Copy ${label}`}
                  onClick={() => copy(label, text)}
                >
                  Copy
                </button>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {copied && (
        <p role="status" className="muted small">
          {copied} copied.
        </p>
      )}
    </section>
  );
}
