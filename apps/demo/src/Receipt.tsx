// A receipt: what was paid, to whom, the fees, when and its id. Opens after a payment settles and
// from any Activity row; the fees come from the quote the payment was made from.
import type { QuoteJson } from "@signet/core";
import { skipToken, useQuote } from "@signet/react";
import { useState } from "react";
import { type Movement, PAYEE, stateInWords } from "./movements.js";
import { formatMoney } from "./ui.js";

/** A moment in full: `27 Nov 2026, 14:05:12`. */
export const fullTime = (iso: string | undefined) => {
  if (!iso) return "—";
  const at = new Date(iso);
  return Number.isNaN(at.getTime())
    ? "—"
    : at.toLocaleString([], { dateStyle: "medium", timeStyle: "medium" });
};

export function Receipt({
  movement,
  quote,
}: {
  movement: Movement;
  quote?: QuoteJson | undefined;
}) {
  // The quote carries the fees; a payment listed in Activity reads its own.
  const read = useQuote(
    quote === undefined && movement.quoteId ? { quoteId: movement.quoteId } : skipToken,
  );
  const source = quote ?? read.data;
  const [copied, setCopied] = useState(false);
  const out = movement.direction === "out";
  const amount = out ? movement.sent : movement.received;
  return (
    <section className="receipt" aria-label="Receipt" data-testid="receipt">
      <dl>
        <dt>{out ? "You sent" : "You received"}</dt>
        <dd data-testid="receipt-amount">{formatMoney(amount?.amount, amount?.currency)}</dd>
        {out && (
          <>
            <dt>To</dt>
            <dd>{PAYEE}</dd>
            <dt>They receive</dt>
            <dd>{formatMoney(movement.received?.amount, movement.received?.currency)}</dd>
          </>
        )}
        {!out && (
          <>
            <dt>From</dt>
            <dd>Test funds (sandbox)</dd>
          </>
        )}
        <dt>Fees</dt>
        <dd data-testid="receipt-fees">
          {source
            ? formatMoney(source.feesIncluded ?? 0, source.sendingCurrency)
            : out
              ? "…"
              : formatMoney(0, amount?.currency)}
        </dd>
        <dt>Status</dt>
        <dd>{stateInWords(movement.status)}</dd>
        <dt>{movement.settledAt ? "Settled" : "Started"}</dt>
        <dd>
          <time dateTime={movement.settledAt ?? movement.createdAt}>
            {fullTime(movement.settledAt ?? movement.createdAt)}
          </time>
        </dd>
        <dt>Transaction</dt>
        <dd>
          <code>{movement.id}</code>{" "}
          <button
            type="button"
            className="link"
            aria-label="Copy the transaction id"
            onClick={() =>
              navigator.clipboard?.writeText(movement.id).then(
                () => setCopied(true),
                () => undefined,
              )
            }
          >
            {copied ? "Copied" : "Copy"}
          </button>
        </dd>
      </dl>
    </section>
  );
}
