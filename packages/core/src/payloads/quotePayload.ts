// docs/protocol.md §11 (quote execute): the payload a wallet-funded quote carries, what the device
// checks in it before signing, and what it can show the user about it beforehand.
import type { SignetClient } from "../client.js";
import { SignetError } from "../errors/errors.js";
import {
  type CheckPayload,
  type Expected,
  expectActivity,
  readActivity,
  readTransaction,
} from "../transport/payloadCheck.js";
import type { QuoteJson } from "../transport/wire.js";

/**
 * The payload to sign of a quote funded by an Embedded Wallet, found by account type (never by index).
 * @throws {SignetError} `INVALID_ARGUMENT` when the quote has no `EMBEDDED_WALLET` instruction.
 */
export function quotePayloadToSign(quote: QuoteJson): string {
  const instruction = quote.paymentInstructions?.find(
    (entry) => entry?.accountOrWalletInfo?.accountType === "EMBEDDED_WALLET",
  );
  const payload = instruction?.accountOrWalletInfo.payloadToSign;
  if (typeof payload !== "string" || payload.length === 0) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"quote" expected an EMBEDDED_WALLET payment instruction with payloadToSign`,
    );
  }
  return payload;
}

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

/** What a quote's payload says it signs, for a confirmation screen. */
export type QuotePayloadSummary = {
  /** `ACTIVITY_TYPE_SIGN_TRANSACTION_V2`, `…_SIGN_RAW_PAYLOAD_V2`, or what the service wrote. */
  activityType: string | undefined;
  /** The enclave wallet that signs (`signWith`). */
  wallet: string | undefined;
  /** Where the transaction is readable: the fields it names. */
  quoteId?: string;
  amount?: string;
  currency?: string;
  destination?: string;
  /** False when the transaction is opaque (the service's chain bytes): only the quote says more. */
  readable: boolean;
};

/**
 * Reads what a quote's `payloadToSign` would have the device sign, so an app can show it before
 * the user confirms (never a substitute for the check `executeQuote` runs itself).
 *
 * @throws {SignetError} `INVALID_ARGUMENT` when the quote has no `EMBEDDED_WALLET` instruction.
 * @example
 * ```ts
 * const { amount, currency, destination } = readQuotePayload(quote);
 * ```
 */
export function readQuotePayload(quote: QuoteJson): QuotePayloadSummary {
  const activity = readActivity(quotePayloadToSign(quote));
  const parameters = activity?.parameters as Record<string, unknown> | undefined;
  const transaction = readTransaction(parameters);
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return {
    activityType: text(activity?.type),
    wallet: text(parameters?.signWith),
    ...(transaction
      ? Object.fromEntries(
          ["quoteId", "amount", "currency", "destination"]
            .filter((name) => ["string", "number"].includes(typeof transaction[name]))
            .map((name) => [name, String(transaction[name])]),
        )
      : {}),
    readable: transaction !== undefined,
  };
}
