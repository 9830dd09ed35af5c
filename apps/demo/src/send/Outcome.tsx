// Where the payment ends: settling with a progress bar, then a receipt (amount, payee, fees, time,
// id) and the next step; or the state it ended in, in words.
import type { QuoteJson, TransactionJson } from "@signet/core";
import { readMovement, stateInWords } from "../movements.js";
import { Receipt } from "../Receipt.js";
import { ErrorNote, formatMoney } from "../ui.js";

export function Outcome({
  transaction,
  error,
  quote,
  onAnother,
}: {
  transaction: TransactionJson | undefined;
  error: unknown;
  quote: QuoteJson | undefined;
  onAnother: () => void;
}) {
  const status = transaction?.status;
  const settled = status === "COMPLETED";
  const ended =
    settled || (status !== undefined && status !== "PROCESSING" && status !== "PENDING");
  return (
    <div className="settle" aria-live="polite">
      {!ended && !error && (
        <>
          <label htmlFor="settle-progress">Settling with the bank…</label>
          <progress id="settle-progress" />
        </>
      )}
      {settled && transaction && (
        <>
          <p role="status" className="note note-ok">
            <span aria-hidden="true">✓ </span>
            <strong>
              Payment sent: {formatMoney(quote?.totalSendingAmount, quote?.sendingCurrency)} to Demo
              Payee.
            </strong>{" "}
            Status: <span data-testid="tx-status">{stateInWords(status ?? "")}</span>.
          </p>
          <Receipt movement={readMovement(transaction)} quote={quote} />
          <button type="button" className="secondary" onClick={onAnother}>
            Send another payment
          </button>
        </>
      )}
      {status && ended && !settled && (
        <div role="alert" className="note note-error">
          <p>
            The payment ended as <strong data-testid="tx-status">{stateInWords(status)}</strong>. No
            money left the wallet twice.
          </p>
          <button type="button" className="secondary" onClick={onAnother}>
            Start a new payment
          </button>
        </div>
      )}
      <ErrorNote error={error} title="Could not follow the payment" />
    </div>
  );
}
