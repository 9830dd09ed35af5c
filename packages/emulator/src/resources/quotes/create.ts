// `POST /quotes` (docs/protocol.md §2, §12): the quote's source (a wallet, a platform account, an
// external account or real-time funding) and who it is for, its amounts in both currencies, and
// the `payloadToSign` a wallet-funded quote carries.
import { type RequestContext, readBody } from "../../http/context.js";
import { invalidInput, notFound, ServiceError } from "../../http/errors.js";
import { json } from "../../http/responses.js";
import type { Route } from "../../http/router.js";
import { quotePayload } from "../../payloads.js";
import type { Runtime } from "../../runtime.js";
import type { QuoteFunding, QuoteRecord } from "../../state.js";
import { boolean, enumOf, id, integer, object, optional, string, union } from "../../validation.js";
import {
  CURRENCIES,
  currencyJson,
  findBalanceAccount,
  fundingInstruction,
} from "../accounts/account.js";
import { CURRENCY_CODE, insufficientFunds, quoteJson, startTransfer } from "./quote.js";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

const quoteSchema = object({
  source: union("sourceType", {
    ACCOUNT: object({
      sourceType: enumOf(["ACCOUNT"]),
      accountId: string({
        pattern: new RegExp(`^(InternalAccount|ExternalAccount):${UUID}$`),
        patternMessage: "must be an InternalAccount or ExternalAccount id",
      }),
      // The customer on whose behalf a platform or external account is drawn on; for a wallet
      // it must be the wallet's owner.
      customerId: optional(id("Customer")),
    }),
    REALTIME_FUNDING: object({
      sourceType: enumOf(["REALTIME_FUNDING"]),
      customerId: optional(id("Customer")),
      currency: string({ pattern: CURRENCY_CODE, patternMessage: "must be a currency code" }),
      cryptoNetwork: optional(string({ minLength: 1, maxLength: 20 })),
    }),
  }),
  destination: union("destinationType", {
    ACCOUNT: object({
      destinationType: enumOf(["ACCOUNT"]),
      accountId: string({
        pattern: new RegExp(`^(ExternalAccount|InternalAccount):${UUID}$`),
        patternMessage: "must be an ExternalAccount or InternalAccount id",
      }),
      paymentRail: optional(string({ minLength: 1, maxLength: 50 })),
      currency: optional(string({ minLength: 3, maxLength: 10 })),
    }),
  }),
  lockedCurrencySide: enumOf(["SENDING", "RECEIVING"]),
  lockedCurrencyAmount: integer({ min: 1, max: 1e15 }),
  description: optional(string({ maxLength: 500 })),
  immediatelyExecute: optional(boolean()),
  purposeOfPayment: optional(string({ maxLength: 100 })),
  // Optional fields of the service's QuoteRequest (docs/protocol.md §10): accepted, none
  // changes what the emulator does (`scaFactor` is for realtime-funding quotes of SCA regions,
  // which the emulator does not hold for SCA; TOTP is refused as the spec says).
  lookupId: optional(string({ minLength: 1, maxLength: 255 })),
  remittanceInformation: optional(string({ maxLength: 80 })),
  platformFeeOverride: optional(
    object({
      platformFixedFee: object({ amount: integer({ min: 0, max: 1e15 }), currency: string() }),
      platformVariableFeeBps: integer({ min: 0, max: 10_000 }),
    }),
  ),
  scaFactor: optional(enumOf(["SMS_OTP", "TOTP", "PASSKEY"])),
  senderCustomerInfo: optional(object({}, { open: true })),
});

/** The owner of an internal destination, if it has one. */
function destinationOwner(rt: Runtime, accountId: string): string | undefined {
  if (accountId.startsWith("InternalAccount:")) return rt.state.accounts.get(accountId)?.customerId;
  return rt.state.externalAccounts.get(accountId)?.customerId;
}

type ResolvedSource = {
  funding: QuoteFunding;
  sourceAccountId: string;
  sendingCode: string;
  /** The customer named by the request or the account, if any. */
  customerId: string | undefined;
  source: Record<string, unknown>;
};

/** What a quote's source is, and who it is for; 404 for an unknown account or customer. */
function resolveSource(
  rt: Runtime,
  requested: {
    sourceType: "ACCOUNT" | "REALTIME_FUNDING";
    accountId?: string;
    customerId?: string;
    currency?: string;
    cryptoNetwork?: string;
  },
): ResolvedSource {
  const named = requested.customerId;
  if (named !== undefined && !rt.state.customers.has(named)) {
    throw notFound("Customer", named, "USER_NOT_FOUND");
  }
  const mismatch = (owner: string) =>
    invalidInput([
      { field: "source.customerId", message: `must be ${owner}, the account's owner` },
    ]);
  if (requested.sourceType === "REALTIME_FUNDING") {
    const source: Record<string, unknown> = { sourceType: "REALTIME_FUNDING" };
    if (named !== undefined) source.customerId = named;
    source.currency = requested.currency;
    if (requested.cryptoNetwork !== undefined) source.cryptoNetwork = requested.cryptoNetwork;
    return {
      funding: "INSTRUCTIONS",
      sourceAccountId: "",
      sendingCode: requested.currency!,
      customerId: named,
      source,
    };
  }
  const accountId = requested.accountId!;
  const source: Record<string, unknown> = { sourceType: "ACCOUNT", accountId };
  if (named !== undefined) source.customerId = named;
  if (accountId.startsWith("ExternalAccount:")) {
    const external = rt.state.externalAccounts.get(accountId);
    if (!external) throw notFound("Source account", accountId);
    if (named !== undefined && external.customerId !== undefined && named !== external.customerId) {
      throw mismatch(external.customerId);
    }
    return {
      funding: "INSTRUCTIONS",
      sourceAccountId: accountId,
      sendingCode: external.currency,
      customerId: named ?? external.customerId,
      source,
    };
  }
  const account = findBalanceAccount(rt, accountId);
  if (!account) throw notFound("Internal account", accountId);
  if (account.customerId !== undefined && named !== undefined && named !== account.customerId) {
    throw mismatch(account.customerId);
  }
  return {
    funding: account.type === "EMBEDDED_WALLET" ? "WALLET" : "PLATFORM",
    sourceAccountId: accountId,
    sendingCode: account.currency.code,
    customerId: named ?? account.customerId,
    source,
  };
}

function destinationCurrency(rt: Runtime, accountId: string): string {
  if (accountId.startsWith("InternalAccount:")) {
    const account = findBalanceAccount(rt, accountId);
    if (!account) throw notFound("Destination account", accountId);
    return account.currency.code;
  }
  const external = rt.state.externalAccounts.get(accountId);
  if (!external) throw notFound("Destination account", accountId);
  return external.currency;
}

/**
 * `POST /quotes`: 201 Quote (`PENDING`). `immediatelyExecute` is refused for wallet sources (they
 * execute with a wallet stamp) and instruction-funded ones (400), and executes a platform
 * account's quote at once; a destination equal to the source gives 400 `SELF_PAYMENT`; an
 * unknown currency 400 `INVALID_CURRENCY`; an amount that converts to 0 400 `AMOUNT_OUT_OF_RANGE`.
 */
function createQuote(ctx: RequestContext): Response {
  const { rt } = ctx;
  const body = readBody(ctx, quoteSchema);
  if (body.scaFactor === "TOTP") {
    throw invalidInput([
      { field: "scaFactor", message: "TOTP cannot authorize a payment; use SMS_OTP or PASSKEY" },
    ]);
  }
  const resolved = resolveSource(rt, body.source);
  if (body.immediatelyExecute && resolved.funding !== "PLATFORM") {
    throw invalidInput([
      {
        field: "immediatelyExecute",
        message:
          resolved.funding === "WALLET"
            ? "is not supported for an EMBEDDED_WALLET source; execute with a wallet signature"
            : "is not supported for a source funded by its paymentInstructions",
      },
    ]);
  }
  if (body.destination.accountId === resolved.sourceAccountId) {
    throw new ServiceError(400, "SELF_PAYMENT", "The destination is the source account.");
  }
  const receivingCode = destinationCurrency(rt, body.destination.accountId);
  const sending = CURRENCIES[resolved.sendingCode];
  const receiving = CURRENCIES[receivingCode];
  if (!sending || !receiving) {
    throw new ServiceError(
      400,
      "INVALID_CURRENCY",
      `Currency ${sending ? receivingCode : resolved.sendingCode} is not supported by the emulator.`,
    );
  }
  if (resolved.funding === "INSTRUCTIONS" && !fundingInstruction("", sending.code, false)) {
    throw new ServiceError(
      400,
      "INVALID_CURRENCY",
      `The emulator has no funding instructions in ${sending.code} (USD, USDB and USDC only).`,
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
  const payloadToSign =
    resolved.funding === "WALLET"
      ? quotePayload(rt, now, {
          id: quoteId,
          sourceAccountId: resolved.sourceAccountId,
          destination: body.destination.accountId,
          amount: sendAmount,
          currency: sending.code,
        })
      : "";
  const quote: QuoteRecord = {
    id: quoteId,
    status: "PENDING",
    customerId:
      resolved.customerId ??
      destinationOwner(rt, body.destination.accountId) ??
      rt.keys.organizationId,
    funding: resolved.funding,
    source: resolved.source,
    sourceAccountId: resolved.sourceAccountId,
    destination: { destinationType: "ACCOUNT", accountId: body.destination.accountId },
    sendingCurrency: currencyJson(sending.code),
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
    // The execute's `scaFactor` sets it; creation's is not the wallet's factor.
    scaFactor: "SMS_OTP",
    sca: undefined,
  };
  rt.state.quotes.set(quote.id, quote);
  if (body.immediatelyExecute) {
    // A platform source: executed within this request; a refusal leaves the quote PENDING.
    const source = findBalanceAccount(rt, quote.sourceAccountId)!;
    if (source.balance < quote.totalSendingAmount) throw insufficientFunds(source, quote);
    startTransfer(rt, quote, source, "", now);
  }
  return json(201, quoteJson(rt, quote));
}

export const createQuoteRoute: Route = {
  method: "POST",
  pattern: "/quotes",
  handler: createQuote,
  body: quoteSchema,
};
