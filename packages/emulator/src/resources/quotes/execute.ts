// `POST /quotes/{id}/execute` (docs/protocol.md §3, §9, §12): a wallet's quote executes under a
// stamp over its `payloadToSign`, idempotent by `Idempotency-Key`; an SCA customer's then waits
// for authorization (./authorize.ts); a platform account's executes without a stamp.
import { faultError } from "../../faults.js";
import { pathId, type RequestContext, readBody } from "../../http/context.js";
import { invalidInput, ServiceError } from "../../http/errors.js";
import { json, processing } from "../../http/responses.js";
import type { Route } from "../../http/router.js";
import { checkStamp, SIGNATURE_HEADER } from "../../signedRetry.js";
import type { QuoteRecord } from "../../state.js";
import { enumOf, object, optional } from "../../validation.js";
import { findBalanceAccount, getAccount } from "../accounts/account.js";
import { isTrustedBeneficiary } from "../accounts/trust.js";
import {
  checkExecuteFactor,
  checkExecuteSession,
  holdForAuthorization,
  requiresSca,
} from "../sca.js";
import { sessionKeys } from "../sessions.js";
import { insufficientFunds, quoteJson, quoteNotFound, startTransfer } from "./quote.js";

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
  // docs/protocol.md §9: an SCA customer's transfer waits for their authorization, unless it
  // goes to a beneficiary they trusted ("future sends to it can skip the per-transaction SCA").
  if (sca && !isTrustedBeneficiary(ctx, quote.customerId, quote.destination.accountId)) {
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

export const executeQuoteRoute: Route = {
  method: "POST",
  pattern: "/quotes/:id/execute",
  handler: executeQuote,
  body: executeSchema,
};
