// docs/protocol.md §13: the SCA factors a customer enrols (`/sca/factors`: SMS_OTP implicit with a
// phone, TOTP with the sandbox code, one passkey), the SCA login that opens the customer's SCA
// session (`/sca/login/*`), and the security events that revoke it or count toward a lock
// (`/sca/record-event`). Every route takes `customerId` in the query and answers 409 `CONFLICT`
// for a customer outside an SCA region.
import {
  type AssertionResponseJson,
  type RegistrationResponseJson,
  verifyScaPasskeyAssertion,
  verifyScaPasskeyRegistration,
} from "../auth/passkeys.js";
import { isoTime } from "../clock.js";
import { base32Encode, fromHex } from "../crypto/encoding.js";
import { base64urlEncode, sha256Hex, toHex } from "../crypto/index.js";
import { verifyTotp } from "../crypto/totp.js";
import { type RequestContext, readBody } from "../http/context.js";
import { invalidInput, notFound, ServiceError } from "../http/errors.js";
import { json, noContent } from "../http/responses.js";
import type { Route } from "../http/router.js";
import type { Runtime } from "../runtime.js";
import type { CustomerRecord, ScaFactor } from "../state.js";
import { enumOf, idPattern, nullable, object, optional, string, union } from "../validation.js";
import {
  assertionOptions,
  clearFailures,
  countFailure,
  isLocked,
  lockedError,
  lockOf,
  passkeyOptions,
  requiresSca,
  SCA_SMS_CODE,
  scaFactorsOf,
} from "./sca.js";

/**
 * Whether `code` proves the customer's TOTP factor (or the enrolment's secret): a real RFC 6238
 * code of the secret at the emulator's time, or the sandbox's code ("In sandbox, the TOTP code is
 * always `123456`", which the service's sandbox documents).
 */
export function isTotpCode(rt: Runtime, secret: Uint8Array, code: string): boolean {
  return code === SCA_SMS_CODE || verifyTotp(secret, code, rt.clock.now());
}

/**
 * The SCA customer named by the required `customerId` query parameter. Missing or malformed: 400
 * where the operation documents one (the POSTs), else 404 (GET and DELETE document none).
 */
export function scaCustomer(ctx: RequestContext): CustomerRecord {
  const customerId = ctx.query.get("customerId");
  if (customerId === null || !idPattern("Customer").test(customerId)) {
    if (ctx.method !== "POST")
      throw notFound("Customer", customerId ?? undefined, "USER_NOT_FOUND");
    throw invalidInput([
      customerId === null
        ? { field: "customerId", message: "is required" }
        : {
            field: "customerId",
            message: "must be an id of the form Customer:<uuid>",
            constraint: { pattern: idPattern("Customer").source },
          },
    ]);
  }
  const customer = ctx.rt.state.customers.get(customerId);
  if (!customer) throw notFound("Customer", customerId, "USER_NOT_FOUND");
  if (!requiresSca(ctx.rt, customerId)) {
    throw new ServiceError(409, "CONFLICT", "SCA is not required for this customer.");
  }
  return customer;
}

function factorNotEnrolled(field: string, factor: string): ServiceError {
  return new ServiceError(400, "INVALID_INPUT", `The customer has no ${factor} factor.`, {
    reason: "SCA_FACTOR_NOT_ENROLLED",
    errors: [{ field, message: `${factor} is not enrolled for this customer` }],
  });
}

export function hasPhone(customer: CustomerRecord): boolean {
  return typeof customer.fields.phoneNumber === "string" && customer.fields.phoneNumber !== "";
}

/** `GET /sca/factors?customerId=`: `{ factors }` (SMS_OTP with a phone, TOTP, the passkey). */
function listFactors(ctx: RequestContext): Response {
  const customer = scaCustomer(ctx);
  const record = ctx.rt.state.scaFactors.get(customer.id);
  const factors: Record<string, unknown>[] = [];
  if (hasPhone(customer)) factors.push({ factor: "SMS_OTP" });
  if (record?.totp) factors.push({ factor: "TOTP" });
  if (record?.passkey) factors.push(passkeyView(record.passkey));
  return json(200, { factors });
}

function passkeyView(passkey: { credentialId: string; name?: string }) {
  return {
    factor: "PASSKEY",
    credentialId: passkey.credentialId,
    ...(passkey.name !== undefined ? { name: passkey.name } : {}),
  };
}

const enrollSchema = union("type", {
  TOTP: object({ type: enumOf(["TOTP"]) }),
  PASSKEY: object({ type: enumOf(["PASSKEY"]) }),
});

/**
 * `POST /sca/factors?customerId=` `{ type }`: TOTP → `TotpEnrollmentStart` (a fresh secret);
 * PASSKEY → `PasskeyEnrollmentStart` (`PublicKeyCredentialCreationOptionsJSON`, the emulator's
 * origins and RP ID). A second passkey: 409 `PASSKEY_ALREADY_ENROLLED`.
 */
function startEnrollment(ctx: RequestContext): Response {
  const { rt } = ctx;
  const customer = scaCustomer(ctx);
  const body = readBody(ctx, enrollSchema);
  const record = scaFactorsOf(rt, customer.id);
  const expiresAt = ctx.now() + rt.options.challengeTtlMs;
  if (body.type === "TOTP") {
    if (record.totp) {
      throw new ServiceError(409, "CONFLICT", "A TOTP factor is already enrolled.", {
        reason: "TOTP_ALREADY_ENROLLED",
      });
    }
    const secretBytes = rt.ids.entropy("sca-totp-secret", 20);
    const secret = toHex(secretBytes);
    const secretBase32Encoded = base32Encode(secretBytes);
    rt.state.scaEnrollments.set(`${customer.id}|TOTP`, { challenge: secret, expiresAt });
    const label = encodeURIComponent(`Grid:${String(customer.fields.email ?? customer.id)}`);
    return json(200, {
      type: "TOTP",
      secret,
      secretBase32Encoded,
      totpUri: `otpauth://totp/${label}?secret=${secretBase32Encoded}&issuer=Grid`,
    });
  }
  if (record.passkey) {
    throw new ServiceError(
      409,
      "PASSKEY_ALREADY_ENROLLED",
      "The customer already has a passkey for SCA; delete it before enrolling another.",
    );
  }
  const challenge = base64urlEncode(rt.ids.entropy("sca-enrol-challenge", 32));
  rt.state.scaEnrollments.set(`${customer.id}|PASSKEY`, { challenge, expiresAt });
  const name = String(customer.fields.email ?? customer.fields.phoneNumber ?? customer.id);
  return json(200, {
    type: "PASSKEY",
    options: passkeyOptions(rt, {
      challenge,
      rp: { id: rt.options.rpId, name: "Signet emulator (SCA)" },
      user: {
        id: base64urlEncode(sha256Hex(`sca-user|${customer.id}`).slice(0, 32)),
        name,
        displayName: name,
      },
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      timeout: 60_000,
      attestation: "none",
      excludeCredentials: [],
      authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
    }),
    allowedOrigins: [...rt.options.origins],
    relyingPartyId: rt.options.rpId,
  });
}

const confirmSchema = union("type", {
  TOTP: object({
    type: enumOf(["TOTP"]),
    secret: string({ minLength: 1, maxLength: 256 }),
    code: string({ minLength: 1, maxLength: 16 }),
  }),
  PASSKEY: object({
    type: enumOf(["PASSKEY"]),
    origin: string({ minLength: 1, maxLength: 2048 }),
    credential: object({}, { open: true }),
  }),
});

function enrolmentRefused(field: string, message: string, reason: string): ServiceError {
  return new ServiceError(400, "INVALID_INPUT", `${field} ${message}`, {
    reason,
    errors: [{ field, message }],
  });
}

/**
 * `POST /sca/factors/confirm?customerId=`: TOTP `{ secret, code }` (the started secret, code
 * 123456) → `{ type, recoveryCodes }`; PASSKEY `{ origin, credential }` (a standard
 * `RegistrationResponseJSON` for the started options, verified) →
 * `{ type, factor: { factor, credentialId, name? } }`. Nothing started (or lapsed) or a proof
 * that does not verify: 400; a passkey already enrolled: 409 `PASSKEY_ALREADY_ENROLLED`.
 */
async function confirmEnrollment(ctx: RequestContext): Promise<Response> {
  const { rt } = ctx;
  const customer = scaCustomer(ctx);
  const body = readBody(ctx, confirmSchema);
  const record = scaFactorsOf(rt, customer.id);
  const key = `${customer.id}|${body.type}`;
  const started = rt.state.scaEnrollments.get(key);
  if (body.type === "PASSKEY" && record.passkey) {
    throw new ServiceError(
      409,
      "PASSKEY_ALREADY_ENROLLED",
      "The customer already has a passkey for SCA; delete it before enrolling another.",
    );
  }
  if (!started || ctx.now() >= started.expiresAt) {
    throw enrolmentRefused(
      "type",
      "has no enrolment in progress (start one with POST /sca/factors)",
      "SCA_ENROLLMENT_NOT_STARTED",
    );
  }
  if (body.type === "TOTP") {
    if (body.secret !== started.challenge) {
      throw enrolmentRefused(
        "secret",
        "is not the secret of this enrolment",
        "TOTP_SECRET_MISMATCH",
      );
    }
    const secret = fromHex(started.challenge) ?? new Uint8Array();
    if (!isTotpCode(rt, secret, body.code)) {
      throw enrolmentRefused("code", "is not valid", "TOTP_CODE_INVALID");
    }
    rt.state.scaEnrollments.delete(key);
    record.totp = { secret };
    const codes = Array.from({ length: 8 }, (_, i) =>
      sha256Hex(`recovery|${customer.id}|${started.challenge}|${i}`)
        .slice(0, 12)
        .toUpperCase()
        .replace(/(.{4})(.{4})(.{4})/, "$1-$2-$3"),
    );
    return json(200, { type: "TOTP", recoveryCodes: codes });
  }
  const registered = await verifyScaPasskeyRegistration(rt, {
    credential: body.credential as RegistrationResponseJson,
    challenge: started.challenge,
    origin: body.origin,
  });
  if (typeof registered === "string") {
    throw enrolmentRefused("credential", registered, "PASSKEY_REGISTRATION_INVALID");
  }
  rt.state.scaEnrollments.delete(key);
  record.passkey = { ...registered, name: "Passkey" };
  return json(200, { type: "PASSKEY", factor: passkeyView(record.passkey) });
}

/** `DELETE /sca/factors/{credentialId}?customerId=`: 204; not the customer's passkey: 404. */
function deleteFactor(ctx: RequestContext): Response {
  const customer = scaCustomer(ctx);
  const credentialId = ctx.params.credentialId ?? "";
  const record = ctx.rt.state.scaFactors.get(customer.id);
  if (!record?.passkey || record.passkey.credentialId !== credentialId) {
    throw notFound("SCA factor", credentialId.slice(0, 100));
  }
  record.passkey = undefined;
  return noContent();
}

const loginStartSchema = object({ factor: enumOf(["SMS_OTP", "TOTP", "PASSKEY"]) });

/**
 * `POST /sca/login/start?customerId=` `{ factor }` → `ScaLoginStart`: SMS_OTP (the customer has a
 * phone) `{ factor, challengeId, expiresAt }`, code 123456; TOTP (enrolled) `{ factor }`; PASSKEY
 * (enrolled) `{ factor, passkeyOptions, allowedOrigins, relyingPartyId }`. A factor the customer
 * lacks: 400 `SCA_FACTOR_NOT_ENROLLED`. A new start replaces the previous one.
 */
function startLogin(ctx: RequestContext): Response {
  const { rt } = ctx;
  const customer = scaCustomer(ctx);
  const { factor } = readBody(ctx, loginStartSchema);
  const record = rt.state.scaFactors.get(customer.id);
  if (factor === "SMS_OTP" && !hasPhone(customer)) throw factorNotEnrolled("factor", factor);
  if (factor === "TOTP" && !record?.totp) throw factorNotEnrolled("factor", factor);
  if (factor === "PASSKEY" && !record?.passkey) throw factorNotEnrolled("factor", factor);
  const expiresAt = ctx.now() + rt.options.challengeTtlMs;
  const start = {
    factor: factor as ScaFactor,
    challengeId: factor === "SMS_OTP" ? rt.ids.next("ScaChallenge") : undefined,
    passkeyChallenge:
      factor === "PASSKEY" ? base64urlEncode(rt.ids.entropy("sca-login-challenge", 32)) : undefined,
    expiresAt,
  };
  rt.state.scaLoginStarts.set(customer.id, start);
  if (factor === "SMS_OTP") {
    return json(200, { factor, challengeId: start.challengeId, expiresAt: isoTime(expiresAt) });
  }
  if (factor === "TOTP") return json(200, { factor });
  return json(200, {
    factor,
    passkeyOptions: assertionOptions(rt, start.passkeyChallenge!, record!.passkey!.credentialId),
    allowedOrigins: [...rt.options.origins],
    relyingPartyId: rt.options.rpId,
  });
}

const loginCompleteSchema = object({
  factor: enumOf(["SMS_OTP", "TOTP", "PASSKEY"]),
  endUserIpAddress: string({ minLength: 1, maxLength: 64 }),
  challengeId: optional(nullable(string({ minLength: 1, maxLength: 100 }))),
  code: optional(nullable(string({ minLength: 1, maxLength: 64 }))),
  passkeyAssertion: optional(nullable(object({}, { open: true }))),
  origin: optional(nullable(string({ minLength: 1, maxLength: 2048 }))),
});

/**
 * `POST /sca/login/complete?customerId=` → `{ status: "SUCCESS", sessionExpiresAt }`: the
 * customer's SCA session lasts `scaSessionTtlMs`. Locked: 423 before anything is judged. No login
 * started, another factor, an expired start or a wrong `challengeId`: 400 (not counted). A wrong
 * code or an assertion that does not verify: 400, counted toward the lock (423 at a milestone).
 */
async function completeLogin(ctx: RequestContext): Promise<Response> {
  const { rt } = ctx;
  const customer = scaCustomer(ctx);
  const body = readBody(ctx, loginCompleteSchema);
  const code = body.code ?? undefined;
  const assertion = body.passkeyAssertion ?? undefined;
  if (body.factor === "PASSKEY") {
    const errors = [];
    if (assertion === undefined) errors.push({ field: "passkeyAssertion", message: "is required" });
    if (!body.origin)
      errors.push({ field: "origin", message: "is required with passkeyAssertion" });
    if (errors.length > 0) throw invalidInput(errors);
  } else if (code === undefined) {
    throw invalidInput([{ field: "code", message: `is required for ${body.factor}` }]);
  }
  const locked = isLocked(rt, customer.id);
  if (locked) throw lockedError(locked);
  const start = rt.state.scaLoginStarts.get(customer.id);
  const now = ctx.now();
  if (!start || start.factor !== body.factor || now >= start.expiresAt) {
    throw new ServiceError(400, "INVALID_INPUT", "No SCA login with this factor is in progress.", {
      reason: "SCA_LOGIN_NOT_STARTED",
      errors: [
        {
          field: "factor",
          message: "has no login in progress (start one with POST /sca/login/start)",
        },
      ],
    });
  }
  if (body.factor === "SMS_OTP" && body.challengeId !== start.challengeId) {
    throw invalidInput([
      { field: "challengeId", message: "is not the challenge of the login in progress" },
    ]);
  }
  let failure: string | undefined;
  if (body.factor === "PASSKEY") {
    failure = await verifyScaPasskeyAssertion(rt, {
      assertion: assertion as AssertionResponseJson,
      challenge: start.passkeyChallenge!,
      origin: body.origin!,
      passkey: rt.state.scaFactors.get(customer.id)?.passkey,
    });
  } else if (
    body.factor === "TOTP"
      ? !isTotpCode(
          rt,
          rt.state.scaFactors.get(customer.id)?.totp?.secret ?? new Uint8Array(),
          code!,
        )
      : code !== SCA_SMS_CODE
  ) {
    failure = "the code is not valid";
  }
  if (failure !== undefined) {
    const lock = countFailure(rt, customer.id);
    if (isLocked(rt, customer.id)) throw lockedError(lock);
    throw new ServiceError(400, "INVALID_INPUT", "Invalid or expired login proof.", {
      errors: [
        { field: body.factor === "PASSKEY" ? "passkeyAssertion" : "code", message: failure },
      ],
      failedAttempts: lock.failedAttempts,
    });
  }
  rt.state.scaLoginStarts.delete(customer.id);
  clearFailures(rt, customer.id);
  const sessionExpiresAt = now + rt.options.scaSessionTtlMs;
  rt.state.scaSessions.set(customer.id, sessionExpiresAt);
  return json(200, { status: "SUCCESS", sessionExpiresAt: isoTime(sessionExpiresAt) });
}

const recordEventSchema = object({
  eventType: enumOf(["RESET_PASSWORD_COMPLETED", "FAILED_LOGIN_ATTEMPT"]),
});

/**
 * `POST /sca/record-event?customerId=` `{ eventType }` → 200 `RecordSecurityEventResponse`
 * (always 200, the lock it leads to in the body). `RESET_PASSWORD_COMPLETED` ends the customer's
 * SCA session and clears the failed count, lock and suspension; `FAILED_LOGIN_ATTEMPT` counts one
 * failure (the lockout milestones of ./sca.ts).
 */
function recordEvent(ctx: RequestContext): Response {
  const { rt } = ctx;
  const customer = scaCustomer(ctx);
  const { eventType } = readBody(ctx, recordEventSchema);
  if (eventType === "RESET_PASSWORD_COMPLETED") {
    rt.state.scaSessions.delete(customer.id);
    rt.state.scaLogins.delete(customer.id);
  } else {
    countFailure(rt, customer.id);
  }
  const lock = lockOf(rt, customer.id);
  const locked = isLocked(rt, customer.id);
  const body = {
    eventType,
    suspended: lock.suspended,
    lockedUntil:
      locked && !lock.suspended && lock.lockedUntil !== undefined
        ? isoTime(lock.lockedUntil)
        : null,
    failedAttempts: lock.failedAttempts,
  };
  if (lock.failedAttempts === 0) rt.state.scaLogins.delete(customer.id);
  return json(200, body);
}

/** SCA factor, login and security-event routes. */
export const scaLoginRoutes: Route[] = [
  { method: "GET", pattern: "/sca/factors", handler: listFactors },
  { method: "POST", pattern: "/sca/factors", handler: startEnrollment, body: enrollSchema },
  {
    method: "POST",
    pattern: "/sca/factors/confirm",
    handler: confirmEnrollment,
    body: confirmSchema,
  },
  { method: "DELETE", pattern: "/sca/factors/:credentialId", handler: deleteFactor },
  { method: "POST", pattern: "/sca/login/start", handler: startLogin, body: loginStartSchema },
  {
    method: "POST",
    pattern: "/sca/login/complete",
    handler: completeLogin,
    body: loginCompleteSchema,
  },
  { method: "POST", pattern: "/sca/record-event", handler: recordEvent, body: recordEventSchema },
];
