// docs/protocol.md §9 (Strong Customer Authentication): customers of an EU/EEA region authorize a
// wallet payment after execute, one challenge per step (a cross-currency send: the conversion,
// then the payout), with the sandbox SMS code or a passkey of theirs; bad proofs lead to 429 and
// then a 423 lock. The transfer starts only when the last challenge is authorized, and only while
// the customer has an SCA session (./scaLogin.ts opens one). The factor is the one the execute
// asked for (`ExecuteQuoteRequest.scaFactor`); PASSKEY needs the customer's SCA passkey, enrolled
// through /sca/factors (their wallet sign-in passkeys do not count).

import { type AssertionResponseJson, verifyScaPasskeyAssertion } from "../auth/passkeys.js";
import { isoTime } from "../clock.js";
import { base64urlEncode } from "../crypto/index.js";
import { expectNoBody, pathId, type RequestContext, readBody } from "../http/context.js";
import { invalidInput, rateLimited, ServiceError } from "../http/errors.js";
import { json, noContent } from "../http/responses.js";
import type { Route } from "../http/router.js";
import type { Runtime } from "../runtime.js";
import type {
  QuoteRecord,
  ScaChallengeRecord,
  ScaFactor,
  ScaFactorsRecord,
  ScaLockRecord,
} from "../state.js";
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
const RETRY_AFTER_SECONDS = 30;
/**
 * The service's lockout milestones (RecordSecurityEventRequest): 5 failed attempts lock 15
 * minutes, 6 → 30 minutes, 7 → 1 hour, 8 → 24 hours, 9 or more suspend (no automatic expiry).
 */
const LOCK_MILESTONES: readonly [number, number][] = [
  [5, 15 * 60_000],
  [6, 30 * 60_000],
  [7, 60 * 60_000],
  [8, 24 * 60 * 60_000],
];
const SUSPEND_AT = 9;
/** SMS resends allowed per challenge per minute. */
const RESENDS_PER_MINUTE = 3;

/** Whether the customer's region requires SCA (the `region`, else the address's country). */
export function requiresSca(rt: Runtime, customerId: string): boolean {
  return inScaRegion(rt.state.customers.get(customerId)?.fields ?? {});
}

/** Whether customer fields place the customer in an EU/EEA region. */
export function inScaRegion(fields: Record<string, unknown>): boolean {
  const address = fields.address as { country?: unknown } | undefined;
  const region = typeof fields.region === "string" ? fields.region : address?.country;
  return typeof region === "string" && SCA_REGIONS.has(region);
}

/** The customer's SCA factors record (created empty). */
export function scaFactorsOf(rt: Runtime, customerId: string): ScaFactorsRecord {
  let record = rt.state.scaFactors.get(customerId);
  if (!record) {
    record = { totp: false, passkey: undefined };
    rt.state.scaFactors.set(customerId, record);
  }
  return record;
}

/** Opaque WebAuthn options in the shape `passkeyOptionsShape` asks for. */
export function passkeyOptions(rt: Runtime, options: Record<string, unknown>) {
  return rt.options.passkeyOptionsShape === "publicKey" ? { publicKey: options } : options;
}

/** The `PublicKeyCredentialRequestOptionsJSON` for an assertion by the customer's SCA passkey. */
export function assertionOptions(rt: Runtime, challenge: string, credentialId: string) {
  return passkeyOptions(rt, {
    challenge,
    rpId: rt.options.rpId,
    allowCredentials: [{ id: credentialId, type: "public-key" }],
    userVerification: "required",
    timeout: 60_000,
  });
}

function newChallenge(rt: Runtime, quote: QuoteRecord, purpose: string | undefined) {
  const passkey = rt.state.scaFactors.get(quote.customerId)?.passkey;
  const availableFactors: ScaFactor[] = passkey ? ["SMS_OTP", "PASSKEY"] : ["SMS_OTP"];
  const usePasskey = quote.scaFactor === "PASSKEY" && passkey !== undefined;
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
      credentialIds: [passkey.credentialId],
    };
  }
  return challenge;
}

/**
 * The execute's `scaFactor` for a wallet quote of an SCA customer: PASSKEY needs the customer's
 * SCA passkey (400 `INVALID_INPUT`, `reason: "SCA_FACTOR_NOT_ENROLLED"` otherwise).
 */
export function checkExecuteFactor(rt: Runtime, customerId: string, factor: ScaFactor): void {
  if (factor === "PASSKEY" && !rt.state.scaFactors.get(customerId)?.passkey) {
    throw new ServiceError(
      400,
      "INVALID_INPUT",
      "scaFactor PASSKEY needs a passkey enrolled for SCA (POST /sca/factors).",
      {
        reason: "SCA_FACTOR_NOT_ENROLLED",
        errors: [{ field: "scaFactor", message: "the customer has no passkey enrolled for SCA" }],
      },
    );
  }
}

/**
 * With `requireScaSessionAtExecute`, an SCA customer's execute needs an SCA session: 409
 * `SCA_SESSION_REQUIRED` otherwise, before anything is executed or remembered.
 */
export function checkExecuteSession(rt: Runtime, customerId: string): void {
  if (rt.options.requireScaSessionAtExecute && !hasScaSession(rt, customerId)) {
    throw new ServiceError(
      409,
      "SCA_SESSION_REQUIRED",
      "The customer has no SCA session: complete an SCA login (POST /sca/login/start, /sca/login/complete), then execute again.",
    );
  }
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
    body.passkeyAssertionOptions = assertionOptions(
      rt,
      challenge.passkey.challenge,
      challenge.passkey.credentialIds[0]!,
    );
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

/** 423 `ACCOUNT_LOCKED` for a lock record. */
export function lockedError(lock: ScaLockRecord): ServiceError {
  return new ServiceError(423, "ACCOUNT_LOCKED", "Too many failed authentications: try later.", {
    lockedUntil:
      lock.suspended || lock.lockedUntil === undefined ? null : isoTime(lock.lockedUntil),
    failedAttempts: lock.failedAttempts,
    suspended: lock.suspended,
  });
}

/** The customer's lock record (created with no failure). */
export function lockOf(rt: Runtime, customerId: string): ScaLockRecord {
  let lock = rt.state.scaLogins.get(customerId);
  if (!lock) {
    lock = { failedAttempts: 0, lockedUntil: undefined, suspended: false };
    rt.state.scaLogins.set(customerId, lock);
  }
  return lock;
}

/** Whether the customer is locked now (suspended, or a lock not yet over). */
export function isLocked(rt: Runtime, customerId: string): ScaLockRecord | undefined {
  const lock = rt.state.scaLogins.get(customerId);
  if (!lock) return undefined;
  if (lock.suspended) return lock;
  return lock.lockedUntil !== undefined && rt.clock.now() < lock.lockedUntil ? lock : undefined;
}

/**
 * Counts one failed attempt (a refused SCA proof, or a `FAILED_LOGIN_ATTEMPT` event) and applies
 * the lockout milestone it reaches. The count stays after a lock ends (the next failure escalates);
 * a successful proof or `RESET_PASSWORD_COMPLETED` clears it.
 */
export function countFailure(rt: Runtime, customerId: string): ScaLockRecord {
  const lock = lockOf(rt, customerId);
  lock.failedAttempts += 1;
  if (lock.failedAttempts >= SUSPEND_AT) {
    lock.suspended = true;
    lock.lockedUntil = undefined;
  } else {
    const milestone = LOCK_MILESTONES.find(([at]) => at === lock.failedAttempts);
    if (milestone) lock.lockedUntil = rt.clock.now() + milestone[1];
  }
  return lock;
}

/** Clears the failed count after a successful proof (a suspension stays until a reset). */
export function clearFailures(rt: Runtime, customerId: string): void {
  const lock = rt.state.scaLogins.get(customerId);
  if (lock && !lock.suspended) rt.state.scaLogins.delete(customerId);
}

/** Whether the customer has an SCA session now. */
export function hasScaSession(rt: Runtime, customerId: string): boolean {
  const until = rt.state.scaSessions.get(customerId);
  return until !== undefined && rt.clock.now() < until;
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
