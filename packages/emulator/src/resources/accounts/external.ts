// External accounts (`POST` and `GET /customers/external-accounts`, `GET` and `DELETE …/{id}`):
// every account type of the service's ExternalAccountCreateInfoOneOf, a wallet's address checked by
// its chain, the bank details masked in answers. The OpenAPI: an account "that is currently a
// trusted beneficiary for SCA cannot be deleted" (409 `BENEFICIARY_TRUSTED`: untrust it first).
import { isEvmAddress, isSolanaAddress, isSparkAddress, isTronAddress } from "../../addresses.js";
import { isoTime } from "../../clock.js";
import { queryParam, type RequestContext, readBody } from "../../http/context.js";
import { invalidInput, notFound, ServiceError } from "../../http/errors.js";
import { listEnvelope } from "../../http/lists.js";
import { json, noContent } from "../../http/responses.js";
import type { Route } from "../../http/router.js";
import type { ExternalAccountRecord } from "../../state.js";
import {
  boolean,
  checkedString,
  enumOf,
  id,
  object,
  optional,
  type Schema,
  string,
  union,
} from "../../validation.js";

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

/** The external account in the path: 404 `REFERENCE_NOT_FOUND` for none. */
function accountOf(ctx: RequestContext): ExternalAccountRecord {
  const accountId = ctx.params.externalAccountId ?? "";
  const account = ctx.rt.state.externalAccounts.get(accountId);
  if (!account) throw notFound("ExternalAccount", accountId.slice(0, 100));
  return account;
}

/** `GET /customers/external-accounts/{externalAccountId}` → 200 `ExternalAccount`. */
function getExternalAccount(ctx: RequestContext): Response {
  return json(200, externalAccountJson(accountOf(ctx)));
}

/**
 * `DELETE /customers/external-accounts/{externalAccountId}` → 204; 409 `BENEFICIARY_TRUSTED` while
 * it is a trusted beneficiary ("Untrust it first, then delete"), nothing deleted. A trust started
 * and not confirmed is not a trust: the OpenAPI names only "currently a trusted beneficiary".
 */
function deleteExternalAccount(ctx: RequestContext): Response {
  const account = accountOf(ctx);
  if (account.trusted === true) {
    throw new ServiceError(
      409,
      "BENEFICIARY_TRUSTED",
      "The external account is currently a trusted beneficiary, so it cannot be deleted. Untrust it first, then delete.",
    );
  }
  ctx.rt.state.externalAccounts.delete(account.id);
  return noContent();
}

export const externalAccountRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/customers/external-accounts",
    handler: createExternalAccount,
    body: externalAccountSchema,
  },
  { method: "GET", pattern: "/customers/external-accounts", handler: listExternalAccounts },
  {
    method: "GET",
    pattern: "/customers/external-accounts/:externalAccountId",
    handler: getExternalAccount,
  },
  {
    method: "DELETE",
    pattern: "/customers/external-accounts/:externalAccountId",
    handler: deleteExternalAccount,
  },
];
