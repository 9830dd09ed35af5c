// `POST /sandbox/internal-accounts/{id}/fund`: the sandbox credits an account.
import { pathId, type RequestContext, readBody } from "../../http/context.js";
import { invalidInput, notFound } from "../../http/errors.js";
import { json } from "../../http/responses.js";
import type { Route } from "../../http/router.js";
import { integer, object, optional, string } from "../../validation.js";
import { findBalanceAccount, internalAccountJson } from "./account.js";

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

export const fundAccountRoute: Route = {
  method: "POST",
  pattern: "/sandbox/internal-accounts/:id/fund",
  handler: fundAccount,
  body: fundSchema,
};
