// Quotes (docs/protocol.md §2–§3, §12). From an EMBEDDED_WALLET source: create with a
// `payloadToSign` in the EMBEDDED_WALLET payment instruction, and execute with a stamp header only
// (no 202, no Request-Id), idempotent by `Idempotency-Key`. From a platform internal account:
// execute without a stamp (or `immediatelyExecute`). From an external account or real-time
// funding: the quote waits PENDING for the funds its payment instructions ask for, which
// `POST /sandbox/send` delivers in the sandbox.
import { isoTime } from "../clock.js";
import { faultError } from "../faults.js";
import { pathId, type RequestContext, readBody } from "../http/context.js";
import { invalidInput, notFound, ServiceError } from "../http/errors.js";
import { json, processing } from "../http/responses.js";
import type { Route } from "../http/router.js";
import { quotePayload } from "../payloads.js";
import type { Runtime } from "../runtime.js";
import { checkStamp, SIGNATURE_HEADER } from "../signedRetry.js";
import type { BalanceAccount, QuoteFunding, QuoteRecord, TransactionRecord } from "../state.js";
import { boolean, enumOf, id, integer, object, optional, string, union } from "../validation.js";
import {
  CURRENCIES,
  currencyJson,
  findBalanceAccount,
  fundingInstruction,
  getAccount,
  sparkAddress,
} from "./accounts.js";
import {
  checkExecuteFactor,
  checkExecuteSession,
  holdForAuthorization,
  requiresSca,
  scaChallengeJson,
} from "./sca.js";
import { sessionKeys } from "./sessions.js";
import { settleDueTransactions, transactionJson } from "./transactions.js";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

const CURRENCY_CODE = /^[A-Z]{3,5}$/;

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

function insufficientFunds(source: BalanceAccount, quote: QuoteRecord): ServiceError {
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
function startTransfer(
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
function recordTransfer(
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
 * none) or `QUOTE_EXPIRED`; 409 `SCA_SESSION_REQUIRED` (`requireScaSessionAtExecute`, an SCA
 * customer without an SCA session: nothing executed, nothing remembered under the key);
 * 400 `INSUFFICIENT_FUNDS`. Success: 200 Quote `PROCESSING` with `transactionId`.
 */
function executeQuote(ctx: RequestContext): Response {
  const { rt } = ctx;
  const quoteId = pathId(ctx, "id", "Quote");
  const body = readBody(ctx, executeSchema, {});
  if (body.scaFactor === "TOTP") {
    throw invalidInput([
      { field: "scaFactor", message: "TOTP cannot authorize a payment; use SMS_OTP or PASSKEY" },
    ]);
  }
  const factor = body.scaFactor ?? "SMS_OTP";
  const key = ctx.headers.get("Idempotency-Key");
  if (key !== null && (key.length === 0 || key.length > 255)) {
    throw invalidInput([{ field: "Idempotency-Key", message: "must be 1–255 characters" }]);
  }
  const quote = rt.state.quotes.get(quoteId);
  if (!quote) throw quoteNotFound(quoteId);
  if (quote.funding !== "WALLET") return executeWithoutStamp(ctx, quote, key, factor);
  const signature = ctx.headers.get(SIGNATURE_HEADER);
  const replay = key !== null ? quote.executions.get(key) : undefined;
  if (replay) {
    // The identical re-send carries the same stamp: a repeat without one is a client bug.
    if (signature === null) throw signatureMissing();
    checkStamp(ctx, signature, quote.payloadToSign, [
      ...sessionKeys(rt, quote.sourceAccountId),
      replay.signedBy,
    ]);
    // The re-send under a key carries the same body: another scaFactor is another request.
    if (replay.scaFactor !== factor) throw idempotencyKeyReused(replay.scaFactor);
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
  const sca = requiresSca(rt, quote.customerId);
  if (sca) checkExecuteFactor(rt, quote.customerId, factor);
  if (sca) checkExecuteSession(rt, quote.customerId);
  const fault = ctx.takeSignedFault();
  if (fault?.kind === "processing") return processing();
  if (fault) throw faultError(fault);
  const remember = (status: number, answer: unknown) => {
    if (key !== null) {
      quote.executions.set(key, { status, body: answer, signedBy, scaFactor: factor });
    }
    return json(status, answer);
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
  startTransfer(rt, quote, source, key ?? "", now);
  const txId = quote.transactionId!;
  // docs/protocol.md §9: an SCA customer's transfer waits for their authorization.
  if (sca) {
    rt.state.transactions.get(txId)!.pendingAuthorization = true;
    quote.scaFactor = factor;
    holdForAuthorization(rt, quote);
  }
  return remember(200, quoteJson(rt, quote));
}

/**
 * Execute of a quote that is not a wallet's (docs/protocol.md §12): a platform account's quote
 * executes without a stamp (a `Grid-Wallet-Signature` sent along is not looked at), idempotent by
 * `Idempotency-Key` as a wallet's; an instruction-funded one is never executed (409 `CONFLICT`,
 * `reason: "QUOTE_FUNDED_BY_INSTRUCTIONS"`): its funds arriving start it.
 */
function executeWithoutStamp(
  ctx: RequestContext,
  quote: QuoteRecord,
  key: string | null,
  factor: "SMS_OTP" | "PASSKEY",
): Response {
  const { rt } = ctx;
  const replay = key !== null ? quote.executions.get(key) : undefined;
  if (replay) {
    if (replay.scaFactor !== factor) throw idempotencyKeyReused(replay.scaFactor);
    return json(replay.status, replay.body);
  }
  if (quote.funding === "INSTRUCTIONS") {
    throw new ServiceError(
      409,
      "CONFLICT",
      "This quote is funded by its paymentInstructions (POST /sandbox/send in the sandbox), not executed.",
      { reason: "QUOTE_FUNDED_BY_INSTRUCTIONS" },
    );
  }
  if (quote.status !== "PENDING") {
    throw new ServiceError(409, "CONFLICT", "The quote has already been executed.", {
      reason: "QUOTE_ALREADY_EXECUTED",
      transactionId: quote.transactionId,
    });
  }
  if (ctx.now() >= quote.expiresAt) {
    throw new ServiceError(409, "CONFLICT", "The quote has expired.", { reason: "QUOTE_EXPIRED" });
  }
  const fault = ctx.takeSignedFault();
  if (fault?.kind === "processing") return processing();
  if (fault) throw faultError(fault);
  const remember = (status: number, answer: unknown) => {
    if (key !== null) {
      quote.executions.set(key, { status, body: answer, signedBy: "", scaFactor: factor });
    }
    return json(status, answer);
  };
  const source = findBalanceAccount(rt, quote.sourceAccountId)!;
  if (source.balance < quote.totalSendingAmount) {
    const error = insufficientFunds(source, quote);
    return remember(400, {
      status: 400,
      code: error.code,
      message: error.message,
      details: error.details,
    });
  }
  startTransfer(rt, quote, source, key ?? "", ctx.now());
  return remember(200, quoteJson(rt, quote));
}

const sandboxSendSchema = object({
  quoteId: id("Quote"),
  currencyCode: string({ pattern: CURRENCY_CODE, patternMessage: "must be a currency code" }),
  currencyAmount: optional(integer({ min: 1, max: 9e15 })),
});

/**
 * `POST /sandbox/send` `{ quoteId, currencyCode, currencyAmount? }`: the funds an
 * instruction-funded quote asks for arrive (docs/protocol.md §12). 200 Transaction
 * (`PROCESSING`; INCOMING when the destination is an internal account, else OUTGOING), the quote
 * `PROCESSING`; the destination is credited at settlement. The currency must be the quote's
 * sending currency and the amount, when given, its `totalSendingAmount`. A quote that is not
 * instruction-funded, already funded or expired: 400.
 */
function sandboxSend(ctx: RequestContext): Response {
  const { rt } = ctx;
  const body = readBody(ctx, sandboxSendSchema);
  const quote = rt.state.quotes.get(body.quoteId);
  if (!quote) throw quoteNotFound(body.quoteId);
  const refuse = (field: string, message: string, reason?: string) =>
    new ServiceError(400, "INVALID_INPUT", `${field} ${message}`, {
      errors: [{ field, message }],
      ...(reason ? { reason } : {}),
    });
  if (quote.funding !== "INSTRUCTIONS") {
    throw refuse(
      "quoteId",
      "is funded from an internal account: execute it instead",
      "QUOTE_NOT_INSTRUCTION_FUNDED",
    );
  }
  if (quote.status !== "PENDING") {
    throw refuse("quoteId", "has already been funded", "QUOTE_ALREADY_EXECUTED");
  }
  if (ctx.now() >= quote.expiresAt) throw refuse("quoteId", "has expired", "QUOTE_EXPIRED");
  if (body.currencyCode !== quote.sendingCurrency.code) {
    throw refuse(
      "currencyCode",
      `must be ${quote.sendingCurrency.code}, the quote's sending currency`,
    );
  }
  if (body.currencyAmount !== undefined && body.currencyAmount !== quote.totalSendingAmount) {
    throw refuse(
      "currencyAmount",
      `must be ${quote.totalSendingAmount}, the quote's totalSendingAmount (partial or excess funding is not emulated)`,
    );
  }
  const now = ctx.now();
  const internal = findBalanceAccount(rt, quote.destination.accountId) !== undefined;
  const tx = recordTransfer(rt, quote, internal ? "INCOMING" : "OUTGOING", "", now);
  return json(200, transactionJson(rt, tx));
}

/** A repeat under an `Idempotency-Key` whose body asks another factor: 409, nothing replayed. */
function idempotencyKeyReused(first: string): ServiceError {
  return new ServiceError(
    409,
    "CONFLICT",
    "This Idempotency-Key was used with another body; re-send the first body unchanged.",
    { reason: "IDEMPOTENCY_KEY_REUSED", scaFactor: first },
  );
}

/**
 * The optional `ExecuteQuoteRequest`: `scaFactor` (default SMS_OTP) for an SCA customer's
 * challenge; TOTP is refused; ignored for other customers. The stamp covers `payloadToSign`, not
 * this body.
 */
const executeSchema = object({ scaFactor: optional(enumOf(["SMS_OTP", "TOTP", "PASSKEY"])) });

function signatureMissing(): ServiceError {
  return new ServiceError(
    401,
    "WALLET_SIGNATURE_MISSING",
    `Executing a wallet quote needs ${SIGNATURE_HEADER}.`,
  );
}

/** Quote routes. */
export const quoteRoutes: Route[] = [
  { method: "POST", pattern: "/quotes", handler: createQuote, body: quoteSchema },
  { method: "POST", pattern: "/sandbox/send", handler: sandboxSend, body: sandboxSendSchema },
  { method: "GET", pattern: "/quotes/:id", handler: getQuote },
  { method: "POST", pattern: "/quotes/:id/execute", handler: executeQuote, body: executeSchema },
];
