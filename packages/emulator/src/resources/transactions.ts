// Transactions: created by quote execute (OUTGOING), sandbox funding (INCOMING, settled at once)
// and `POST /sandbox/send` (the funds an instruction-funded quote asked for); one that is not
// settled yet settles `settlementDelayMs` of emulator time later, crediting an internal
// destination then.
import { isoTime } from "../clock.js";
import { pathId, queryParam, type RequestContext } from "../http/context.js";
import { ServiceError } from "../http/errors.js";
import { json } from "../http/responses.js";
import type { Route } from "../http/router.js";
import type { Runtime } from "../runtime.js";
import type { TransactionRecord } from "../state.js";
import { id } from "../validation.js";
import { findBalanceAccount, listEnvelope } from "./accounts.js";

/** Applies every settlement that is due by emulator time (credits internal destinations). */
export function settleDueTransactions(rt: Runtime): void {
  const now = rt.clock.now();
  for (const tx of rt.state.transactions.values()) {
    if (tx.settled || tx.pendingAuthorization || now < tx.settlesAt) continue;
    tx.settled = true;
    // A wallet or platform destination is credited (an external one is outside the ledger).
    const destination = findBalanceAccount(rt, tx.destinationAccountId);
    if (destination) {
      destination.balance += tx.receivedAmount;
      destination.updatedAt = tx.settlesAt;
    }
    const quote = tx.quoteId ? rt.state.quotes.get(tx.quoteId) : undefined;
    if (quote) quote.status = "COMPLETED";
  }
}

/** The Transaction JSON (`direction`: the wallet's side of it, DEBIT out and CREDIT in). */
export function transactionJson(rt: Runtime, tx: TransactionRecord): Record<string, unknown> {
  const platformCustomerId = rt.state.customers.get(tx.customerId)?.fields.platformCustomerId;
  const body: Record<string, unknown> = {
    id: tx.id,
    status: tx.settled
      ? "COMPLETED"
      : tx.pendingAuthorization
        ? "PENDING_AUTHORIZATION"
        : "PROCESSING",
    type: tx.type,
    direction: tx.type === "OUTGOING" ? "DEBIT" : "CREDIT",
    customerId: tx.customerId,
    platformCustomerId: typeof platformCustomerId === "string" ? platformCustomerId : tx.customerId,
  };
  if (tx.quoteId) body.quoteId = tx.quoteId;
  if (tx.source) body.source = tx.source;
  else if (tx.sourceAccountId)
    body.source = { sourceType: "ACCOUNT", accountId: tx.sourceAccountId };
  body.destination = { destinationType: "ACCOUNT", accountId: tx.destinationAccountId };
  body.sentAmount = { amount: tx.amount, currency: tx.currency };
  body.receivedAmount = { amount: tx.receivedAmount, currency: tx.receivedCurrency };
  if (tx.description !== undefined) body.description = tx.description;
  body.createdAt = isoTime(tx.createdAt);
  body.updatedAt = isoTime(tx.settled ? tx.settlesAt : tx.createdAt);
  if (tx.settled) body.settledAt = isoTime(tx.settlesAt);
  return body;
}

function getTransaction(ctx: RequestContext): Response {
  const txId = pathId(ctx, "id", "Transaction");
  const tx = ctx.rt.state.transactions.get(txId);
  if (!tx)
    throw new ServiceError(404, "TRANSACTION_NOT_FOUND", "Transaction not found.", { id: txId });
  return json(200, transactionJson(ctx.rt, tx));
}

/** `GET /transactions`: list envelope, filters `customerId` and `accountId` (source or destination). */
function listTransactions(ctx: RequestContext): Response {
  const customerId = queryParam(ctx, "customerId", id("Customer"));
  const accountId = queryParam(ctx, "accountId", id("InternalAccount"));
  const data = [...ctx.rt.state.transactions.values()]
    .filter((t) => !customerId || t.customerId === customerId)
    .filter(
      (t) => !accountId || t.sourceAccountId === accountId || t.destinationAccountId === accountId,
    )
    .map((tx) => transactionJson(ctx.rt, tx));
  return json(200, listEnvelope(data));
}

/** Transaction routes. */
export const transactionRoutes: Route[] = [
  { method: "GET", pattern: "/transactions/:id", handler: getTransaction },
  { method: "GET", pattern: "/transactions", handler: listTransactions },
];
