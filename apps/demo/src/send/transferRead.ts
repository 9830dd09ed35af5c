// What a quote's payload would have this device sign, read before the user presses "Sign and
// send", and the screen's own rule for offering that button at all (core checks again itself).
import { type QuoteJson, type QuotePayloadSummary, readQuotePayload } from "@signet/core";

/** The one activity a payment signs: a transaction signature (as the service's Quote shows). */
export const TRANSFER_ACTIVITY = "ACTIVITY_TYPE_SIGN_TRANSACTION_V2";

/** What the quote's payload would have the device sign; undefined when it names no wallet step. */
export function summarise(quote: QuoteJson): QuotePayloadSummary | undefined {
  try {
    return readQuotePayload(quote);
  } catch {
    return undefined;
  }
}

/**
 * Whether the payload reads as a transfer at all: the transfer's activity, nothing else. A
 * raw-payload signature is what a wallet privacy change signs, never a transfer.
 */
export const isTransfer = (summary: QuotePayloadSummary | undefined): boolean =>
  summary?.activityType === TRANSFER_ACTIVITY;

/**
 * "Sign and send" is offered only for a payload this device reads as a transfer and, where its
 * transaction is readable, one that names this quote and carries the amount, currency and payee
 * shown. An opaque transaction (the service's chain bytes) is left to core's check of the quote.
 */
export function payloadMatches(quote: QuoteJson): boolean {
  const signing = summarise(quote);
  if (signing === undefined || !isTransfer(signing)) return false;
  if (!signing.readable) return true;
  const { amount, currency, destination, quoteId } = signing;
  return (
    quoteId === quote.id &&
    (amount === undefined || Number(amount) === quote.totalSendingAmount) &&
    (currency === undefined || currency === quote.sendingCurrency?.code) &&
    (destination === undefined || destination === quote.destination?.accountId)
  );
}
