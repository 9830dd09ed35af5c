// docs/protocol.md §11 (quote execute): the payload a wallet-funded quote carries, and what the
// device can show the user about it beforehand (what it checks before signing is
// ./executeQuotePayload.ts, which only executeQuote and the frame's rules load).
import { SignetError } from "../errors/errors.js";
import { readActivity, readTransaction } from "../transport/payloadCheck.js";
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
