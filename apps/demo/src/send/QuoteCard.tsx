// The quote: what is sent, the fees, what the payee receives, how long it stays valid, and what
// this device will sign, with the reasons it cannot be sent (more than the balance, expired, or no
// longer the amount typed), then "Sign and send".
import type { QuoteJson } from "@signet/core";
import { formatMoney } from "../ui.js";
import { SigningSummary, summarise } from "./SigningSummary.js";

export type QuoteProblems = { stale: boolean; expired: boolean; overBalance: boolean };

export function QuoteDetails({
  quote,
  secondsLeft,
}: {
  quote: QuoteJson;
  /** Shown while the quote can still be sent. */
  secondsLeft: number | undefined;
}) {
  return (
    <dl>
      <dt>You send</dt>
      <dd>{formatMoney(quote.totalSendingAmount, quote.sendingCurrency)}</dd>
      <dt>Fees</dt>
      <dd>{formatMoney(quote.feesIncluded ?? 0, quote.sendingCurrency)}</dd>
      <dt>They receive</dt>
      <dd>{formatMoney(quote.totalReceivingAmount, quote.receivingCurrency)}</dd>
      {secondsLeft !== undefined && (
        <>
          <dt>Quote valid for</dt>
          <dd>{secondsLeft === 0 ? "expired" : `${secondsLeft} s`}</dd>
        </>
      )}
    </dl>
  );
}

/** The screen's own rule, beside core's: the payload must carry the amount and quote shown. */
export function payloadMatches(quote: QuoteJson): boolean {
  const signing = summarise(quote);
  if (signing === undefined) return false;
  // An opaque transaction (the service's chain bytes) is left to core's check of the quote.
  if (!signing.readable) return true;
  return (
    (signing.amount === undefined || signing.amount === String(quote.totalSendingAmount)) &&
    (signing.quoteId === undefined || signing.quoteId === quote.id)
  );
}

export function QuoteActions({
  quote,
  problems,
  balanceText,
  scaHint,
  sending,
  stage,
  failed,
  onSend,
  onRequote,
  requoting,
}: {
  quote: QuoteJson;
  problems: QuoteProblems;
  balanceText: string;
  scaHint: string | undefined;
  sending: boolean;
  stage: string | undefined;
  failed: boolean;
  onSend: () => void;
  onRequote: () => void;
  requoting: boolean;
}) {
  const signing = summarise(quote);
  const matches = payloadMatches(quote);
  const { stale, expired, overBalance } = problems;
  return (
    <>
      <SigningSummary summary={signing} quote={quote} />
      {signing !== undefined && !matches && (
        <p className="note note-error" role="alert" data-testid="payload-differs">
          What this device would sign does not match the quote shown, so it will not sign it. Get a
          new quote.
        </p>
      )}
      {stale && !sending && (
        <p className="note note-error" role="alert">
          This quote is for a different amount than you typed. Get a new quote.
        </p>
      )}
      {overBalance && !expired && (
        <div className="note note-error" role="alert" data-testid="over-balance">
          <strong>More than the wallet holds.</strong>
          <p>
            This quote needs {formatMoney(quote.totalSendingAmount, quote.sendingCurrency)}, and the
            wallet has {balanceText}. Add test funds or lower the amount, then get a new quote.
            Nothing was signed.
          </p>
        </div>
      )}
      {scaHint && <p className="hint">{scaHint}</p>}
      {expired && !sending ? (
        <>
          <p className="note" role="status">
            This quote expired before it was sent. Nothing was signed.
          </p>
          <button type="button" className="primary" disabled={requoting} onClick={onRequote}>
            Get a new quote
          </button>
        </>
      ) : (
        <button
          type="button"
          className="primary"
          disabled={sending || failed || expired || stale || overBalance || !matches}
          onClick={onSend}
        >
          {sending ? `Sending… (${stageWords(stage)})` : "Sign and send"}
        </button>
      )}
    </>
  );
}

/** The signed request's stage, in words. */
function stageWords(stage: string | undefined): string {
  switch (stage) {
    case "challenge":
      return "asking what to sign";
    case "signing":
      return "signing on this device";
    case "submitting":
    case "processing":
      return "sending";
    case "done":
      return "sent";
    default:
      return "starting";
  }
}
