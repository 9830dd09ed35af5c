// Internal accounts (wallets), external accounts and sandbox funding (docs/protocol.md §3, platform endpoints).

import { isEvmAddress, isSolanaAddress, isSparkAddress, isTronAddress } from "../addresses.js";
import { isoTime } from "../clock.js";
import { generateMnemonic, sha256Hex } from "../crypto/index.js";
import { pathId, queryParam, type RequestContext, readBody } from "../http/context.js";
import { invalidInput, notFound } from "../http/errors.js";
import { json } from "../http/responses.js";
import type { Route } from "../http/router.js";
import { walletPrivacyPayload } from "../payloads.js";
import type { Runtime } from "../runtime.js";
import { runSignedRetry } from "../signedRetry.js";
import type {
  BalanceAccount,
  Currency,
  ExternalAccountRecord,
  InternalAccountRecord,
  PlatformAccountRecord,
} from "../state.js";
import {
  boolean,
  checkedString,
  enumOf,
  id,
  integer,
  object,
  optional,
  type Schema,
  string,
  union,
} from "../validation.js";
import { sessionKeys } from "./sessions.js";

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

/** The emulator's Spark address for an account or a quote (nothing watches it). */
export function sparkAddress(of: string): string {
  return `sprt1emu${sha256Hex(of).slice(0, 52)}`;
}

/**
 * Where to send `currency` to fund `of` (an account or a quote), as the service's
 * PaymentInstructions: a USD bank account (ACH or wire, with the reference to quote), or a
 * Spark address for the stablecoins. `undefined` for a currency the emulator has no rail for.
 */
export function fundingInstruction(
  of: string,
  currency: string,
  isPlatformAccount: boolean,
): Record<string, unknown> | undefined {
  const digest = sha256Hex(of);
  if (currency === "USD") {
    const reference = `EMU-${digest.slice(0, 10).toUpperCase()}`;
    return {
      instructionsNotes: `Include reference ${reference} in the memo (emulated; POST /sandbox/send stands for the transfer).`,
      isPlatformAccount,
      accountOrWalletInfo: {
        accountType: "USD_ACCOUNT",
        paymentRails: ["ACH", "WIRE"],
        accountNumber: String(BigInt(`0x${digest.slice(0, 12)}`) % 10_000_000_000n).padStart(
          10,
          "0",
        ),
        routingNumber: "021000021",
        bankName: "Emulated Bank",
        reference,
      },
    };
  }
  if (currency === "USDB" || currency === "USDC") {
    return {
      instructionsNotes: `Send ${currency} on Spark to this address (emulated; nothing is watched).`,
      isPlatformAccount,
      accountOrWalletInfo: {
        accountType: "SPARK_WALLET",
        assetType: currency,
        address: sparkAddress(of),
      },
    };
  }
  return undefined;
}

/** The InternalAccount JSON (a platform account has no `customerId`). */
export function internalAccountJson(account: BalanceAccount): Record<string, unknown> {
  const balance = { amount: account.balance, currency: account.currency };
  const body: Record<string, unknown> = { id: account.id };
  if (account.customerId !== undefined) body.customerId = account.customerId;
  const platform = account.customerId === undefined;
  const instruction =
    account.type === "EMBEDDED_WALLET"
      ? {
          instructionsNotes: "Send USDB on Spark to this address (emulated; nothing is watched).",
          accountOrWalletInfo: {
            accountType: "SPARK_WALLET",
            assetType: "USDB",
            address: sparkAddress(account.id),
          },
        }
      : fundingInstruction(account.id, account.currency.code, platform);
  return {
    ...body,
    type: account.type,
    status: account.status,
    balance,
    totalBalance: balance,
    fundingPaymentInstructions: instruction ? [instruction] : [],
    ...(account.type === "EMBEDDED_WALLET" ? { privateEnabled: account.privateEnabled } : {}),
    createdAt: isoTime(account.createdAt),
    updatedAt: isoTime(account.updatedAt),
  };
}

/** The platform's accounts: one per currency, fiat or crypto (docs/protocol.md §12). */
const PLATFORM_CURRENCIES: readonly [string, PlatformAccountRecord["type"]][] = [
  ["USD", "INTERNAL_FIAT"],
  ["EUR", "INTERNAL_FIAT"],
  ["MXN", "INTERNAL_FIAT"],
  ["BRL", "INTERNAL_FIAT"],
  ["USDC", "INTERNAL_CRYPTO"],
  ["USDB", "INTERNAL_CRYPTO"],
];

function uuidOf(text: string): string {
  const h = sha256Hex(text);
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The platform's accounts, made on first use with a zero balance. Their ids derive from the
 * organization id, not the id sequence, so a seeded run's other ids do not move.
 */
export function platformAccounts(rt: Runtime): PlatformAccountRecord[] {
  const map = rt.state.platformAccounts;
  if (map.size === 0) {
    const now = rt.clock.now();
    for (const [code, type] of PLATFORM_CURRENCIES) {
      const id = `InternalAccount:${uuidOf(`signet-emulator:platform:${rt.keys.organizationId}:${code}`)}`;
      map.set(id, {
        id,
        customerId: undefined,
        type,
        status: "ACTIVE",
        currency: currencyJson(code),
        balance: 0,
        createdAt: now,
        updatedAt: now,
      });
    }
  }
  return [...map.values()];
}

/** A wallet or platform account by id (`undefined` when neither). */
export function findBalanceAccount(rt: Runtime, accountId: string): BalanceAccount | undefined {
  if (rt.state.accounts.has(accountId)) return rt.state.accounts.get(accountId);
  platformAccounts(rt);
  return rt.state.platformAccounts.get(accountId);
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
    privateEnabled: false,
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

/**
 * One page of a list by the spec's `limit` (1–100, default 20) and `cursor` (the opaque
 * `nextCursor` of the page before): `{ data, hasMore, nextCursor?, totalCount }`.
 */
export function pagedEnvelope<T>(
  ctx: RequestContext,
  all: readonly T[],
  toJson: (item: T) => unknown,
): Record<string, unknown> {
  const limitText = queryParam(
    ctx,
    "limit",
    string({ pattern: /^[0-9]{1,3}$/, patternMessage: "must be an integer 1–100" }),
  );
  const cursorText = queryParam(
    ctx,
    "cursor",
    string({ pattern: /^[0-9]{1,9}$/, patternMessage: "is not a cursor from this list" }),
  );
  const limit = limitText === undefined ? 20 : Number(limitText);
  if (limit < 1 || limit > 100) {
    throw invalidInput([{ field: "limit", message: "must be between 1 and 100" }]);
  }
  const start = cursorText === undefined ? 0 : Number(cursorText);
  const hasMore = start + limit < all.length;
  return {
    data: all.slice(start, start + limit).map(toJson),
    hasMore,
    ...(hasMore ? { nextCursor: String(start + limit) } : {}),
    totalCount: all.length,
  };
}

function listInternalAccounts(ctx: RequestContext): Response {
  const customerId = queryParam(ctx, "customerId", id("Customer"));
  // Every InternalAccountType: a customer's accounts are all EMBEDDED_WALLET here.
  const type = queryParam(
    ctx,
    "type",
    enumOf(["EMBEDDED_WALLET", "INTERNAL_FIAT", "INTERNAL_CRYPTO"]),
  );
  const currency = queryParam(ctx, "currency", string({ minLength: 1, maxLength: 10 }));
  if (customerId && !ctx.rt.state.customers.has(customerId))
    throw notFound("Customer", customerId, "USER_NOT_FOUND");
  const all = [...ctx.rt.state.accounts.values()]
    .filter((a) => (!customerId || a.customerId === customerId) && (!type || a.type === type))
    .filter((a) => !currency || a.currency.code === currency);
  return json(200, pagedEnvelope(ctx, all, internalAccountJson));
}

const privacySchema = object({ privateEnabled: optional(boolean()) });

/**
 * `PATCH /internal-accounts/{id}` `{ privateEnabled }` (wallet privacy): a signed retry as the
 * export, 202 with a `SIGN_RAW_PAYLOAD_V2` payload naming the change, then the stamped re-send
 * with the same body (a session of the wallet) → 200 InternalAccount with the new setting. No
 * field: 400; a platform account: 400; unknown: 404.
 */
async function updateInternalAccount(ctx: RequestContext): Promise<Response> {
  const { rt } = ctx;
  const accountId = pathId(ctx, "id", "InternalAccount");
  const body = readBody(ctx, privacySchema);
  if (body.privateEnabled === undefined) {
    throw invalidInput([
      { field: "privateEnabled", message: "is the one field to update and is missing" },
    ]);
  }
  const privateEnabled = body.privateEnabled;
  const account = rt.state.accounts.get(accountId);
  if (!account) {
    if (findBalanceAccount(rt, accountId)) {
      throw invalidInput([
        { field: "id", message: "is a platform account, not an EMBEDDED_WALLET" },
      ]);
    }
    throw notFound("Internal account", accountId);
  }
  return runSignedRetry(ctx, {
    operation: "UPDATE_INTERNAL_ACCOUNT",
    payload: () =>
      walletPrivacyPayload(
        ctx,
        { id: account.id, address: sparkAddress(account.id) },
        privateEnabled,
      ),
    allowedKeys: () => sessionKeys(rt, account.id),
    complete: () => {
      account.privateEnabled = privateEnabled;
      account.updatedAt = ctx.now();
      return json(200, internalAccountJson(account));
    },
  });
}

/** `GET /platform/internal-accounts`: `{ data }` of the platform's accounts; `currency`, `type`. */
function listPlatformAccounts(ctx: RequestContext): Response {
  const type = queryParam(
    ctx,
    "type",
    enumOf(["EMBEDDED_WALLET", "INTERNAL_FIAT", "INTERNAL_CRYPTO"]),
  );
  const currency = queryParam(ctx, "currency", string({ minLength: 1, maxLength: 10 }));
  const data = platformAccounts(ctx.rt)
    .filter((a) => (!type || a.type === type) && (!currency || a.currency.code === currency))
    .map(internalAccountJson);
  return json(200, { data });
}

const fundSchema = object({ amount: integer({ min: 1, max: 1e15 }), currency: optional(string()) });

/**
 * `POST /sandbox/internal-accounts/{id}/fund` `{ amount }`: credits the balance (smallest unit)
 * of a wallet or a platform account and records a completed INCOMING transaction. 200
 * InternalAccount.
 */
function fundAccount(ctx: RequestContext): Response {
  const accountId = pathId(ctx, "id", "InternalAccount");
  const body = readBody(ctx, fundSchema);
  const account = findBalanceAccount(ctx.rt, accountId);
  if (!account) throw notFound("Internal account", accountId);
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
    customerId: account.customerId ?? ctx.rt.keys.organizationId,
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

/** Every external account type of the service's ExternalAccountCreateInfoOneOf. */
export const BANK_ACCOUNT_TYPES = [
  "AED_ACCOUNT",
  "BDT_ACCOUNT",
  "BRL_ACCOUNT",
  "BWP_ACCOUNT",
  "CAD_ACCOUNT",
  "CNY_ACCOUNT",
  "COP_ACCOUNT",
  "DKK_ACCOUNT",
  "EGP_ACCOUNT",
  "EUR_ACCOUNT",
  "GBP_ACCOUNT",
  "GHS_ACCOUNT",
  "GTQ_ACCOUNT",
  "HKD_ACCOUNT",
  "HTG_ACCOUNT",
  "IDR_ACCOUNT",
  "INR_ACCOUNT",
  "JMD_ACCOUNT",
  "KES_ACCOUNT",
  "MWK_ACCOUNT",
  "MXN_ACCOUNT",
  "MYR_ACCOUNT",
  "NGN_ACCOUNT",
  "PHP_ACCOUNT",
  "PKR_ACCOUNT",
  "RWF_ACCOUNT",
  "SGD_ACCOUNT",
  "SLV_ACCOUNT",
  "THB_ACCOUNT",
  "TZS_ACCOUNT",
  "UGX_ACCOUNT",
  "USD_ACCOUNT",
  "VND_ACCOUNT",
  "XAF_ACCOUNT",
  "XOF_ACCOUNT",
  "ZAR_ACCOUNT",
  "ZMW_ACCOUNT",
  "SWIFT_ACCOUNT",
] as const;

const address = (test: (a: string) => boolean, what: string) =>
  checkedString(test, `must be ${what}`);

/** The crypto wallets, each with the address check of its chain. */
const WALLET_ADDRESSES: Readonly<Record<string, Schema<string>>> = {
  BASE_WALLET: address(isEvmAddress, "a Base address: 0x and 40 hex digits"),
  ETHEREUM_WALLET: address(isEvmAddress, "an Ethereum address: 0x and 40 hex digits"),
  POLYGON_WALLET: address(isEvmAddress, "a Polygon address: 0x and 40 hex digits"),
  PLASMA_WALLET: address(isEvmAddress, "a Plasma address: 0x and 40 hex digits"),
  SOLANA_WALLET: address(isSolanaAddress, "a Solana address: base58 of 32 bytes"),
  TRON_WALLET: address(isTronAddress, "a Tron address: base58check T… of 21 bytes"),
  SPARK_WALLET: address(isSparkAddress, "a Spark address such as spark1…"),
};

// Bank details and a wallet's beneficiary and custody fields are stored as sent (open objects);
// the type, a wallet's address and a Lightning destination are checked.
const accountInfoSchema = union("accountType", {
  ...Object.fromEntries(
    BANK_ACCOUNT_TYPES.map((t) => [t, object({ accountType: enumOf([t]) }, { open: true })]),
  ),
  ...Object.fromEntries(
    Object.entries(WALLET_ADDRESSES).map(([t, check]) => [
      t,
      object({ accountType: enumOf([t]), address: check }, { open: true }),
    ]),
  ),
  LIGHTNING: object(
    {
      accountType: enumOf(["LIGHTNING"]),
      invoice: optional(string({ minLength: 1 })),
      bolt12: optional(string({ minLength: 1 })),
      lightningAddress: optional(string({ minLength: 3, pattern: /^[^@\s]+@[^@\s]+$/ })),
    },
    { open: true },
  ),
}) as Schema<{ accountType: string } & Record<string, unknown>>;

const externalAccountSchema = object({
  // Absent: the platform's own external account (the service's ExternalAccountCreateRequest).
  customerId: optional(id("Customer")),
  currency: string({
    pattern: /^[A-Z]{3,5}$/,
    patternMessage: "must be a currency code such as USD",
  }),
  platformAccountId: optional(string({ minLength: 1, maxLength: 255 })),
  ownershipType: optional(enumOf(["FIRST_PARTY", "THIRD_PARTY"])),
  defaultUmaDepositAccount: optional(boolean()),
  accountInfo: accountInfoSchema,
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
  const body: Record<string, unknown> = { id: account.id };
  if (account.customerId !== undefined) body.customerId = account.customerId;
  body.currency = account.currency;
  body.status = account.status;
  body.accountInfo = info;
  if (account.platformAccountId !== undefined) body.platformAccountId = account.platformAccountId;
  if (account.ownershipType !== undefined) body.ownershipType = account.ownershipType;
  if (account.defaultUmaDepositAccount !== undefined)
    body.defaultUmaDepositAccount = account.defaultUmaDepositAccount;
  body.createdAt = isoTime(account.createdAt);
  body.updatedAt = isoTime(account.updatedAt);
  return body;
}

/**
 * `POST /customers/external-accounts`: 201 ExternalAccount (`ACTIVE` at once in the emulator).
 * Without `customerId` the account is the platform's own. A Lightning destination names exactly
 * one of `invoice`, `bolt12`, `lightningAddress`.
 */
function createExternalAccount(ctx: RequestContext): Response {
  const body = readBody(ctx, externalAccountSchema);
  if (body.accountInfo.accountType === "LIGHTNING") {
    const named = ["invoice", "bolt12", "lightningAddress"].filter(
      (k) => body.accountInfo[k] !== undefined,
    );
    if (named.length !== 1) {
      throw invalidInput([
        {
          field: "accountInfo",
          message: "must name exactly one of invoice, bolt12, lightningAddress",
        },
      ]);
    }
  }
  if (body.customerId !== undefined && !ctx.rt.state.customers.has(body.customerId))
    throw notFound("Customer", body.customerId, "USER_NOT_FOUND");
  const now = ctx.now();
  const account: ExternalAccountRecord = {
    id: ctx.rt.ids.next("ExternalAccount"),
    customerId: body.customerId,
    currency: body.currency,
    platformAccountId: body.platformAccountId,
    ownershipType: body.ownershipType,
    defaultUmaDepositAccount: body.defaultUmaDepositAccount,
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
  { method: "GET", pattern: "/platform/internal-accounts", handler: listPlatformAccounts },
  {
    method: "PATCH",
    pattern: "/internal-accounts/:id",
    handler: updateInternalAccount,
    body: privacySchema,
  },
  {
    method: "POST",
    pattern: "/sandbox/internal-accounts/:id/fund",
    handler: fundAccount,
    body: fundSchema,
  },
  {
    method: "POST",
    pattern: "/customers/external-accounts",
    handler: createExternalAccount,
    body: externalAccountSchema,
  },
  { method: "GET", pattern: "/customers/external-accounts", handler: listExternalAccounts },
];
