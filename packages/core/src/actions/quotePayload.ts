// docs/protocol.md §11 (quote execute): the payload a wallet-funded quote carries, what the device
// checks in it before signing, and what it can show the user about it beforehand.
import type { SignetClient } from "../client.js";
import { SignetError } from "../errors.js";
import {
  type CheckPayload,
  expectActivity,
  MAX_PAYLOAD_AGE_MS,
  readActivity,
  readTransaction,
} from "../transport/payloadCheck.js";
import type { QuoteJson } from "../wire.js";

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

/**
 * What executing a quote signs (docs/protocol.md §11): a transaction signature
 * (`ACTIVITY_TYPE_SIGN_TRANSACTION_V2` or `_SIGN_RAW_PAYLOAD_V2`) made while the quote was alive, for
 * the wallet this account signed with before. Where the transaction is readable (the emulator's
 * `unsignedTransaction` is hex of UTF-8 JSON naming the quote, amount, currency and destination),
 * each field it names must be the quote the app passed and showed; an opaque transaction (the
 * service's hashes) binds only as far as the rest does.
 */
export function executeQuotePayload(client: SignetClient, quote: QuoteJson): CheckPayload {
  const expiresAt = Date.parse(quote.expiresAt ?? "");
  const createdAt = Date.parse(quote.createdAt ?? "");
  return expectActivity(client, quote.source?.accountId ?? "", [
    {
      types: ["ACTIVITY_TYPE_SIGN_TRANSACTION_V2", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2"],
      window: {
        from: Number.isFinite(createdAt) ? createdAt : expiresAt - MAX_PAYLOAD_AGE_MS,
        to: expiresAt,
      },
      transaction: {
        quoteId: quote.id,
        amount:
          quote.totalSendingAmount === undefined ? undefined : String(quote.totalSendingAmount),
        currency: quote.sendingCurrency?.code,
        destination: quote.destination?.accountId,
      },
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
            .filter((name) => typeof transaction[name] === "string")
            .map((name) => [name, transaction[name]]),
        )
      : {}),
    readable: transaction !== undefined,
  };
}
