// A quote as the service shows it and moves it (docs/protocol.md §2–§3, §12): its JSON (the
// EMBEDDED_WALLET instruction deliberately not the first one), its 404, `GET /quotes/{id}`, and the
// transfer an executed or funded quote starts. Each other route of a quote is a module of its own
// beside this one (./index.ts lists them).
import { isoTime } from "../../clock.js";
import { pathId, type RequestContext } from "../../http/context.js";
import { ServiceError } from "../../http/errors.js";
import { json } from "../../http/responses.js";
import type { Route } from "../../http/router.js";
import type { Runtime } from "../../runtime.js";
import type { BalanceAccount, QuoteRecord, TransactionRecord } from "../../state.js";
import { fundingInstruction, sparkAddress } from "../accounts/account.js";
import { scaChallengeJson } from "../sca.js";
import { settleDueTransactions } from "../transactions.js";

/** A currency code as the service's requests write it. */
export const CURRENCY_CODE = /^[A-Z]{3,5}$/;

/** 404 `QUOTE_NOT_FOUND`. */
export function quoteNotFound(quoteId: string): ServiceError {
  return new ServiceError(404, "QUOTE_NOT_FOUND", "Quote not found.", { id: quoteId });
}

/** The Quote JSON; the EMBEDDED_WALLET instruction is deliberately not the first one. */
export function quoteJson(rt: Runtime, quote: QuoteRecord): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: quote.id,
    status: quote.status,
    createdAt: isoTime(quote.createdAt),
    expiresAt: isoTime(quote.expiresAt),
    source: quote.source,
    destination: quote.destination,
    sendingCurrency: quote.sendingCurrency,
    receivingCurrency: quote.receivingCurrency,
    totalSendingAmount: quote.totalSendingAmount,
    totalReceivingAmount: quote.totalReceivingAmount,
    exchangeRate: quote.exchangeRate,
    feesIncluded: 0,
    platformFeesIncluded: 0,
  };
  if (quote.description !== undefined) body.description = quote.description;
  if (quote.transactionId) body.transactionId = quote.transactionId;
  if (quote.status === "PENDING_AUTHORIZATION" && quote.sca) {
    body.scaChallenge = scaChallengeJson(rt, quote.sca.challenge);
  }
  if (quote.funding === "WALLET") {
    body.paymentInstructions = [
      {
        instructionsNotes: "Emulated Spark settlement of the wallet transfer.",
        accountOrWalletInfo: {
          accountType: "SPARK_WALLET",
          assetType: quote.sendingCurrency.code,
          address: sparkAddress(quote.sourceAccountId),
        },
      },
      {
        instructionsNotes: "Stamp payloadToSign with a wallet session key and execute the quote.",
        accountOrWalletInfo: { accountType: "EMBEDDED_WALLET", payloadToSign: quote.payloadToSign },
      },
    ];
  } else if (quote.funding === "INSTRUCTIONS") {
    const instruction = fundingInstruction(quote.id, quote.sendingCurrency.code, false);
    body.paymentInstructions = instruction ? [instruction] : [];
  }
  return body;
}

/** `GET /quotes/{id}`: 200 Quote (transactions due by now settled first). */
function getQuote(ctx: RequestContext): Response {
  const quoteId = pathId(ctx, "id", "Quote");
  settleDueTransactions(ctx.rt);
  const quote = ctx.rt.state.quotes.get(quoteId);
  if (!quote) throw quoteNotFound(quoteId);
  return json(200, quoteJson(ctx.rt, quote));
}

export function insufficientFunds(source: BalanceAccount, quote: QuoteRecord): ServiceError {
  return new ServiceError(
    400,
    "INSUFFICIENT_FUNDS",
    "The account balance does not cover the quote.",
    {
      balance: source.balance,
      required: quote.totalSendingAmount,
    },
  );
}

/** Debits the source and records the quote's OUTGOING transaction (settled later). */
export function startTransfer(
  rt: Runtime,
  quote: QuoteRecord,
  source: BalanceAccount,
  key: string,
  now: number,
): void {
  source.balance -= quote.totalSendingAmount;
  source.updatedAt = now;
  recordTransfer(rt, quote, "OUTGOING", key, now);
}

/**
 * Records the quote's transaction (settled `settlementDelayMs` later) and marks the quote
 * PROCESSING, executed under `key` (`""` when no wallet stamp executed it).
 */
export function recordTransfer(
  rt: Runtime,
  quote: QuoteRecord,
  type: TransactionRecord["type"],
  key: string,
  now: number,
): TransactionRecord {
  const txId = quote.transactionId ?? rt.ids.next("Transaction");
  const tx: TransactionRecord = {
    id: txId,
    type,
    customerId: quote.customerId,
    quoteId: quote.id,
    sourceAccountId: quote.sourceAccountId || undefined,
    ...(quote.sourceAccountId ? {} : { source: quote.source }),
    destinationAccountId: quote.destination.accountId,
    currency: quote.sendingCurrency,
    amount: quote.totalSendingAmount,
    receivedCurrency: quote.receivingCurrency,
    receivedAmount: quote.totalReceivingAmount,
    createdAt: now,
    settlesAt: now + rt.options.settlementDelayMs,
    settled: false,
    pendingAuthorization: false,
    description: quote.description,
  };
  rt.state.transactions.set(txId, tx);
  quote.transactionId = txId;
  quote.executedWithKey = key;
  quote.status = "PROCESSING";
  return tx;
}

export const getQuoteRoute: Route = { method: "GET", pattern: "/quotes/:id", handler: getQuote };
