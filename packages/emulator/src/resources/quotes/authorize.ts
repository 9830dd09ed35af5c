// `POST /quotes/{quoteId}/authorize` and its `/resend` (docs/protocol.md §9): an SCA customer's
// executed quote is released by authorizing each challenge in turn, with the sandbox SMS code or
// their SCA passkey; refused proofs count towards 429 and the lock (../sca.ts keeps the
// customer's SCA state).
import { type AssertionResponseJson, verifyScaPasskeyAssertion } from "../../auth/passkeys.js";
import { expectNoBody, pathId, type RequestContext, readBody } from "../../http/context.js";
import { invalidInput, rateLimited, ServiceError } from "../../http/errors.js";
import { json, noContent } from "../../http/responses.js";
import type { Route } from "../../http/router.js";
import type { Runtime } from "../../runtime.js";
import type { QuoteRecord, ScaChallengeRecord } from "../../state.js";
import { nullable, object, optional, string } from "../../validation.js";
import {
  clearFailures,
  countFailure,
  hasScaSession,
  isLocked,
  lockedError,
  newChallenge,
  requiresSca,
  SCA_SMS_CODE,
} from "../sca.js";
import { quoteJson, quoteNotFound } from "./quote.js";

/** Refused proofs of one challenge from which the answer is 429 instead of 400. */
const RATE_LIMIT_AFTER = 3;
const RETRY_AFTER_SECONDS = 30;
/** SMS resends allowed per challenge per minute. */
const RESENDS_PER_MINUTE = 3;

const authorizationSchema = object({
  code: optional(nullable(string({ minLength: 1, maxLength: 64 }))),
  passkeyAssertion: optional(nullable(object({}, { open: true }))),
  origin: optional(nullable(string({ minLength: 1, maxLength: 2048 }))),
  endUserIpAddress: optional(nullable(string({ minLength: 1, maxLength: 64 }))),
});

/** The quote, refused with 409 unless it waits on an SCA challenge of an SCA customer. */
function pendingQuote(ctx: RequestContext): QuoteRecord & { sca: NonNullable<QuoteRecord["sca"]> } {
  const quoteId = pathId(ctx, "quoteId", "Quote");
  const quote = ctx.rt.state.quotes.get(quoteId);
  if (!quote) throw quoteNotFound(quoteId);
  if (!requiresSca(ctx.rt, quote.customerId)) {
    throw new ServiceError(409, "CONFLICT", "SCA is not required for this customer.");
  }
  if (quote.status !== "PENDING_AUTHORIZATION" || !quote.sca) {
    throw new ServiceError(409, "CONFLICT", "The quote has no pending challenge to authorize.");
  }
  return quote as QuoteRecord & { sca: NonNullable<QuoteRecord["sca"]> };
}

/**
 * Counts a refused proof and answers it: 400 at first, 429 (`Retry-After`) from the
 * RATE_LIMIT_AFTER-th refusal of the challenge, 423 once the customer reaches a lock milestone.
 */
function refuse(
  rt: Runtime,
  quote: QuoteRecord,
  challenge: ScaChallengeRecord,
  reason: string,
): ServiceError {
  const lock = countFailure(rt, quote.customerId);
  challenge.failures += 1;
  if (isLocked(rt, quote.customerId)) return lockedError(lock);
  if (challenge.failures >= RATE_LIMIT_AFTER) {
    return rateLimited(
      RETRY_AFTER_SECONDS * 1000,
      "Too many authorization attempts for this challenge.",
      "SCA_ATTEMPTS_EXCEEDED",
    );
  }
  return invalidInput(
    [{ field: "authorization", message: reason }],
    "Invalid or expired authorization proof.",
  );
}

/**
 * `POST /quotes/{quoteId}/authorize` (platform auth): 200 Quote, still `PENDING_AUTHORIZATION`
 * with the next challenge, or released (`PROCESSING`, the transaction settling). 400 invalid or
 * expired proof; 409 `CONFLICT` (not an SCA customer, nothing pending); 423 `ACCOUNT_LOCKED`;
 * 409 `SCA_SESSION_REQUIRED` (no SCA session: judged before the proof, the challenge stays
 * usable); 429 `RATE_LIMITED`; 404 `QUOTE_NOT_FOUND`.
 */
async function authorize(ctx: RequestContext): Promise<Response> {
  const { rt } = ctx;
  const quote = pendingQuote(ctx);
  const body = readBody(ctx, authorizationSchema);
  const code = body.code ?? undefined;
  const assertion = body.passkeyAssertion ?? undefined;
  if ((code === undefined) === (assertion === undefined)) {
    throw invalidInput([
      { field: "body", message: "must carry exactly one of code and passkeyAssertion" },
    ]);
  }
  if (assertion !== undefined && !body.origin) {
    throw invalidInput([{ field: "origin", message: "is required with passkeyAssertion" }]);
  }
  const now = ctx.now();
  const locked = isLocked(rt, quote.customerId);
  if (locked) throw lockedError(locked);
  if (rt.options.requireScaLogin && !hasScaSession(rt, quote.customerId)) {
    throw new ServiceError(
      409,
      "SCA_SESSION_REQUIRED",
      "The customer has no SCA session: complete an SCA login (POST /sca/login/start, /sca/login/complete), then authorize again.",
    );
  }
  const challenge = quote.sca.challenge;
  if (now >= challenge.expiresAt) {
    throw invalidInput(
      [{ field: "authorization", message: "the challenge has expired" }],
      "Invalid or expired authorization proof.",
    );
  }
  if (challenge.factor === "SMS_OTP") {
    if (code === undefined) {
      throw invalidInput([{ field: "code", message: "is required for an SMS_OTP challenge" }]);
    }
    if (code !== SCA_SMS_CODE) throw refuse(rt, quote, challenge, "the code is not valid");
  } else {
    if (assertion === undefined || !challenge.passkey) {
      throw invalidInput([
        { field: "passkeyAssertion", message: "is required for a PASSKEY challenge" },
      ]);
    }
    const passkey = rt.state.scaFactors.get(quote.customerId)?.passkey;
    const failure = await verifyScaPasskeyAssertion(rt, {
      assertion: assertion as AssertionResponseJson,
      challenge: challenge.passkey.challenge,
      origin: body.origin as string,
      passkey:
        passkey && challenge.passkey.credentialIds.includes(passkey.credentialId)
          ? passkey
          : undefined,
    });
    if (failure !== undefined) throw refuse(rt, quote, challenge, failure);
  }
  clearFailures(rt, quote.customerId);
  quote.sca.endUserIpAddresses.push(body.endUserIpAddress ?? null);
  const [next, ...rest] = quote.sca.remaining;
  if (next !== undefined) {
    quote.sca = { ...quote.sca, remaining: rest, challenge: newChallenge(rt, quote, next) };
  } else {
    release(rt, quote, now);
  }
  return json(200, quoteJson(rt, quote));
}

/** The last authorization: the transfer starts and settles `settlementDelayMs` later. */
function release(rt: Runtime, quote: QuoteRecord, now: number): void {
  quote.status = "PROCESSING";
  const tx = quote.transactionId ? rt.state.transactions.get(quote.transactionId) : undefined;
  if (tx) {
    tx.pendingAuthorization = false;
    tx.settlesAt = now + rt.options.settlementDelayMs;
  }
}

/**
 * `POST /quotes/{quoteId}/authorize/resend`: 204; the challenge and its expiry stay. 409 for a
 * PASSKEY challenge or nothing pending; 429 after RESENDS_PER_MINUTE in a minute.
 */
function resend(ctx: RequestContext): Response {
  const quote = pendingQuote(ctx);
  expectNoBody(ctx);
  const challenge = quote.sca.challenge;
  if (challenge.factor !== "SMS_OTP") {
    throw new ServiceError(409, "CONFLICT", "This challenge has no code to re-send.");
  }
  const now = ctx.now();
  challenge.resends = challenge.resends.filter((at) => now - at < 60_000);
  if (challenge.resends.length >= RESENDS_PER_MINUTE) {
    throw rateLimited(
      challenge.resends[0]! + 60_000 - now,
      "The code was re-sent too often.",
      "SCA_RESEND_RATE_LIMITED",
    );
  }
  challenge.resends.push(now);
  return noContent();
}

/** The authorization routes of a quote waiting on SCA. */
export const authorizeRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/quotes/:quoteId/authorize",
    handler: authorize,
    body: authorizationSchema,
  },
  { method: "POST", pattern: "/quotes/:quoteId/authorize/resend", handler: resend },
];
