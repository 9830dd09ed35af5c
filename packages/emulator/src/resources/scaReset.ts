// docs/protocol.md §9 (SCA factor reset): a customer who lost an enrolled factor recovers it
// through a liveness-gated reset (`POST /sca/factors/reset` → `TwoFactorResetStart`, polled with
// `GET /sca/factors/reset/{resetId}` → `TwoFactorResetStatus`, finished with
// `POST /sca/factors/reset/{resetId}/complete` → 204). The emulator has no liveness vendor: the
// review passes by itself `livenessDelayMs` after the start (INITIATED for the first half,
// PENDING_REVIEW for the second), and no `verificationLink` is returned (the OpenAPI omits it
// "when one is not returned"). A completed reset clears the lost factor (TOTP, the SCA passkey) or,
// for SMS_OTP, enrolls the new mobile number. Starts are limited to 5 per 24 hours per customer.
import { isoTime } from "../clock.js";
import { base64urlEncode } from "../crypto/index.js";
import { type RequestContext, readBody } from "../http/context.js";
import { invalidInput, notFound, ServiceError } from "../http/errors.js";
import { json, noContent } from "../http/responses.js";
import type { Route } from "../http/router.js";
import { assertUnderLimit, recordEvent } from "../rateLimit.js";
import type { ScaFactor, ScaResetRecord } from "../state.js";
import { enumOf, object, optional, string } from "../validation.js";
import { hasPhone, scaCustomer } from "./scaLogin.js";

/** How long a reset stays open (`TwoFactorResetStatus.expiresAt`). */
const RESET_WINDOW_MS = 15 * 60_000;
/** "Reset initiation is rate-limited to 5 per 24 hours per customer". */
const START_LIMIT = { max: 5, windowMs: 24 * 60 * 60_000 };

const startSchema = object({ factor: enumOf(["SMS_OTP", "TOTP", "PASSKEY"]) });

/**
 * `POST /sca/factors/reset?customerId=` `{ factor }` → 201 `TwoFactorResetStart`. A factor the
 * customer has not enrolled: 400 ("Invalid or unknown factor"); a sixth start in 24 hours: 429.
 */
function startReset(ctx: RequestContext): Response {
  const { rt } = ctx;
  const customer = scaCustomer(ctx);
  const { factor } = readBody(ctx, startSchema);
  const record = rt.state.scaFactors.get(customer.id);
  const enrolled =
    factor === "SMS_OTP"
      ? hasPhone(customer)
      : factor === "TOTP"
        ? record?.totp !== undefined
        : record?.passkey !== undefined;
  if (!enrolled) {
    throw new ServiceError(400, "INVALID_INPUT", `The customer has no ${factor} factor to reset.`, {
      reason: "SCA_FACTOR_NOT_ENROLLED",
      errors: [{ field: "factor", message: `${factor} is not enrolled for this customer` }],
    });
  }
  const now = ctx.now();
  assertUnderLimit(
    rt.state.scaResetStarts,
    customer.id,
    now,
    START_LIMIT,
    "Too many reset attempts: 5 per 24 hours.",
    "SCA_RESET_LIMIT",
  );
  recordEvent(rt.state.scaResetStarts, customer.id, now);
  const reset: ScaResetRecord = {
    id: rt.ids.next("TwoFactorReset"),
    customerId: customer.id,
    factor: factor as ScaFactor,
    startedAt: now,
    expiresAt: now + RESET_WINDOW_MS,
    passesAt: now + rt.options.livenessDelayMs,
    completedAt: undefined,
  };
  rt.state.scaResets.set(reset.id, reset);
  return json(201, {
    resetId: reset.id,
    livenessAccessToken: base64urlEncode(rt.ids.entropy("liveness-token", 24)),
    expiresAt: isoTime(reset.expiresAt),
  });
}

/** The customer's reset named in the path: another customer's or none is 404. */
function resetOf(ctx: RequestContext): ScaResetRecord {
  const customer = scaCustomer(ctx);
  const resetId = ctx.params.resetId ?? "";
  const reset = ctx.rt.state.scaResets.get(resetId);
  if (!reset || reset.customerId !== customer.id) throw notFound("Reset", resetId.slice(0, 100));
  return reset;
}

function statusOf(ctx: RequestContext, reset: ScaResetRecord) {
  const now = ctx.now();
  if (reset.completedAt !== undefined) return "COMPLETED";
  if (now >= reset.expiresAt) return "EXPIRED";
  if (now >= reset.passesAt) return "LIVENESS_PASSED";
  return now >= (reset.startedAt + reset.passesAt) / 2 ? "PENDING_REVIEW" : "INITIATED";
}

/**
 * The replacement factor's enrolment: null for SMS_OTP (completing enrolls the number), else
 * PENDING until the customer enrolled that factor again after the reset completed.
 */
function enrollmentStatus(ctx: RequestContext, reset: ScaResetRecord): string | null {
  if (reset.factor === "SMS_OTP") return null;
  const record = ctx.rt.state.scaFactors.get(reset.customerId);
  const again = reset.factor === "TOTP" ? record?.totp : record?.passkey;
  return reset.completedAt !== undefined && again !== undefined ? "COMPLETED" : "PENDING";
}

/** `GET /sca/factors/reset/{resetId}?customerId=` → `TwoFactorResetStatus`. */
function getReset(ctx: RequestContext): Response {
  const reset = resetOf(ctx);
  return json(200, {
    status: statusOf(ctx, reset),
    factor: reset.factor,
    enrollmentStatus: enrollmentStatus(ctx, reset),
    expiresAt: isoTime(reset.expiresAt),
    completedAt: reset.completedAt === undefined ? null : isoTime(reset.completedAt),
  });
}

const completeSchema = object({
  mobile: optional(
    object({
      countryCode: string({ minLength: 2, maxLength: 5, pattern: /^\+[0-9]{1,4}$/ }),
      number: string({ minLength: 4, maxLength: 15, pattern: /^[0-9]+$/ }),
    }),
  ),
});

/**
 * `POST /sca/factors/reset/{resetId}/complete?customerId=` (a body only for SMS_OTP's `mobile`)
 * → 204. Liveness not passed yet, or the reset over: 400; an SMS_OTP reset without `mobile`, or
 * with a number another customer has: 400.
 */
function completeReset(ctx: RequestContext): Response {
  const { rt } = ctx;
  const reset = resetOf(ctx);
  const body = readBody(ctx, completeSchema, {});
  const status = statusOf(ctx, reset);
  if (status !== "LIVENESS_PASSED") {
    throw new ServiceError(
      400,
      "INVALID_INPUT",
      `The reset is not ready to complete (${status}).`,
      {
        reason: "SCA_RESET_NOT_READY",
        errors: [{ field: "resetId", message: `is ${status}, not LIVENESS_PASSED` }],
      },
    );
  }
  const customer = rt.state.customers.get(reset.customerId)!;
  if (reset.factor === "SMS_OTP") {
    if (!body.mobile) throw invalidInput([{ field: "mobile", message: "is required" }]);
    const phone = `${body.mobile.countryCode}${body.mobile.number}`;
    const taken = [...rt.state.customers.values()].some(
      (other) => other.id !== customer.id && other.fields.phoneNumber === phone,
    );
    if (taken) throw invalidInput([{ field: "mobile", message: "belongs to another customer" }]);
    customer.fields.phoneNumber = phone;
    customer.verified.phone = phone;
  } else {
    const record = rt.state.scaFactors.get(customer.id);
    if (record && reset.factor === "TOTP") record.totp = undefined;
    if (record && reset.factor === "PASSKEY") record.passkey = undefined;
  }
  reset.completedAt = ctx.now();
  return noContent();
}

/** SCA factor reset routes. */
export const scaResetRoutes: Route[] = [
  { method: "POST", pattern: "/sca/factors/reset", handler: startReset, body: startSchema },
  { method: "GET", pattern: "/sca/factors/reset/:resetId", handler: getReset },
  {
    method: "POST",
    pattern: "/sca/factors/reset/:resetId/complete",
    handler: completeReset,
    body: completeSchema,
  },
];
