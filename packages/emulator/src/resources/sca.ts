// docs/protocol.md §9 (Strong Customer Authentication): customers of an EU/EEA region authorize a
// wallet payment after execute, one challenge per step (a cross-currency send: the conversion,
// then the payout), with the sandbox SMS code or a passkey of theirs; bad proofs lead to 429 and
// then a 423 lock. The transfer starts only when the last challenge is authorized.

import { type AssertionResponseJson, verifyScaPasskeyAssertion } from "../auth/passkeys.js";
import { isoTime } from "../clock.js";
import { base64urlEncode } from "../crypto/index.js";
import { expectNoBody, pathId, type RequestContext, readBody } from "../http/context.js";
import { invalidInput, rateLimited, ServiceError } from "../http/errors.js";
import { json, noContent } from "../http/responses.js";
import type { Route } from "../http/router.js";
import type { Runtime } from "../runtime.js";
import type { QuoteRecord, ScaChallengeRecord, ScaFactor } from "../state.js";
import { nullable, object, optional, string } from "../validation.js";
import { quoteJson, quoteNotFound } from "./quotes.js";

/** The sandbox's SCA SMS code (the wallet OTP code is another one). */
export const SCA_SMS_CODE = "123456";

/** EU member states, then Iceland, Liechtenstein and Norway (ISO 3166-1 alpha-2). */
const SCA_REGIONS: ReadonlySet<string> = new Set(
  (
    "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE " + "IS LI NO"
  ).split(" "),
);

/** Refused proofs of one challenge from which the answer is 429 instead of 400. */
const RATE_LIMIT_AFTER = 3;
/** Refused proofs of one customer (since their last success) that lock their login. */
const LOCK_AFTER = 5;
const RETRY_AFTER_SECONDS = 30;
const LOCK_MS = 15 * 60_000;
/** SMS resends allowed per challenge per minute. */
const RESENDS_PER_MINUTE = 3;

/** Whether the customer's region requires SCA (the `region`, else the address's country). */
export function requiresSca(rt: Runtime, customerId: string): boolean {
  const fields = rt.state.customers.get(customerId)?.fields ?? {};
  const address = fields.address as { country?: unknown } | undefined;
  const region = typeof fields.region === "string" ? fields.region : address?.country;
  return typeof region === "string" && SCA_REGIONS.has(region);
}

/** The WebAuthn credential ids of the customer's passkeys, over all their wallets. */
function customerPasskeys(rt: Runtime, customerId: string): string[] {
  const ids: string[] = [];
  for (const credential of rt.state.credentials.values()) {
    const account = rt.state.accounts.get(credential.accountId);
    if (account?.customerId === customerId && credential.passkey) {
      ids.push(credential.passkey.credentialId);
    }
  }
  return ids;
}

function newChallenge(rt: Runtime, quote: QuoteRecord, purpose: string | undefined) {
  const passkeys = customerPasskeys(rt, quote.customerId);
  const availableFactors: ScaFactor[] = passkeys.length > 0 ? ["SMS_OTP", "PASSKEY"] : ["SMS_OTP"];
  const usePasskey = quote.scaFactor === "PASSKEY" && passkeys.length > 0;
  const challenge: ScaChallengeRecord = {
    id: rt.ids.next("ScaChallenge"),
    factor: usePasskey ? "PASSKEY" : "SMS_OTP",
    availableFactors,
    purpose,
    expiresAt: rt.clock.now() + rt.options.challengeTtlMs,
    resends: [],
    failures: 0,
  };
  if (usePasskey) {
    challenge.passkey = {
      challenge: base64urlEncode(rt.ids.entropy("sca-passkey-challenge", 32)),
      credentialIds: passkeys,
    };
  }
  return challenge;
}

/**
 * Puts an executed quote on hold for SCA: one authorization for a send in one currency, two
 * (`CURRENCY_CONVERSION`, then `PAYOUT`) for a cross-currency one.
 */
export function holdForAuthorization(rt: Runtime, quote: QuoteRecord): void {
  const steps =
    quote.sendingCurrency.code === quote.receivingCurrency.code
      ? [undefined]
      : ["CURRENCY_CONVERSION", "PAYOUT"];
  const [first, ...remaining] = steps;
  quote.status = "PENDING_AUTHORIZATION";
  quote.sca = {
    remaining: remaining as string[],
    challenge: newChallenge(rt, quote, first),
    endUserIpAddresses: [],
  };
}

/** The ScaChallenge JSON of a quote waiting for authorization. */
export function scaChallengeJson(
  rt: Runtime,
  challenge: ScaChallengeRecord,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: challenge.id,
    expiresAt: isoTime(challenge.expiresAt),
    factor: challenge.factor,
    availableFactors: challenge.availableFactors,
  };
  if (challenge.purpose !== undefined) body.purpose = challenge.purpose;
  if (challenge.passkey) {
    body.passkeyAssertionOptions = {
      challenge: challenge.passkey.challenge,
      rpId: rt.options.rpId,
      allowCredentials: challenge.passkey.credentialIds.map((id) => ({ id, type: "public-key" })),
      userVerification: "required",
      timeout: 60_000,
    };
  }
  return body;
}

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

function lockedError(failedAttempts: number, lockedUntil: number): ServiceError {
  return new ServiceError(423, "ACCOUNT_LOCKED", "Too many failed authorizations: try later.", {
    lockedUntil: isoTime(lockedUntil),
    failedAttempts,
    suspended: false,
  });
}

/**
 * Counts a refused proof and answers it: 400 at first, 429 (`Retry-After`) from the
 * RATE_LIMIT_AFTER-th refusal of the challenge, 423 once the customer reaches LOCK_AFTER.
 */
function refuse(
  rt: Runtime,
  quote: QuoteRecord,
  challenge: ScaChallengeRecord,
  reason: string,
): ServiceError {
  const now = rt.clock.now();
  const login = rt.state.scaLogins.get(quote.customerId) ?? {
    failedAttempts: 0,
    lockedUntil: undefined,
  };
  login.failedAttempts += 1;
  challenge.failures += 1;
  rt.state.scaLogins.set(quote.customerId, login);
  if (login.failedAttempts >= LOCK_AFTER) {
    login.lockedUntil = now + LOCK_MS;
    return lockedError(login.failedAttempts, login.lockedUntil);
  }
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
 * 429 `RATE_LIMITED`; 404 `QUOTE_NOT_FOUND`.
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
  const login = rt.state.scaLogins.get(quote.customerId);
  const now = ctx.now();
  if (login?.lockedUntil !== undefined) {
    if (now < login.lockedUntil) throw lockedError(login.failedAttempts, login.lockedUntil);
    rt.state.scaLogins.delete(quote.customerId);
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
    const failure = await verifyScaPasskeyAssertion(rt, {
      assertion: assertion as AssertionResponseJson,
      challenge: challenge.passkey.challenge,
      origin: body.origin as string,
      credentialIds: challenge.passkey.credentialIds,
    });
    if (failure !== undefined) throw refuse(rt, quote, challenge, failure);
  }
  rt.state.scaLogins.delete(quote.customerId);
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

/** SCA routes. */
export const scaRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/quotes/:quoteId/authorize",
    handler: authorize,
    body: authorizationSchema,
  },
  { method: "POST", pattern: "/quotes/:quoteId/authorize/resend", handler: resend },
];
