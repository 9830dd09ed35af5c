// Receive: what someone needs to pay into this wallet, from the service's account details, in
// words, with a QR code of the address to scan from another wallet.
import { useEffect, useState } from "react";
import { type DemoReceive, demoApi } from "./demoApi.js";
import { QrCode } from "./Qr.js";
import { ErrorNote } from "./ui.js";

/** Field names of payment instructions, in words (a field not named here is not shown). */
const FIELD_NAMES: Record<string, string> = {
  accountType: "Kind",
  assetType: "Currency",
  address: "Address",
  accountNumber: "Account number",
  routingNumber: "Routing number",
  iban: "IBAN",
  bic: "BIC",
  network: "Network",
  bankName: "Bank",
  beneficiaryName: "Beneficiary",
  reference: "Reference",
};

/** The service's kinds of account, in words. */
const KINDS: Record<string, string> = {
  SPARK_WALLET: "Spark wallet",
  USD_ACCOUNT: "US bank account",
  EMBEDDED_WALLET: "Embedded wallet",
};

type Row = { label: string; text: string; copy: boolean };

function rowsOf(details: DemoReceive): Row[] {
  const rows: Row[] = [
    { label: "Holder", text: details.holder, copy: true },
    { label: "Wallet", text: details.accountId, copy: true },
  ];
  for (const instruction of details.instructions ?? [])
    for (const [key, value] of Object.entries(instruction.accountOrWalletInfo ?? {})) {
      const label = FIELD_NAMES[key];
      if (!label || (typeof value !== "string" && typeof value !== "number")) continue;
      const text = key === "accountType" ? (KINDS[String(value)] ?? "Account") : String(value);
      rows.push({ label, text, copy: key !== "accountType" });
    }
  return rows;
}

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
  const rows = details ? rowsOf(details) : [];
  // What a paying wallet scans: the address, else the account number, else the wallet's id.
  const scan =
    rows.find((r) => r.label === "Address")?.text ??
    rows.find((r) => r.label === "Account number")?.text ??
    details?.accountId;

  return (
    <section className="card" aria-labelledby="receive-title">
      <h1 id="receive-title">Receive money</h1>
      <p className="muted">
        Give these details to whoever pays you, or let their wallet scan the code. In the demo, "Add
        test funds" on Send money does it.
      </p>
      <ErrorNote error={error} title="Could not load the wallet's details" />
      {!details && !error && <p aria-live="polite">Loading…</p>}
      {scan && <QrCode text={scan} label={`QR code of this wallet's address: ${scan}`} />}
      {details && (
        <dl className="details" aria-label="Wallet details">
          {rows.map(({ label, text, copy: copyable }) => (
            <div key={`${label}-${text}`} className="detail">
              <dt>{label}</dt>
              <dd>
                <code>{text}</code>{" "}
                {copyable && (
                  <button
                    type="button"
                    className="link"
                    aria-label={`Copy ${label}`}
                    onClick={() => copy(label, text)}
                  >
                    Copy
                  </button>
                )}
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
