// Contact changes as a resource, as the service's pull request #853 (open when vendored:
// packages/test/spec/grid-api-pr853.yaml) describes them: create (202 AWAITING_SIGNATURE with a
// payload to stamp when an OTP credential of that type is tied, else 201 applied inline), the
// signed submit (stamp only: no body, no Request-Id; PROCESSING under a `processing` fault; an
// applied change answers itself again), GET (a PROCESSING change found settled, or still
// PROCESSING under a `processing` fault), DELETE (cancel) and the list, expiry at
// `expiresAt`, and 409 `AUTH_CREDENTIAL_OPERATION_IN_FLIGHT` while an OTP credential add of the
// same type was submitted (answered PROCESSING) and has not settled.
import { isoTime } from "../clock.js";
import { faultError } from "../faults.js";
import {
  expectNoBody,
  pathId,
  queryParam,
  type RequestContext,
  readBody,
} from "../http/context.js";
import { invalidInput, notFound, ServiceError } from "../http/errors.js";
import { pagedEnvelope } from "../http/lists.js";
import { json, processing } from "../http/responses.js";
import type { Route } from "../http/router.js";
import { contactPayload } from "../payloads.js";
import type { Runtime } from "../runtime.js";
import { checkStamp, SIGNATURE_HEADER } from "../signedRetry.js";
import type { ContactChangeRecord, CustomerRecord } from "../state.js";
import { enumOf, object, string } from "../validation.js";
import { E164, EMAIL, getCustomerRecord, tiedCredentials } from "./customers.js";
import { sessionKeys } from "./sessions.js";

const createSchema = object({ type: enumOf(["EMAIL", "PHONE"]), value: string({ minLength: 1 }) });

const STATUSES = [
  "AWAITING_SIGNATURE",
  "PROCESSING",
  "APPLIED",
  "FAILED",
  "EXPIRED",
  "CANCELLED",
] as const;

const credentialType = (type: ContactChangeRecord["type"]) =>
  type === "EMAIL" ? "EMAIL_OTP" : "SMS_OTP";

/** The `ContactChange` JSON: `payloadToSign` and `expiresAt` only while awaiting the signature. */
export function contactChangeJson(change: ContactChangeRecord): Record<string, unknown> {
  const awaiting = change.status === "AWAITING_SIGNATURE";
  return {
    id: change.id,
    customerId: change.customerId,
    type: change.type,
    value: change.value,
    status: change.status,
    ...(awaiting && change.payloadToSign ? { payloadToSign: change.payloadToSign } : {}),
    ...(awaiting && change.expiresAt !== undefined ? { expiresAt: isoTime(change.expiresAt) } : {}),
    ...(change.status === "FAILED" && change.failureReason
      ? { failureReason: change.failureReason }
      : {}),
    createdAt: isoTime(change.createdAt),
    updatedAt: isoTime(change.updatedAt),
  };
}

/** An unsubmitted change past its `expiresAt` lapses to EXPIRED (read lazily, as any reader sees it). */
function lapse(change: ContactChangeRecord, now: number): ContactChangeRecord {
  if (
    change.status === "AWAITING_SIGNATURE" &&
    change.expiresAt !== undefined &&
    now >= change.expiresAt
  ) {
    change.status = "EXPIRED";
    change.updatedAt = change.expiresAt;
  }
  return change;
}

function settle(
  change: ContactChangeRecord,
  now: number,
  status: ContactChangeRecord["status"],
  failureReason?: string,
) {
  change.status = status;
  change.updatedAt = now;
  if (failureReason) change.failureReason = failureReason;
}

/** The change of this customer named in the path, lapsed if due; 404 otherwise. */
function findChange(ctx: RequestContext): {
  customer: CustomerRecord;
  change: ContactChangeRecord;
} {
  const customer = getCustomerRecord(ctx.rt, pathId(ctx, "id", "Customer"));
  const changeId = pathId(ctx, "changeId", "ContactChange");
  const change = ctx.rt.state.contactChanges.get(changeId);
  if (!change || change.customerId !== customer.id) throw notFound("Contact change", changeId);
  return { customer, change: lapse(change, ctx.now()) };
}

/**
 * Whether an OTP credential add of that type on one of the customer's wallets was submitted and
 * has not settled: its signed send was answered PROCESSING, and its request id is neither used
 * nor expired. An issued, unsigned challenge does not count (#853: "only a submitted credential
 * operation blocks").
 */
function credentialAddInFlight(rt: Runtime, customerId: string, type: "EMAIL_OTP" | "SMS_OTP") {
  const now = rt.clock.now();
  for (const pending of rt.state.pending.values()) {
    if (pending.operation !== "ADD_CREDENTIAL" || !pending.submitted || pending.consumed) continue;
    if (now >= pending.expiresAt) continue;
    let body: { type?: unknown; accountId?: unknown };
    try {
      body = JSON.parse(new TextDecoder().decode(pending.body)) as typeof body;
    } catch {
      continue;
    }
    const account =
      typeof body.accountId === "string" ? rt.state.accounts.get(body.accountId) : undefined;
    if (body.type === type && account?.customerId === customerId) return true;
  }
  return false;
}

function inFlight(): ServiceError {
  return new ServiceError(
    409,
    "AUTH_CREDENTIAL_OPERATION_IN_FLIGHT",
    "An OTP credential operation of this type is still settling; wait for it, then retry.",
  );
}

/** 409 when another customer's OTP credential (or, for a phone, another customer) holds the value. */
function assertValueFree(rt: Runtime, customerId: string, type: "EMAIL" | "PHONE", value: string) {
  const others = (credentialTypeOf: "EMAIL_OTP" | "SMS_OTP", same: (nickname: string) => boolean) =>
    [...rt.state.credentials.values()].some(
      (c) =>
        c.type === credentialTypeOf &&
        same(c.nickname) &&
        rt.state.accounts.get(c.accountId)?.customerId !== customerId,
    );
  if (type === "EMAIL" && others("EMAIL_OTP", (n) => n.toLowerCase() === value.toLowerCase())) {
    throw new ServiceError(
      409,
      "EMAIL_OTP_EMAIL_ALREADY_EXISTS",
      "Another wallet's EMAIL_OTP credential uses this email.",
    );
  }
  if (type === "PHONE" && others("SMS_OTP", (n) => n === value)) {
    throw new ServiceError(
      409,
      "SMS_OTP_PHONE_ALREADY_EXISTS",
      "Another wallet's SMS_OTP credential uses this phone number.",
    );
  }
}

/** The contact field and every tied credential of that type take the new value together. */
function apply(rt: Runtime, customer: CustomerRecord, change: ContactChangeRecord, now: number) {
  customer.fields = {
    ...customer.fields,
    ...(change.type === "EMAIL" ? { email: change.value } : { phoneNumber: change.value }),
  };
  customer.updatedAt = now;
  for (const credential of tiedCredentials(rt, customer.id, credentialType(change.type))) {
    credential.nickname = change.value;
    credential.updatedAt = now;
  }
  settle(change, now, "APPLIED");
}

/** `POST /customers/{customerId}/contact-changes` `{ type, value }`. */
function createChange(ctx: RequestContext): Response {
  const { rt } = ctx;
  const body = readBody(ctx, createSchema);
  if (!(body.type === "EMAIL" ? EMAIL : E164).test(body.value)) {
    throw invalidInput([
      {
        field: "value",
        message:
          body.type === "EMAIL" ? "must be an email address" : "must be an E.164 phone number",
      },
    ]);
  }
  const customer = getCustomerRecord(rt, pathId(ctx, "id", "Customer"));
  const now = ctx.now();
  const active = [...rt.state.contactChanges.values()].find(
    (c) =>
      c.customerId === customer.id &&
      c.type === body.type &&
      (lapse(c, now).status === "AWAITING_SIGNATURE" || c.status === "PROCESSING"),
  );
  if (active) {
    throw new ServiceError(
      409,
      "CONTACT_CHANGE_PENDING",
      `This customer already has an active ${body.type} contact change. Submit or cancel it before starting another.`,
      { contactChangeId: active.id },
    );
  }
  assertValueFree(rt, customer.id, body.type, body.value);
  const type = credentialType(body.type);
  if (credentialAddInFlight(rt, customer.id, type)) throw inFlight();
  const tied = tiedCredentials(rt, customer.id, type);
  const change: ContactChangeRecord = {
    id: rt.ids.next("ContactChange"),
    customerId: customer.id,
    type: body.type,
    value: body.value,
    status: "AWAITING_SIGNATURE",
    credentialIds: tied.map((c) => c.id).sort(),
    accountIds: [...new Set(tied.map((c) => c.accountId))],
    createdAt: now,
    updatedAt: now,
  };
  rt.state.contactChanges.set(change.id, change);
  if (tied.length === 0) {
    // Nothing to re-key: applied on create, terminal on arrival.
    apply(rt, customer, change, now);
    return json(201, contactChangeJson(change));
  }
  change.expiresAt = now + rt.options.challengeTtlMs;
  // The same activity as the PATCH's; it names the first tied wallet's enclave user.
  change.payloadToSign = contactPayload(
    ctx,
    change.accountIds[0]!,
    body.type === "EMAIL" ? { email: body.value } : { phoneNumber: body.value },
  );
  return json(202, contactChangeJson(change));
}

/**
 * `POST …/contact-changes/{changeId}/submit`, `Grid-Wallet-Signature` only: 200 the APPLIED
 * change, or 200 PROCESSING under a `processing` fault (the same stamp re-sent settles it).
 */
function submitChange(ctx: RequestContext): Response {
  const { rt } = ctx;
  expectNoBody(ctx);
  const { customer, change } = findChange(ctx);
  // #853: an applied change answers itself again, unchecked: nothing to verify or mutate.
  if (change.status === "APPLIED") return json(200, contactChangeJson(change));
  if (change.status !== "AWAITING_SIGNATURE" && change.status !== "PROCESSING") {
    throw new ServiceError(
      409,
      "CONTACT_CHANGE_NOT_AWAITING_SIGNATURE",
      `The contact change is ${change.status}; start a new one.`,
    );
  }
  const signature = ctx.headers.get(SIGNATURE_HEADER);
  if (signature === null) {
    throw new ServiceError(
      401,
      "WALLET_SIGNATURE_MISSING",
      `The submit needs ${SIGNATURE_HEADER}.`,
    );
  }
  checkStamp(
    ctx,
    signature,
    change.payloadToSign ?? "",
    change.accountIds.flatMap((a) => sessionKeys(rt, a)),
  );
  const type = credentialType(change.type);
  // The change stays AWAITING_SIGNATURE: the same stamp may be submitted once the add settles.
  if (change.status === "AWAITING_SIGNATURE" && credentialAddInFlight(rt, customer.id, type))
    throw inFlight();
  const now = ctx.now();
  const fault = ctx.takeSignedFault();
  if (fault?.kind === "processing") {
    settle(change, now, "PROCESSING");
    return processing();
  }
  if (fault) {
    // A sync failure moves the change to FAILED with the same code (#853's 424).
    if (fault.status === 424) settle(change, now, "FAILED", fault.code);
    throw faultError(fault);
  }
  const refuse = (code: string, message: string) => {
    settle(change, now, "FAILED", code);
    return new ServiceError(409, code, message);
  };
  const bound = change.credentialIds;
  const current = tiedCredentials(rt, customer.id, type)
    .map((c) => c.id)
    .sort();
  if (current.length !== bound.length || current.some((id, i) => id !== bound[i])) {
    throw refuse(
      `${type}_CREDENTIAL_SET_CHANGED`,
      "The tied OTP credentials changed since the change was created; start a new one.",
    );
  }
  try {
    assertValueFree(rt, customer.id, change.type, change.value);
  } catch (error) {
    if (error instanceof ServiceError) throw refuse(error.code, error.message);
    throw error;
  }
  apply(rt, customer, change, now);
  return json(200, contactChangeJson(change));
}

/**
 * `GET …/contact-changes/{changeId}`. A PROCESSING change is found settled: the service reconciles
 * the activity on its own, and by the time anyone reads it the emulator's has; under a
 * `processing` fault it is read still PROCESSING (not reconciled yet), so that a reader's wait
 * for it can be exercised.
 */
function getChange(ctx: RequestContext): Response {
  const { customer, change } = findChange(ctx);
  if (change.status === "PROCESSING" && !ctx.takeProcessingFault())
    apply(ctx.rt, customer, change, ctx.now());
  return json(200, contactChangeJson(change));
}

/** `DELETE …/contact-changes/{changeId}`: 200 CANCELLED, only while AWAITING_SIGNATURE. */
function cancelChange(ctx: RequestContext): Response {
  expectNoBody(ctx);
  const { change } = findChange(ctx);
  if (change.status !== "AWAITING_SIGNATURE") {
    throw new ServiceError(
      409,
      "CONTACT_CHANGE_NOT_AWAITING_SIGNATURE",
      `The contact change is ${change.status}; only one awaiting its signature can be cancelled.`,
    );
  }
  settle(change, ctx.now(), "CANCELLED");
  return json(200, contactChangeJson(change));
}

/** `GET …/contact-changes`: newest first, `status`, `limit`, `cursor`. */
function listChanges(ctx: RequestContext): Response {
  const customer = getCustomerRecord(ctx.rt, pathId(ctx, "id", "Customer"));
  const status = queryParam(ctx, "status", enumOf(STATUSES));
  const now = ctx.now();
  const all = [...ctx.rt.state.contactChanges.values()]
    .filter((c) => c.customerId === customer.id)
    .map((c) => lapse(c, now))
    .filter((c) => status === undefined || c.status === status)
    .sort((a, b) => b.createdAt - a.createdAt);
  return json(200, pagedEnvelope(ctx, all, contactChangeJson));
}

/** Contact-change routes. */
export const contactChangeRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/customers/:id/contact-changes",
    handler: createChange,
    body: createSchema,
  },
  { method: "GET", pattern: "/customers/:id/contact-changes", handler: listChanges },
  { method: "GET", pattern: "/customers/:id/contact-changes/:changeId", handler: getChange },
  { method: "DELETE", pattern: "/customers/:id/contact-changes/:changeId", handler: cancelChange },
  {
    method: "POST",
    pattern: "/customers/:id/contact-changes/:changeId/submit",
    handler: submitChange,
  },
];
