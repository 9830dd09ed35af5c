// Quotes from an EMBEDDED_WALLET source (docs/protocol.md §2–§3): create with a `payloadToSign` in
// the EMBEDDED_WALLET payment instruction, and execute with a stamp header only (no 202, no
// Request-Id), idempotent by `Idempotency-Key`.
import { isoTime } from "../clock.js";
import { sha256Hex } from "../crypto/index.js";
import { faultError } from "../faults.js";
import { expectNoBody, pathId, type RequestContext, readBody } from "../http/context.js";
import { invalidInput, notFound, ServiceError } from "../http/errors.js";
import { json, processing } from "../http/responses.js";
import type { Route } from "../http/router.js";
import { quotePayload } from "../payloads.js";
import type { Runtime } from "../runtime.js";
import { checkStamp, SIGNATURE_HEADER } from "../signedRetry.js";
import type { QuoteRecord } from "../state.js";
import {
  anyJson,
  boolean,
  enumOf,
  id,
  integer,
  literal,
  object,
  optional,
  string,
} from "../validation.js";
import { CURRENCIES, currencyJson, getAccount } from "./accounts.js";
import { holdForAuthorization, requiresSca, scaChallengeJson } from "./sca.js";
import { sessionKeys } from "./sessions.js";
import { settleDueTransactions } from "./transactions.js";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

const quoteSchema = object({
  source: object({ sourceType: literal("ACCOUNT"), accountId: id("InternalAccount") }),
  destination: object({
    destinationType: literal("ACCOUNT"),
    accountId: string({
      pattern: new RegExp(`^(ExternalAccount|InternalAccount):${UUID}$`),
      patternMessage: "must be an ExternalAccount or InternalAccount id",
    }),
    paymentRail: optional(string({ minLength: 1, maxLength: 50 })),
    currency: optional(string({ minLength: 3, maxLength: 10 })),
  }),
  lockedCurrencySide: enumOf(["SENDING", "RECEIVING"]),
  lockedCurrencyAmount: integer({ min: 1, max: 1e15 }),
  description: optional(string({ maxLength: 500 })),
  immediatelyExecute: optional(boolean()),
  purposeOfPayment: optional(string({ maxLength: 100 })),
  // Optional fields of the service's QuoteRequest (docs/protocol.md §10): accepted; only
  // `scaFactor` changes what the emulator does.
  lookupId: optional(string({ minLength: 1, maxLength: 255 })),
  remittanceInformation: optional(string({ maxLength: 80 })),
  platformFeeOverride: optional(
    object({
      platformFixedFee: object({ amount: integer({ min: 0, max: 1e15 }), currency: string() }),
      platformVariableFeeBps: integer({ min: 0, max: 10_000 }),
    }),
  ),
  scaFactor: optional(enumOf(["SMS_OTP", "TOTP", "PASSKEY"])),
  senderCustomerInfo: optional(anyJson()),
});

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
    source: { sourceType: "ACCOUNT", accountId: quote.sourceAccountId },
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
  body.paymentInstructions = [
    {
      instructionsNotes: "Emulated Spark settlement of the wallet transfer.",
      accountOrWalletInfo: {
        accountType: "SPARK_WALLET",
        assetType: quote.sendingCurrency.code,
        address: `sprt1emu${sha256Hex(quote.sourceAccountId).slice(0, 52)}`,
      },
    },
    {
      instructionsNotes: "Stamp payloadToSign with a wallet session key and execute the quote.",
      accountOrWalletInfo: { accountType: "EMBEDDED_WALLET", payloadToSign: quote.payloadToSign },
    },
  ];
  return body;
}

function destinationCurrency(rt: Runtime, accountId: string): string {
  if (accountId.startsWith("InternalAccount:")) {
    const account = rt.state.accounts.get(accountId);
    if (!account) throw notFound("Destination account", accountId);
    return account.currency.code;
  }
  const external = rt.state.externalAccounts.get(accountId);
  if (!external) throw notFound("Destination account", accountId);
  return external.currency;
}

/**
 * `POST /quotes` from an `EMBEDDED_WALLET` source: 201 Quote (`PENDING`). `immediatelyExecute`
 * is refused for wallet sources (400); a destination equal to the source gives 400 `SELF_PAYMENT`;
 * an unknown currency 400 `INVALID_CURRENCY`; an amount that converts to 0 400 `AMOUNT_OUT_OF_RANGE`.
 */
function createQuote(ctx: RequestContext): Response {
  const { rt } = ctx;
  const body = readBody(ctx, quoteSchema);
  if (body.scaFactor === "TOTP") {
    throw invalidInput([
      { field: "scaFactor", message: "TOTP cannot authorize a payment; use SMS_OTP or PASSKEY" },
    ]);
  }
  if (body.immediatelyExecute) {
    throw invalidInput([
      {
        field: "immediatelyExecute",
        message: "is not supported for an EMBEDDED_WALLET source; execute with a wallet signature",
      },
    ]);
  }
  const source = getAccount(rt, body.source.accountId);
  if (body.destination.accountId === source.id) {
    throw new ServiceError(400, "SELF_PAYMENT", "The destination is the source account.");
  }
  const receivingCode = destinationCurrency(rt, body.destination.accountId);
  const sending = CURRENCIES[source.currency.code];
  const receiving = CURRENCIES[receivingCode];
  if (!sending || !receiving) {
    throw new ServiceError(
      400,
      "INVALID_CURRENCY",
      `Currency ${receivingCode} is not supported by the emulator.`,
    );
  }
  const rate = sending.usdPerUnit / receiving.usdPerUnit;
  const convert = (amount: number, from: typeof sending, to: typeof sending, r: number) =>
    Math.floor((amount / 10 ** from.decimals) * r * 10 ** to.decimals + 1e-9);
  const [sendAmount, receiveAmount] =
    body.lockedCurrencySide === "SENDING"
      ? [body.lockedCurrencyAmount, convert(body.lockedCurrencyAmount, sending, receiving, rate)]
      : [
          Math.ceil(
            (body.lockedCurrencyAmount / 10 ** receiving.decimals / rate) * 10 ** sending.decimals -
              1e-9,
          ),
          body.lockedCurrencyAmount,
        ];
  if (sendAmount < 1 || receiveAmount < 1) {
    throw new ServiceError(400, "AMOUNT_OUT_OF_RANGE", "The amount is too small to send.");
  }
  const now = ctx.now();
  const quoteId = rt.ids.next("Quote");
  const payloadToSign = quotePayload(rt, now, {
    id: quoteId,
    sourceAccountId: source.id,
    destination: body.destination.accountId,
    amount: sendAmount,
    currency: source.currency.code,
  });
  const quote: QuoteRecord = {
    id: quoteId,
    status: "PENDING",
    customerId: source.customerId,
    sourceAccountId: source.id,
    destination: { destinationType: "ACCOUNT", accountId: body.destination.accountId },
    sendingCurrency: source.currency,
    receivingCurrency: currencyJson(receivingCode),
    totalSendingAmount: sendAmount,
    totalReceivingAmount: receiveAmount,
    exchangeRate: rate,
    description: body.description,
    payloadToSign,
    createdAt: now,
    expiresAt: now + rt.options.quoteTtlMs,
    // The service names the quote's transaction from creation on; it exists once executed.
    transactionId: rt.ids.next("Transaction"),
    executions: new Map(),
    executedWithKey: undefined,
    scaFactor: body.scaFactor === "PASSKEY" ? "PASSKEY" : "SMS_OTP",
    sca: undefined,
  };
  rt.state.quotes.set(quote.id, quote);
  return json(201, quoteJson(rt, quote));
}

function getQuote(ctx: RequestContext): Response {
  const quoteId = pathId(ctx, "id", "Quote");
  settleDueTransactions(ctx.rt);
  const quote = ctx.rt.state.quotes.get(quoteId);
  if (!quote) throw quoteNotFound(quoteId);
  return json(200, quoteJson(ctx.rt, quote));
}

/**
 * `POST /quotes/{id}/execute`: one request stamped over the quote's `payloadToSign` by a session
 * of the source wallet (`Grid-Wallet-Signature` only). With `Idempotency-Key`, a repeat returns
 * the first terminal answer verbatim and never executes twice; the repeat must carry a stamp
 * that verifies over the payload too (by a session of the wallet, or the key that executed),
 * as the identical re-send does. Errors: 401 signature codes;
 * 409 `CONFLICT` with `details.reason` `QUOTE_ALREADY_EXECUTED` (executed under another key or
 * none) or `QUOTE_EXPIRED`;
 * 400 `INSUFFICIENT_FUNDS`. Success: 200 Quote `PROCESSING` with `transactionId`.
 */
function executeQuote(ctx: RequestContext): Response {
  const { rt } = ctx;
  const quoteId = pathId(ctx, "id", "Quote");
  expectNoBody(ctx);
  const key = ctx.headers.get("Idempotency-Key");
  if (key !== null && (key.length === 0 || key.length > 255)) {
    throw invalidInput([{ field: "Idempotency-Key", message: "must be 1–255 characters" }]);
  }
  const quote = rt.state.quotes.get(quoteId);
  if (!quote) throw quoteNotFound(quoteId);
  const signature = ctx.headers.get(SIGNATURE_HEADER);
  const replay = key !== null ? quote.executions.get(key) : undefined;
  if (replay) {
    // The identical re-send carries the same stamp: a repeat without one is a client bug.
    if (signature === null) throw signatureMissing();
    checkStamp(ctx, signature, quote.payloadToSign, [
      ...sessionKeys(rt, quote.sourceAccountId),
      replay.signedBy,
    ]);
    return json(replay.status, replay.body);
  }
  // The service's 409 list has no quote codes: CONFLICT, with the reason in details.
  if (quote.status !== "PENDING") {
    throw new ServiceError(409, "CONFLICT", "The quote has already been executed.", {
      reason: "QUOTE_ALREADY_EXECUTED",
      transactionId: quote.transactionId,
    });
  }
  if (ctx.now() >= quote.expiresAt) {
    throw new ServiceError(409, "CONFLICT", "The quote has expired.", { reason: "QUOTE_EXPIRED" });
  }
  if (signature === null) throw signatureMissing();
  const signedBy = checkStamp(
    ctx,
    signature,
    quote.payloadToSign,
    sessionKeys(rt, quote.sourceAccountId),
  );
  const fault = ctx.takeSignedFault();
  if (fault?.kind === "processing") return processing();
  if (fault) throw faultError(fault);
  const remember = (status: number, body: unknown) => {
    if (key !== null) quote.executions.set(key, { status, body, signedBy });
    return json(status, body);
  };
  const source = getAccount(rt, quote.sourceAccountId);
  if (source.balance < quote.totalSendingAmount) {
    return remember(400, {
      status: 400,
      code: "INSUFFICIENT_FUNDS",
      message: "The wallet balance does not cover the quote.",
      details: { balance: source.balance, required: quote.totalSendingAmount },
    });
  }
  const now = ctx.now();
  source.balance -= quote.totalSendingAmount;
  source.updatedAt = now;
  const txId = quote.transactionId ?? rt.ids.next("Transaction");
  rt.state.transactions.set(txId, {
    id: txId,
    type: "OUTGOING",
    customerId: quote.customerId,
    quoteId: quote.id,
    sourceAccountId: quote.sourceAccountId,
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
  });
  quote.transactionId = txId;
  quote.executedWithKey = key ?? "";
  // docs/protocol.md §9: an SCA customer's transfer waits for their authorization.
  if (requiresSca(rt, quote.customerId)) {
    rt.state.transactions.get(txId)!.pendingAuthorization = true;
    holdForAuthorization(rt, quote);
  } else {
    quote.status = "PROCESSING";
  }
  return remember(200, quoteJson(rt, quote));
}

function signatureMissing(): ServiceError {
  return new ServiceError(
    401,
    "WALLET_SIGNATURE_MISSING",
    `Executing a wallet quote needs ${SIGNATURE_HEADER}.`,
  );
}

/** Quote routes. */
export const quoteRoutes: Route[] = [
  { method: "POST", pattern: "/quotes", handler: createQuote },
  { method: "GET", pattern: "/quotes/:id", handler: getQuote },
  { method: "POST", pattern: "/quotes/:id/execute", handler: executeQuote },
];
