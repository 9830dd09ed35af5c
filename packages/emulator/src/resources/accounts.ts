// Internal accounts (wallets), external accounts and sandbox funding (docs/protocol.md §3, platform endpoints).
import { isoTime } from "../clock.js";
import { generateMnemonic, sha256Hex } from "../crypto/index.js";
import { pathId, queryParam, type RequestContext, readBody } from "../http/context.js";
import { invalidInput, notFound } from "../http/errors.js";
import { json } from "../http/responses.js";
import type { Route } from "../http/router.js";
import type { Runtime } from "../runtime.js";
import type { Currency, ExternalAccountRecord, InternalAccountRecord } from "../state.js";
import { enumOf, id, integer, object, optional, string } from "../validation.js";

/** The currencies the emulator knows, with a USD value per major unit (for quotes). */
export const CURRENCIES: Readonly<Record<string, Currency & { usdPerUnit: number }>> = {
  USDB: { code: "USDB", name: "USDB", symbol: "$", decimals: 6, usdPerUnit: 1 },
  USDC: { code: "USDC", name: "USD Coin", symbol: "$", decimals: 6, usdPerUnit: 1 },
  USD: { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2, usdPerUnit: 1 },
  EUR: { code: "EUR", name: "Euro", symbol: "€", decimals: 2, usdPerUnit: 1.08 },
  MXN: { code: "MXN", name: "Mexican Peso", symbol: "$", decimals: 2, usdPerUnit: 0.055 },
  BRL: { code: "BRL", name: "Brazilian Real", symbol: "R$", decimals: 2, usdPerUnit: 0.18 },
};

/** The currency object as it travels (without the emulator's rate). */
export function currencyJson(code: string): Currency {
  const c = CURRENCIES[code];
  if (!c) return { code, name: code, decimals: 2 };
  return {
    code: c.code,
    name: c.name,
    ...(c.symbol ? { symbol: c.symbol } : {}),
    decimals: c.decimals,
  };
}

/** The InternalAccount JSON. */
export function internalAccountJson(account: InternalAccountRecord): Record<string, unknown> {
  const balance = { amount: account.balance, currency: account.currency };
  return {
    id: account.id,
    customerId: account.customerId,
    type: account.type,
    status: account.status,
    balance,
    totalBalance: balance,
    fundingPaymentInstructions: [
      {
        instructionsNotes: "Send USDB on Spark to this address (emulated; nothing is watched).",
        accountOrWalletInfo: {
          accountType: "SPARK_WALLET",
          assetType: "USDB",
          address: `sprt1emu${sha256Hex(account.id).slice(0, 52)}`,
        },
      },
    ],
    createdAt: isoTime(account.createdAt),
    updatedAt: isoTime(account.updatedAt),
  };
}

/** Provisions an `EMBEDDED_WALLET` account in USDB with a stable mnemonic. */
export function provisionWallet(rt: Runtime, customerId: string): InternalAccountRecord {
  const now = rt.clock.now();
  const account: InternalAccountRecord = {
    id: rt.ids.next("InternalAccount"),
    customerId,
    type: "EMBEDDED_WALLET",
    status: "ACTIVE",
    currency: currencyJson("USDB"),
    balance: 0,
    mnemonic: generateMnemonic(rt.ids.entropy("mnemonic", 16)),
    createdAt: now,
    updatedAt: now,
  };
  rt.state.accounts.set(account.id, account);
  return account;
}

/** An internal account by id, 404 otherwise. */
export function getAccount(rt: Runtime, accountId: string): InternalAccountRecord {
  const account = rt.state.accounts.get(accountId);
  if (!account) throw notFound("Internal account", accountId);
  return account;
}

/** The list envelope (the emulator's lists fit on one page). */
export function listEnvelope(data: unknown[]): Record<string, unknown> {
  return { data, hasMore: false, totalCount: data.length };
}

function listInternalAccounts(ctx: RequestContext): Response {
  const customerId = queryParam(ctx, "customerId", id("Customer"));
  const type = queryParam(ctx, "type", enumOf(["EMBEDDED_WALLET", "INTERNAL_FIAT"]));
  const currency = queryParam(ctx, "currency", string({ minLength: 1, maxLength: 10 }));
  if (customerId && !ctx.rt.state.customers.has(customerId))
    throw notFound("Customer", customerId, "USER_NOT_FOUND");
  const data = [...ctx.rt.state.accounts.values()]
    .filter((a) => (!customerId || a.customerId === customerId) && (!type || a.type === type))
    .filter((a) => !currency || a.currency.code === currency)
    .map(internalAccountJson);
  return json(200, listEnvelope(data));
}

/**
 * `POST /sandbox/internal-accounts/{id}/fund` `{ amount }`: credits the balance (smallest unit)
 * and records a completed INCOMING transaction. 200 InternalAccount.
 */
function fundAccount(ctx: RequestContext): Response {
  const accountId = pathId(ctx, "id", "InternalAccount");
  const body = readBody(
    ctx,
    object({ amount: integer({ min: 1, max: 1e15 }), currency: optional(string()) }),
  );
  const account = getAccount(ctx.rt, accountId);
  if (body.currency !== undefined && body.currency !== account.currency.code) {
    throw invalidInput([
      { field: "currency", message: `must be ${account.currency.code}, the account's currency` },
    ]);
  }
  if (account.balance + body.amount > Number.MAX_SAFE_INTEGER) {
    throw invalidInput([{ field: "amount", message: "would overflow the balance" }]);
  }
  const now = ctx.now();
  account.balance += body.amount;
  account.updatedAt = now;
  const txId = ctx.rt.ids.next("Transaction");
  ctx.rt.state.transactions.set(txId, {
    id: txId,
    type: "INCOMING",
    customerId: account.customerId,
    quoteId: undefined,
    sourceAccountId: undefined,
    destinationAccountId: account.id,
    currency: account.currency,
    amount: body.amount,
    receivedCurrency: account.currency,
    receivedAmount: body.amount,
    createdAt: now,
    settlesAt: now,
    settled: true,
    pendingAuthorization: false,
    description: "Sandbox funding",
  });
  return json(200, internalAccountJson(account));
}

const ACCOUNT_TYPES = [
  "USD_ACCOUNT",
  "EUR_ACCOUNT",
  "BRL_ACCOUNT",
  "MXN_ACCOUNT",
  "INR_ACCOUNT",
  "NGN_ACCOUNT",
  "CAD_ACCOUNT",
  "SPARK_WALLET",
] as const;

const externalAccountSchema = object({
  customerId: id("Customer"),
  currency: string({
    pattern: /^[A-Z]{3,5}$/,
    patternMessage: "must be a currency code such as USD",
  }),
  platformAccountId: optional(string({ minLength: 1, maxLength: 255 })),
  accountInfo: object({ accountType: enumOf(ACCOUNT_TYPES) }, { open: true }),
});

const MASKED = ["accountNumber", "iban", "clabeNumber"];

function externalAccountJson(account: ExternalAccountRecord): Record<string, unknown> {
  const info: Record<string, unknown> = { ...account.accountInfo };
  // The service states the rails of an account; a USD account created without them gets ACH.
  if (info.accountType === "USD_ACCOUNT" && info.paymentRails === undefined) {
    info.paymentRails = ["ACH"];
  }
  for (const key of MASKED) {
    const value = info[key];
    if (typeof value === "string") info[key] = `****${value.slice(-4)}`;
  }
  const body: Record<string, unknown> = {
    id: account.id,
    customerId: account.customerId,
    currency: account.currency,
    status: account.status,
    accountInfo: info,
  };
  if (account.platformAccountId !== undefined) body.platformAccountId = account.platformAccountId;
  body.createdAt = isoTime(account.createdAt);
  body.updatedAt = isoTime(account.updatedAt);
  return body;
}

/** `POST /customers/external-accounts`: 201 ExternalAccount (`ACTIVE` at once in the emulator). */
function createExternalAccount(ctx: RequestContext): Response {
  const body = readBody(ctx, externalAccountSchema);
  if (!ctx.rt.state.customers.has(body.customerId))
    throw notFound("Customer", body.customerId, "USER_NOT_FOUND");
  const now = ctx.now();
  const account: ExternalAccountRecord = {
    id: ctx.rt.ids.next("ExternalAccount"),
    customerId: body.customerId,
    currency: body.currency,
    platformAccountId: body.platformAccountId,
    accountInfo: body.accountInfo,
    status: "ACTIVE",
    createdAt: now,
    updatedAt: now,
  };
  ctx.rt.state.externalAccounts.set(account.id, account);
  return json(201, externalAccountJson(account));
}

function listExternalAccounts(ctx: RequestContext): Response {
  const customerId = queryParam(ctx, "customerId", id("Customer"));
  const data = [...ctx.rt.state.externalAccounts.values()]
    .filter((a) => !customerId || a.customerId === customerId)
    .map(externalAccountJson);
  return json(200, listEnvelope(data));
}

/** Account routes. */
export const accountRoutes: Route[] = [
  { method: "GET", pattern: "/customers/internal-accounts", handler: listInternalAccounts },
  { method: "GET", pattern: "/internal-accounts", handler: listInternalAccounts },
  { method: "POST", pattern: "/sandbox/internal-accounts/:id/fund", handler: fundAccount },
  { method: "POST", pattern: "/customers/external-accounts", handler: createExternalAccount },
  { method: "GET", pattern: "/customers/external-accounts", handler: listExternalAccounts },
];
