// "This device will sign": read from the quote's payload itself, not from the quote beside it.
import { type QuoteJson, type QuotePayloadSummary, readQuotePayload } from "@signet/core";
import { formatMoney } from "../ui.js";

/** What the quote's payload would have the device sign; undefined when it names no wallet step. */
export function summarise(quote: QuoteJson): QuotePayloadSummary | undefined {
  try {
    return readQuotePayload(quote);
  } catch {
    return undefined;
  }
}

const ACTIVITY_NAMES: Record<string, string> = {
  ACTIVITY_TYPE_SIGN_TRANSACTION_V2: "Sign a transfer",
  ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2: "Sign a transfer (raw payload)",
};

export function SigningSummary({
  summary,
  quote,
}: {
  summary: QuotePayloadSummary | undefined;
  quote: QuoteJson;
}) {
  if (summary === undefined) return null;
  const amount = summary.amount !== undefined ? Number(summary.amount) : undefined;
  const currency =
    summary.currency === quote.sendingCurrency?.code
      ? quote.sendingCurrency
      : { code: summary.currency ?? "", decimals: quote.sendingCurrency?.decimals ?? 2 };
  return (
    <section className="signing" aria-label="What this device will sign" data-testid="signing">
      <h2 className="small">This device will sign</h2>
      <dl>
        <dt>Action</dt>
        <dd>
          {ACTIVITY_NAMES[summary.activityType ?? ""] ??
            "A kind of signature this app does not name"}
        </dd>
        <dt>From wallet</dt>
        <dd>
          <code>{summary.wallet ?? "—"}</code>
        </dd>
        {summary.readable ? (
          <>
            <dt>Amount</dt>
            <dd data-testid="signing-amount">
              {amount !== undefined && Number.isSafeInteger(amount)
                ? formatMoney(amount, currency)
                : "—"}
            </dd>
            <dt>To</dt>
            <dd>
              <code>{summary.destination ?? "—"}</code>
            </dd>
            <dt>Quote</dt>
            <dd>
              <code>{summary.quoteId ?? "—"}</code>
            </dd>
          </>
        ) : (
          <>
            <dt>Details</dt>
            <dd>Not readable on this device; the quote above is what the service will execute.</dd>
          </>
        )}
      </dl>
    </section>
  );
}
