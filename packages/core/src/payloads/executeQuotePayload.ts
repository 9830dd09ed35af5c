// docs/protocol.md §11 (quote execute): what the device checks in a wallet-funded quote's payload
// before signing it. A module apart from ./quotePayload.ts, whose readers the entries export: the
// check is only executeQuote's (a lazy chunk) and the frame's.
import type { SignetClient } from "../client.js";
import { type CheckPayload, type Expected, expectActivity } from "../transport/payloadCheck.js";
import type { QuoteJson } from "../transport/wire.js";

/** The activity type of a quote's payload: a transaction signature (the Quote schema's example). */
const TRANSFER_ACTIVITY = "ACTIVITY_TYPE_SIGN_TRANSACTION_V2";

/**
 * What executing a quote signs (docs/protocol.md §11): a transaction signature
 * (`ACTIVITY_TYPE_SIGN_TRANSACTION_V2`, as the service's Quote example shows; a raw-payload
 * signature, the documented shape of a privacy change, is never taken for a transfer), whose
 * `signWith` is the one this account's transfers used before. Any quote id the payload names is
 * this quote's. Where the transaction is readable (the emulator's `unsignedTransaction` is hex of
 * UTF-8 JSON naming the quote, source, amount, currency and destination), it must name this quote,
 * and each other field it names must be the quote the app passed and showed (amounts as a number
 * or a decimal string); an opaque transaction (the service's chain bytes) binds only as far as the
 * rest does.
 */
export function executeQuotePayload(client: SignetClient, quote: QuoteJson): CheckPayload {
  const where: Record<string, Expected> = {};
  if (quote.totalSendingAmount !== undefined)
    where.amount = { as: "amount", value: quote.totalSendingAmount };
  if (quote.sendingCurrency?.code)
    where.currency = { as: "text", value: quote.sendingCurrency.code };
  if (quote.destination?.accountId)
    where.destination = { as: "text", value: quote.destination.accountId };
  if (quote.source?.accountId) where.from = { as: "text", value: quote.source.accountId };
  return expectActivity(client, quote.source?.accountId ?? "", [
    {
      types: [TRANSFER_ACTIVITY],
      signer: "transfer",
      ownIds: { Quote: [quote.id] },
      transaction: { equals: { quoteId: { as: "text", value: quote.id } }, where },
    },
  ]);
}
