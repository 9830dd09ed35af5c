// "This device will sign": read from the quote's payload itself, not from the quote beside it.
import type { QuoteJson, QuotePayloadSummary } from "@signet/core";
import { formatMoney } from "../ui.js";
import { isTransfer, TRANSFER_ACTIVITY } from "./transferRead.js";

/**
 * What each activity is, in words. A raw-payload signature is what a wallet privacy change signs:
 * never a transfer, whatever a quote carrying one says.
 */
const ACTIVITY_NAMES: Record<string, string> = {
  [TRANSFER_ACTIVITY]: "Sign a transfer",
  ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2: "Sign a raw payload (not a transfer)",
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
