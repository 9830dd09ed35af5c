// The lists of internal accounts: a customer's wallets (`GET /customers/internal-accounts`, and
// `GET /internal-accounts`) and the platform's own (`GET /platform/internal-accounts`).
import { queryParam, type RequestContext } from "../../http/context.js";
import { notFound } from "../../http/errors.js";
import { pagedEnvelope } from "../../http/lists.js";
import { json } from "../../http/responses.js";
import type { Route } from "../../http/router.js";
import { enumOf, id, string } from "../../validation.js";
import { internalAccountJson, platformAccounts } from "./account.js";

/** `GET /customers/internal-accounts` (and `/internal-accounts`): one page of the customer's wallets. */
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

export const internalAccountRoutes: Route[] = [
  { method: "GET", pattern: "/customers/internal-accounts", handler: listInternalAccounts },
  { method: "GET", pattern: "/internal-accounts", handler: listInternalAccounts },
  { method: "GET", pattern: "/platform/internal-accounts", handler: listPlatformAccounts },
];
