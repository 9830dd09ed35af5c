// `POST /sandbox/send` (docs/protocol.md §12): the funds an instruction-funded quote asks for
// arrive, as the service's sandbox delivers them.
import { type RequestContext, readBody } from "../../http/context.js";
import { ServiceError } from "../../http/errors.js";
import { json } from "../../http/responses.js";
import type { Route } from "../../http/router.js";
import { id, integer, object, optional, string } from "../../validation.js";
import { findBalanceAccount } from "../accounts/account.js";
import { transactionJson } from "../transactions.js";
import { CURRENCY_CODE, quoteNotFound, recordTransfer } from "./quote.js";

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

export const sandboxSendRoute: Route = {
  method: "POST",
  pattern: "/sandbox/send",
  handler: sandboxSend,
  body: sandboxSendSchema,
};
