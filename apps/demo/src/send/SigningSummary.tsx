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

/** The one activity a payment signs: a transaction signature (as the service's Quote shows). */
export const TRANSFER_ACTIVITY = "ACTIVITY_TYPE_SIGN_TRANSACTION_V2";

/**
 * What each activity is, in words. A raw-payload signature is what a wallet privacy change signs:
 * never a transfer, whatever a quote carrying one says.
 */
const ACTIVITY_NAMES: Record<string, string> = {
  [TRANSFER_ACTIVITY]: "Sign a transfer",
  ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2: "Sign a raw payload (not a transfer)",
};

/** Whether the payload reads as a transfer at all: the transfer's activity, nothing else. */
export const isTransfer = (summary: QuotePayloadSummary | undefined): boolean =>
  summary?.activityType === TRANSFER_ACTIVITY;

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
        {!isTransfer(summary) ? (
          <>
            <dt>Details</dt>
            <dd data-testid="not-a-transfer">
              Not a transfer: this device will not sign it as a payment.
            </dd>
          </>
        ) : summary.readable ? (
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
