// docs/protocol.md §9 (Strong Customer Authentication): customers of an EU/EEA region authorize a
// wallet payment after execute, one challenge per step (a cross-currency send: the conversion,
// then the payout), with the sandbox SMS code or a passkey of theirs; bad proofs lead to 429 and
// then a 423 lock. The transfer starts only when the last challenge is authorized, and only while
// the customer has an SCA session (./scaLogin.ts opens one). The factor is the one the execute
// asked for (`ExecuteQuoteRequest.scaFactor`); PASSKEY needs the customer's SCA passkey, enrolled
// through /sca/factors (their wallet sign-in passkeys do not count). This file keeps the customer's
// SCA state (region, factors, challenges, failures and locks, SCA session); the routes that
// authorize a quote are ./quotes/authorize.ts.

import { isoTime } from "../clock.js";
import { base64urlEncode } from "../crypto/index.js";
import { ServiceError } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import type {
  QuoteRecord,
  ScaChallengeRecord,
  ScaFactor,
  ScaFactorsRecord,
  ScaLockRecord,
} from "../state.js";

/** The sandbox's SCA SMS code (the wallet OTP code is another one). */
export const SCA_SMS_CODE = "123456";

/** EU member states, then Iceland, Liechtenstein and Norway (ISO 3166-1 alpha-2). */
const SCA_REGIONS: ReadonlySet<string> = new Set(
  (
    "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE " + "IS LI NO"
  ).split(" "),
);

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
    record = { totp: undefined, passkey: undefined };
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

/** A new challenge for the quote's next authorization step (`purpose`), by the execute's factor. */
export function newChallenge(rt: Runtime, quote: QuoteRecord, purpose: string | undefined) {
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
