// Customers (spec "Customers"; docs/protocol.md §3): create (with a provisioned wallet), read, list,
// and PATCH, which is a signed retry when it changes a contact tied to an OTP credential.
import { isoTime } from "../clock.js";
import {
  expectNoBody,
  pathId,
  queryParam,
  type RequestContext,
  readBody,
} from "../http/context.js";
import { invalidInput, notFound, ServiceError } from "../http/errors.js";
import { pagedEnvelope } from "../http/lists.js";
import { json, noContent } from "../http/responses.js";
import type { Route } from "../http/router.js";
import { contactPayload } from "../payloads.js";
import type { Runtime } from "../runtime.js";
import { runSignedRetry, signedHeaders } from "../signedRetry.js";
import type { CredentialRecord, CustomerRecord } from "../state.js";
import { anyJson, enumOf, object, optional, string } from "../validation.js";
import { provisionWallet } from "./accounts/account.js";
import { createCredential } from "./credentials.js";
import { inScaRegion } from "./sca.js";
import { sessionKeys } from "./sessions.js";

/** An email address as the emulator accepts one (a customer's, a contact change's value). */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An E.164 phone number (a customer's, a contact change's value). */
export const E164 = /^\+[1-9][0-9]{1,14}$/;
const COUNTRY = /^[A-Z]{2}$/;
const DATE = /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/;

const fields = {
  platformCustomerId: optional(string({ minLength: 1, maxLength: 255 })),
  region: optional(string({ pattern: COUNTRY, format: "iso3166-1-alpha-2" })),
  email: optional(
    string({
      maxLength: 254,
      pattern: EMAIL,
      format: "email",
      patternMessage: "must be an email address",
    }),
  ),
  phoneNumber: optional(
    string({
      pattern: E164,
      format: "e.164",
      patternMessage: "must be an E.164 number such as +14155550100",
    }),
  ),
  fullName: optional(string({ minLength: 1, maxLength: 255 })),
  birthDate: optional(
    string({ pattern: DATE, format: "date", patternMessage: "must be a date YYYY-MM-DD" }),
  ),
  nationality: optional(string({ pattern: COUNTRY, format: "iso3166-1-alpha-2" })),
  umaAddress: optional(string({ minLength: 1, maxLength: 255 })),
  businessLegalName: optional(string({ minLength: 1, maxLength: 255 })),
  address: optional(
    object({
      // The service's Address: line1, postalCode and country required.
      line1: string({ minLength: 1 }),
      line2: optional(string()),
      city: optional(string()),
      state: optional(string()),
      postalCode: string({ minLength: 1 }),
      country: string({ pattern: COUNTRY, format: "iso3166-1-alpha-2" }),
    }),
  ),
  endUserTermsConsent: optional(object({}, { open: true })),
  // Enhanced due diligence fields are stored as sent.
  enhancedDueDiligence: optional(anyJson()),
  // The rest of the service's CustomerCreateRequest / CustomerUpdateRequest (both customer
  // types): accepted and stored as sent; none changes what the emulator does (KYC stays
  // APPROVED whatever `kycStatus`/`kybStatus` say).
  ...Object.fromEntries(
    [
      "currencies",
      "kycStatus",
      "kybStatus",
      "idType",
      "identifier",
      "countryOfIssuance",
      "sourceOfFundsCategories",
      "sourceOfFundsOtherDescription",
      "sourceOfWealthCategories",
      "sourceOfWealthOtherDescription",
      "purposeOfAccount",
      "purposeOfAccountOtherDescription",
      "expectedMonthlyTransactionCount",
      "expectedMonthlyTransactionVolume",
      "annualIncomeRange",
      "netWorthRange",
      "pepStatus",
      "businessInfo",
    ].map((name) => [name, optional(anyJson())]),
  ),
};

const createSchema = object({ customerType: enumOf(["INDIVIDUAL", "BUSINESS"]), ...fields });
// The spec's CustomerUpdateRequest requires `customerType` (its oneOf discriminator).
const patchSchema = object({
  customerType: enumOf(["INDIVIDUAL", "BUSINESS"]),
  ...fields,
});

/**
 * `contactVerification` (docs/protocol.md §13): only for customers of an SCA region (EU/EEA),
 * one channel per contact the customer has (`email`, `phone`), `VERIFIED` while the contact is
 * the one confirmed, else `PENDING` (a changed contact needs verifying again).
 */
function contactVerification(customer: CustomerRecord): Record<string, string> | undefined {
  if (!inScaRegion(customer.fields)) return undefined;
  const out: Record<string, string> = {};
  const { email, phoneNumber } = customer.fields;
  if (typeof email === "string") {
    out.email = customer.verified.email === email ? "VERIFIED" : "PENDING";
  }
  if (typeof phoneNumber === "string") {
    out.phone = customer.verified.phone === phoneNumber ? "VERIFIED" : "PENDING";
  }
  return out;
}

/**
 * The Customer JSON. The service always states `platformCustomerId` and `umaAddress`: when the
 * platform gave none, the emulator derives them from the id.
 */
export function customerJson(customer: CustomerRecord): Record<string, unknown> {
  const short = customer.id.slice(customer.id.indexOf(":") + 1, customer.id.indexOf(":") + 9);
  const contact = contactVerification(customer);
  return {
    id: customer.id,
    platformCustomerId: customer.id,
    umaAddress: `$customer-${short}@emulator.signet.test`,
    ...customer.fields,
    kycStatus: "APPROVED",
    ...(contact ? { contactVerification: contact } : {}),
    createdAt: isoTime(customer.createdAt),
    updatedAt: isoTime(customer.updatedAt),
  };
}

/** The customer, or 404 `USER_NOT_FOUND`. */
export function getCustomerRecord(rt: Runtime, customerId: string): CustomerRecord {
  const customer = rt.state.customers.get(customerId);
  if (!customer) throw notFound("Customer", customerId, "USER_NOT_FOUND");
  return customer;
}

/**
 * `POST /customers`: 201 Customer, KYC approved at once; provisions an `EMBEDDED_WALLET` account
 * in USDB and, when the customer has an email, one `EMAIL_OTP` credential whose nickname is it.
 */
function createCustomer(ctx: RequestContext): Response {
  const body = readBody(ctx, createSchema);
  const now = ctx.now();
  const customer: CustomerRecord = {
    id: ctx.rt.ids.next("Customer"),
    fields: { ...body },
    verified: {},
    createdAt: now,
    updatedAt: now,
  };
  ctx.rt.state.customers.set(customer.id, customer);
  const wallet = provisionWallet(ctx.rt, customer.id);
  if (body.email) {
    createCredential(ctx.rt, { accountId: wallet.id, type: "EMAIL_OTP", nickname: body.email });
  }
  return json(201, customerJson(customer));
}

function getCustomer(ctx: RequestContext): Response {
  return json(200, customerJson(getCustomerRecord(ctx.rt, pathId(ctx, "id", "Customer"))));
}

/** `GET /customers`: list envelope, filters `email`, `platformCustomerId`, `limit` (1–100), `cursor`. */
function listCustomers(ctx: RequestContext): Response {
  const email = queryParam(ctx, "email", string());
  const platformCustomerId = queryParam(ctx, "platformCustomerId", string());
  const all = [...ctx.rt.state.customers.values()].filter(
    (c) =>
      (email === undefined || String(c.fields.email ?? "").toLowerCase() === email.toLowerCase()) &&
      (platformCustomerId === undefined || c.fields.platformCustomerId === platformCustomerId),
  );
  return json(200, pagedEnvelope(ctx, all, customerJson));
}

/** The OTP credentials of that type on the customer's wallets (tied to its contact). */
export function tiedCredentials(
  rt: Runtime,
  customerId: string,
  type: "EMAIL_OTP" | "SMS_OTP",
): CredentialRecord[] {
  return [...rt.state.credentials.values()].filter(
    (c) => c.type === type && rt.state.accounts.get(c.accountId)?.customerId === customerId,
  );
}

/** What the contact-change challenge was issued for: the tied credentials and their wallets. */
type ContactChange = { credentialIds: string[]; accountIds: string[] };

/**
 * `PATCH /customers/{id}`: 200 Customer. Changing `email` while an `EMAIL_OTP` credential is tied,
 * or `phoneNumber` while an `SMS_OTP` one is, is a signed retry (202 → 200) stamped by a session
 * on a tied wallet (one holding such a credential); the contact and every tied credential's
 * nickname change together. Both contacts in one request: 400. An email used by another
 * customer's EMAIL_OTP credential: 409 `EMAIL_OTP_EMAIL_ALREADY_EXISTS`. The tied credentials
 * differ on the retry from those the 202 was issued for (one added or revoked in between): 409
 * `EMAIL_OTP_CREDENTIAL_SET_CHANGED`, nothing changed.
 */
async function patchCustomer(ctx: RequestContext): Promise<Response> {
  const { rt } = ctx;
  const customerId = pathId(ctx, "id", "Customer");
  const body = readBody(ctx, patchSchema);
  if (body.email !== undefined && body.phoneNumber !== undefined) {
    throw invalidInput(
      [
        { field: "email", message: "cannot change together with phoneNumber" },
        { field: "phoneNumber", message: "cannot change together with email" },
      ],
      "email and phoneNumber must be changed in separate requests.",
    );
  }
  if (Object.keys(body).length === 0)
    throw invalidInput([{ field: "body", message: "names no field to update" }]);
  const customer = getCustomerRecord(rt, customerId);
  if (
    customer.fields.customerType !== undefined &&
    body.customerType !== customer.fields.customerType
  ) {
    throw invalidInput([
      {
        field: "customerType",
        message: `must be ${String(customer.fields.customerType)}, the customer's type (it cannot change)`,
      },
    ]);
  }
  const emailChanges = body.email !== undefined && body.email !== customer.fields.email;
  const phoneChanges =
    body.phoneNumber !== undefined && body.phoneNumber !== customer.fields.phoneNumber;
  const check = () => {
    if (emailChanges && body.email) {
      const wanted = body.email.toLowerCase();
      const taken = [...rt.state.credentials.values()].some(
        (c) =>
          c.type === "EMAIL_OTP" &&
          c.nickname.toLowerCase() === wanted &&
          rt.state.accounts.get(c.accountId)?.customerId !== customerId,
      );
      if (taken) {
        throw new ServiceError(
          409,
          "EMAIL_OTP_EMAIL_ALREADY_EXISTS",
          "Another wallet's EMAIL_OTP credential uses this email.",
        );
      }
    }
    if (phoneChanges && body.phoneNumber) {
      const wanted = body.phoneNumber;
      const taken =
        [...rt.state.customers.values()].some(
          (c) => c.id !== customerId && c.fields.phoneNumber === wanted,
        ) ||
        [...rt.state.credentials.values()].some(
          (c) =>
            c.type === "SMS_OTP" &&
            c.nickname === wanted &&
            rt.state.accounts.get(c.accountId)?.customerId !== customerId,
        );
      if (taken) {
        // The service's 409 list has no phone code: CONFLICT, with the reason in details.
        throw new ServiceError(409, "CONFLICT", "Another customer uses this phone number.", {
          reason: "PHONE_NUMBER_ALREADY_EXISTS",
        });
      }
    }
  };
  check();
  const tied = () => [
    ...(emailChanges ? tiedCredentials(rt, customerId, "EMAIL_OTP") : []),
    ...(phoneChanges ? tiedCredentials(rt, customerId, "SMS_OTP") : []),
  ];
  const apply = () => {
    const now = ctx.now();
    customer.fields = { ...customer.fields, ...body };
    customer.updatedAt = now;
    for (const credential of tied()) {
      credential.nickname = credential.type === "EMAIL_OTP" ? body.email! : body.phoneNumber!;
      credential.updatedAt = now;
    }
    return json(200, customerJson(customer));
  };
  const current = tied();
  const { signature, requestId } = signedHeaders(ctx);
  // A retry (signed headers) always goes through the signed-retry checks, even when the tied
  // credentials are gone by now: it then answers EMAIL_OTP_CREDENTIAL_SET_CHANGED, never a silent 200.
  if (current.length === 0 && signature === null && requestId === null) return apply();
  const change: ContactChange = {
    credentialIds: current.map((c) => c.id).sort(),
    accountIds: [...new Set(current.map((c) => c.accountId))],
  };
  return runSignedRetry(ctx, {
    operation: "UPDATE_CUSTOMER_CONTACT",
    // One payload per contact change; it names the first tied wallet's enclave user.
    payload: () =>
      contactPayload(
        ctx,
        change.accountIds[0] ?? customerId,
        emailChanges ? { email: body.email! } : { phoneNumber: body.phoneNumber! },
      ),
    data: change,
    allowedKeys: (pending) =>
      (pending.data as ContactChange).accountIds.flatMap((a) => sessionKeys(rt, a)),
    complete: ({ pending }) => {
      check();
      const issued = (pending.data as ContactChange).credentialIds;
      const now = tied()
        .map((c) => c.id)
        .sort();
      if (now.length !== issued.length || now.some((id, i) => id !== issued[i])) {
        throw new ServiceError(
          409,
          "EMAIL_OTP_CREDENTIAL_SET_CHANGED",
          "The tied OTP credentials changed since the challenge; start the update again.",
        );
      }
      return apply();
    },
  });
}

/** The sandbox contact verification code. */
const CONTACT_CODE = "123456";

type Channel = { name: "email" | "phone"; field: "email" | "phoneNumber" };
const EMAIL_CHANNEL: Channel = { name: "email", field: "email" };
const PHONE_CHANNEL: Channel = { name: "phone", field: "phoneNumber" };

/** The customer and the contact of a channel that still needs verifying; 409 otherwise. */
function pendingChannel(ctx: RequestContext, channel: Channel) {
  const customer = getCustomerRecord(ctx.rt, pathId(ctx, "id", "Customer"));
  const status = contactVerification(customer)?.[channel.name];
  if (status === undefined) {
    throw new ServiceError(
      409,
      "CONFLICT",
      `The customer's ${channel.name} needs no verification (not an EU/EEA customer, or no ${channel.field}).`,
      { reason: "CONTACT_VERIFICATION_NOT_REQUIRED" },
    );
  }
  if (status === "VERIFIED") {
    throw new ServiceError(409, "CONFLICT", `The customer's ${channel.name} is already verified.`, {
      reason: "CONTACT_ALREADY_VERIFIED",
    });
  }
  return { customer, contact: customer.fields[channel.field] as string };
}

/** `POST /customers/{id}/verify-email|phone`: 204, a code "sent" (sandbox `123456`); re-POST resends. */
function sendContactCode(channel: Channel) {
  return (ctx: RequestContext): Response => {
    expectNoBody(ctx);
    const { customer, contact } = pendingChannel(ctx, channel);
    ctx.rt.state.contactCodes.set(
      `${customer.id}|${channel.name}|${contact}`,
      ctx.now() + ctx.rt.options.challengeTtlMs,
    );
    return noContent();
  };
}

const confirmContactSchema = object({ code: string({ minLength: 1, maxLength: 64 }) });

/**
 * `POST /customers/{id}/verify-email|phone/confirm` `{ code }` → 200 Customer with the channel
 * `VERIFIED`. No code sent for this contact, or it lapsed (`challengeTtlMs`), or a wrong code: 400.
 */
function confirmContactCode(channel: Channel) {
  return (ctx: RequestContext): Response => {
    const { code } = readBody(ctx, confirmContactSchema);
    const { customer, contact } = pendingChannel(ctx, channel);
    const key = `${customer.id}|${channel.name}|${contact}`;
    const expiresAt = ctx.rt.state.contactCodes.get(key);
    if (expiresAt === undefined || ctx.now() >= expiresAt) {
      throw new ServiceError(400, "INVALID_INPUT", "No verification code is outstanding.", {
        reason: "VERIFICATION_CODE_NOT_SENT",
        errors: [
          { field: "code", message: `no code was sent for this ${channel.name}, or it expired` },
        ],
      });
    }
    if (code !== CONTACT_CODE) {
      throw invalidInput(
        [{ field: "code", message: "is not valid" }],
        "Invalid verification code.",
      );
    }
    ctx.rt.state.contactCodes.delete(key);
    customer.verified[channel.name] = contact;
    customer.updatedAt = ctx.now();
    return json(200, customerJson(customer));
  };
}

/** Customer routes. */
export const customerRoutes: Route[] = [
  { method: "POST", pattern: "/customers", handler: createCustomer, body: createSchema },
  { method: "GET", pattern: "/customers", handler: listCustomers },
  { method: "GET", pattern: "/customers/:id", handler: getCustomer },
  { method: "PATCH", pattern: "/customers/:id", handler: patchCustomer, body: patchSchema },
  {
    method: "POST",
    pattern: "/customers/:id/verify-email",
    handler: sendContactCode(EMAIL_CHANNEL),
  },
  {
    method: "POST",
    pattern: "/customers/:id/verify-phone",
    handler: sendContactCode(PHONE_CHANNEL),
  },
  {
    method: "POST",
    pattern: "/customers/:id/verify-email/confirm",
    handler: confirmContactCode(EMAIL_CHANNEL),
    body: confirmContactSchema,
  },
  {
    method: "POST",
    pattern: "/customers/:id/verify-phone/confirm",
    handler: confirmContactCode(PHONE_CHANNEL),
    body: confirmContactSchema,
  },
];
