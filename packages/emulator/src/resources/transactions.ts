// Transactions: created by quote execute (OUTGOING), sandbox funding (INCOMING, settled at once)
// and `POST /sandbox/send` (the funds an instruction-funded quote asked for); one that is not
// settled yet settles `settlementDelayMs` of emulator time later, crediting an internal
// destination then.
import { isoTime } from "../clock.js";
import { pathId, queryParam, type RequestContext } from "../http/context.js";
import { invalidInput, ServiceError } from "../http/errors.js";
import { pagedEnvelope } from "../http/lists.js";
import { json } from "../http/responses.js";
import type { Route } from "../http/router.js";
import type { Runtime } from "../runtime.js";
import type { TransactionRecord } from "../state.js";
import { enumOf, string } from "../validation.js";
import { findBalanceAccount } from "./accounts/account.js";

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

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function dateParam(ctx: RequestContext, name: string): number | undefined {
  const text = queryParam(
    ctx,
    name,
    string({
      pattern: DATE_TIME,
      format: "date-time",
      patternMessage: "must be an ISO 8601 date-time",
    }),
  );
  if (text === undefined) return undefined;
  const time = Date.parse(text);
  if (Number.isNaN(time))
    throw invalidInput([{ field: name, message: "is not a valid date-time" }]);
  return time;
}

/** The status a transaction reports now. */
function statusOf(tx: TransactionRecord): string {
  return tx.settled
    ? "COMPLETED"
    : tx.pendingAuthorization
      ? "PENDING_AUTHORIZATION"
      : "PROCESSING";
}

/**
 * `GET /transactions`, the spec's parameters only: `customerId`, `platformCustomerId`,
 * `accountIdentifier` (source or destination account id), `senderAccountIdentifier`,
 * `receiverAccountIdentifier`, `status`, `type`, `reference` (no emulator transaction carries
 * one: a match for nothing), `startDate` / `endDate` (inclusive, on `createdAt`), `sortOrder`
 * (`desc` by default, by `createdAt`), paged by `limit` (1–100, 20) and `cursor`.
 */
function listTransactions(ctx: RequestContext): Response {
  const { rt } = ctx;
  settleDueTransactions(rt);
  const text = (name: string) => queryParam(ctx, name, string({ minLength: 1, maxLength: 255 }));
  const customerId = text("customerId");
  const platformCustomerId = text("platformCustomerId");
  const account = text("accountIdentifier");
  const sender = text("senderAccountIdentifier");
  const receiver = text("receiverAccountIdentifier");
  const reference = text("reference");
  const status = queryParam(ctx, "status", enumOf([...TRANSACTION_STATUSES]));
  const type = queryParam(ctx, "type", enumOf(["INCOMING", "OUTGOING"]));
  const startDate = dateParam(ctx, "startDate");
  const endDate = dateParam(ctx, "endDate");
  const sortOrder = queryParam(ctx, "sortOrder", enumOf(["asc", "desc"])) ?? "desc";
  const platformIdOf = (tx: TransactionRecord) => {
    const fields = rt.state.customers.get(tx.customerId)?.fields;
    return typeof fields?.platformCustomerId === "string"
      ? fields.platformCustomerId
      : tx.customerId;
  };
  const all = [...rt.state.transactions.values()]
    .filter((t) => customerId === undefined || t.customerId === customerId)
    .filter((t) => platformCustomerId === undefined || platformIdOf(t) === platformCustomerId)
    .filter(
      (t) =>
        account === undefined ||
        t.sourceAccountId === account ||
        t.destinationAccountId === account,
    )
    .filter((t) => sender === undefined || t.sourceAccountId === sender)
    .filter((t) => receiver === undefined || t.destinationAccountId === receiver)
    .filter(() => reference === undefined)
    .filter((t) => status === undefined || statusOf(t) === status)
    .filter((t) => type === undefined || t.type === type)
    .filter((t) => startDate === undefined || t.createdAt >= startDate)
    .filter((t) => endDate === undefined || t.createdAt <= endDate)
    .map((t, i) => ({ t, i }))
    .sort((a, b) =>
      sortOrder === "asc"
        ? a.t.createdAt - b.t.createdAt || a.i - b.i
        : b.t.createdAt - a.t.createdAt || b.i - a.i,
    )
    .map(({ t }) => t);
  return json(
    200,
    pagedEnvelope(ctx, all, (tx) => transactionJson(rt, tx)),
  );
}

/** Every TransactionStatus of the spec (the filter accepts each; the emulator reaches three). */
const TRANSACTION_STATUSES = [
  "CREATED",
  "PENDING",
  "PENDING_AUTHORIZATION",
  "PROCESSING",
  "COMPLETED",
  "REJECTED",
  "FAILED",
  "REFUNDED",
  "EXPIRED",
] as const;

/** Transaction routes. */
export const transactionRoutes: Route[] = [
  { method: "GET", pattern: "/transactions/:id", handler: getTransaction },
  { method: "GET", pattern: "/transactions", handler: listTransactions },
];
