// Contact changes as a resource (the service's pull request #853, open when vendored:
// packages/test/spec/grid-api-pr853.yaml; docs/protocol.md §3): create the change, stamp its
// `payloadToSign`, submit the stamp with no body and no `Request-Id`, and read it back with GET
// whenever an answer is lost. Behind the client's `contactChanges` switch: with `"patch"` (the
// default until the service ships the resource) the call is `updateCustomerContact`'s PATCH.
import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { assertEmail, assertPhoneNumber } from "../arguments/contactArguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import {
  assertArgument,
  isSignetError,
  SignetError,
  type SignetErrorOf,
} from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import { pollReads } from "../transport/pollReads.js";
import { backoffDelay, resolveRetryPolicy, retryEvent } from "../transport/retry.js";
import type { CustomerJson } from "../transport/wire.js";
import { updateCustomerContact, updateCustomerContactPayload } from "./updateCustomerContact.js";

/** A contact change's state (#853's `ContactChangeStatus`). */
export type ContactChangeStatus =
  | "AWAITING_SIGNATURE"
  | "PROCESSING"
  | "APPLIED"
  | "FAILED"
  | "EXPIRED"
  | "CANCELLED";

/** The service's `ContactChange` (#853), as the device reads it. */
export type ContactChangeJson = {
  id: string;
  customerId: string;
  type: "EMAIL" | "PHONE";
  /** The new email, or the new E.164 phone number. */
  value: string;
  status: ContactChangeStatus;
  /** Present only while `AWAITING_SIGNATURE`. */
  payloadToSign?: string;
  /** The deadline of the submit, while `AWAITING_SIGNATURE`. */
  expiresAt?: string;
  /** The service's stable code of a `FAILED` change. */
  failureReason?: string;
  createdAt: string;
  updatedAt: string;
};

export type ChangeContactParameters = CallOptions & {
  customerId: string;
  /** The wallet whose held session stamps the change (its OTP credential is tied to the contact). */
  accountId: string;
  /**
   * Resource mode: a change this device created before (`onChange` told its id) whose answer was
   * lost: it is read back and carried on instead of creating another.
   */
  changeId?: string | undefined;
  /** Resource mode: told every state of the change as read (keep `id` to resume it). */
  onChange?: ((change: ContactChangeJson) => void) | undefined;
} & ({ email: string; phoneNumber?: never } | { phoneNumber: string; email?: never });

/**
 * How the change ended: through the PATCH (`via: "patch"`, always applied, with the customer), or
 * through the resource (`via: "resource"`) in one of its terminal states. A `FAILED` change carries
 * the service's `failureReason`; `EXPIRED` and `CANCELLED` were never applied.
 */
export type ChangeContactReturnType =
  | { via: "patch"; status: "APPLIED"; customer: CustomerJson }
  | {
      via: "resource";
      status: "APPLIED" | "FAILED" | "EXPIRED" | "CANCELLED";
      change: ContactChangeJson;
    };
export type ChangeContactErrorType = SignetErrorOf<ActionErrorCode<"changeContact">>;

type Contact = { email: string } | { phoneNumber: string };

const TERMINAL: readonly ContactChangeStatus[] = ["APPLIED", "FAILED", "EXPIRED", "CANCELLED"];
const STATUSES: readonly ContactChangeStatus[] = ["AWAITING_SIGNATURE", "PROCESSING", ...TERMINAL];

/**
 * Changes the customer's email or phone number (one per call), which re-keys the tied EMAIL_OTP or
 * SMS_OTP credential; stamped by a held session of a tied wallet. With the client's
 * `contactChanges: "resource"`, through the service's contact-change resource: the change is
 * created, its `payloadToSign` checked (the value typed, the device's own organization and user)
 * and stamped, and submitted; a lost answer is read back with GET (the change id), an OTP
 * credential operation in flight is waited out under the retry policy. A change found
 * `PROCESSING` is read until it ends, within the retry policy's `timeoutMs` (`retry` refines it):
 * every read but the first is cut at its end. Otherwise the PATCH of `updateCustomerContact`.
 *
 * @throws {SignetError} `PROCESSING_TIMEOUT` (retryable: a change still `PROCESSING` at the end of
 *   the budget; call again with its `changeId`), `CONTACT_CHANGE_PENDING` (another change of that type, for another value),
 *   `AUTH_CREDENTIAL_OPERATION_IN_FLIGHT` (still in flight after the retries),
 *   `EMAIL_OTP_EMAIL_ALREADY_EXISTS`, `SMS_OTP_PHONE_ALREADY_EXISTS`, `*_CREDENTIAL_SET_CHANGED`,
 *   `*_CREDENTIAL_SYNC_FAILED`, `PAYLOAD_MISMATCH`, `INVALID_INPUT`, `NO_SESSION`.
 * @example
 * ```ts
 * const outcome = await changeContact(client, { customerId, accountId, email: "new@example.com" });
 * if (outcome.status !== "APPLIED") showWhy(outcome);
 * ```
 */
export async function changeContact(
  client: SignetClient,
  parameters: ChangeContactParameters,
): Promise<ChangeContactReturnType> {
  assertCall(client, parameters);
  const { customerId, accountId, changeId } = parameters;
  assertServiceId("customerId", customerId, "Customer");
  assertServiceId("accountId", accountId, "InternalAccount");
  if (changeId !== undefined) assertServiceId("changeId", changeId, "ContactChange");
  const { email, phoneNumber } = parameters;
  assertArgument(
    (email === undefined) !== (phoneNumber === undefined),
    "email | phoneNumber",
    "exactly one of them",
    email === undefined ? "neither" : "both",
  );
  if (email !== undefined) assertEmail(email);
  else assertPhoneNumber(phoneNumber);
  const contact: Contact = email !== undefined ? { email } : { phoneNumber: phoneNumber as string };
  if (client.contactChanges !== "resource") {
    const { signal, onEvent, retry } = parameters;
    const customer = await updateCustomerContact(client, {
      customerId,
      accountId,
      ...contact,
      ...(signal ? { signal } : {}),
      ...(onEvent ? { onEvent } : {}),
      ...(retry !== undefined ? { retry } : {}),
    } as Parameters<typeof updateCustomerContact>[1]);
    return { via: "patch", status: "APPLIED", customer };
  }
  // No session, no change: nothing is created that this device could not sign.
  const session = await requireSession(client, { accountId });
  const flow: Flow = { client, call: parameters, customerId, contact };
  let change =
    changeId !== undefined
      ? await readChange(flow, changeId)
      : await waitingOut(flow, at(CONTACT_CHANGE_CREATE, [customerId]), () => createChange(flow));
  if (change.status === "PROCESSING") change = await settleChange(flow, change.id);
  if (change.status === "AWAITING_SIGNATURE") {
    change = await submitChange(flow, change, signWithSession(client, session), accountId);
  }
  return { via: "resource", status: change.status as ChangeContactReturnType["status"], change };
}

/** One call: its client, its options, and the contact the user typed. */
type Flow = {
  client: SignetClient;
  call: ChangeContactParameters;
  customerId: string;
  contact: Contact;
};

/** `POST …/contact-changes`; an active change for this very value is carried on instead. */
async function createChange(flow: Flow): Promise<ContactChangeJson> {
  const { client, call, customerId, contact } = flow;
  const body = JSON.stringify(
    "email" in contact
      ? { type: "EMAIL", value: contact.email }
      : { type: "PHONE", value: contact.phoneNumber },
  );
  try {
    return seen(
      flow,
      await client.request<unknown>(
        {
          ...at(CONTACT_CHANGE_CREATE, [customerId]),
          body,
          expectedStatus: [201, 202],
          // A repeat after a lost answer creates nothing twice: the first change, still active,
          // makes it a 409 CONTACT_CHANGE_PENDING naming it (read below); one that was applied
          // on create is applied again with the same value.
          idempotent: true,
          operation: "changeContact",
        },
        call,
      ),
    );
  } catch (error) {
    const active =
      isSignetError(error) && error.code === "CONTACT_CHANGE_PENDING"
        ? (error as SignetError<"CONTACT_CHANGE_PENDING">).details.contactChangeId
        : undefined;
    if (typeof active !== "string") throw error;
    // Our own lost create, or another tab's for the same value: carried on. A change for another
    // value is refused as the service refused it: the device signs only what the user typed.
    const found = await readChange(flow, active, false).catch(() => undefined);
    if (found === undefined || !isOurs(flow, found) || TERMINAL.includes(found.status)) throw error;
    return found;
  }
}

/** `GET …/contact-changes/{id}`. */
async function readChange(flow: Flow, changeId: string, check = true): Promise<ContactChangeJson> {
  const answer = await flow.client.request<unknown>(
    { ...at(CONTACT_CHANGE_GET, [flow.customerId, changeId]), operation: "changeContact" },
    flow.call,
  );
  const change = parseContactChange(answer);
  if (!check) return change;
  if (change.id !== changeId) throw aboutAnother("another change");
  return seen(flow, change);
}

/**
 * A change `PROCESSING` (submitted before): read until it ends, as the service reconciles it,
 * within the retry policy's `timeoutMs`. Every read but the first ends with that budget: one cut
 * there ends the wait in `PROCESSING_TIMEOUT` (retryable), as the budget's end does.
 */
function settleChange(flow: Flow, changeId: string): Promise<ContactChangeJson> {
  const { client, call } = flow;
  const policy = resolveRetryPolicy(client.retry, call.retry);
  return pollReads(client, {
    what: "The contact change",
    timeoutMs: policy.timeoutMs,
    signal: call.signal,
    interval: (polls) => backoffDelay({ ...policy.backoff, attempt: polls, random: client.random }),
    request: {
      method: "GET",
      path: at(CONTACT_CHANGE_GET, [flow.customerId, changeId]).path,
      operation: "changeContact",
    },
    onEvent: call.onEvent,
    details: () => ({ operation: "changeContact" }),
    read: async (signal) => {
      const change = await readChange({ ...flow, call: { ...call, signal } }, changeId);
      return change.status === "PROCESSING" ? undefined : change;
    },
  });
}

/**
 * The signed submit: the change's `payloadToSign` checked and stamped, sent with no body and no
 * `Request-Id` (the change id in the path correlates the re-sends), re-sent identically while
 * it answers PROCESSING. A change that is no longer awaiting its signature is read back, and
 * its state is the outcome.
 */
async function submitChange(
  flow: Flow,
  change: ContactChangeJson,
  sign: ReturnType<typeof signWithSession>,
  accountId: string,
): Promise<ContactChangeJson> {
  const { client, call, customerId, contact } = flow;
  const { payloadToSign, id } = change;
  if (typeof payloadToSign !== "string" || payloadToSign === "")
    throw new SignetError(
      "MALFORMED_RESPONSE",
      "A change awaiting a signature without its payload",
    );
  // A change past its deadline by the client's clock (which follows the service's `Date`) is not
  // signed unread: the service has moved it to EXPIRED, and that is the outcome. The service is the
  // judge of its own deadline: a change it still holds AWAITING_SIGNATURE is signed as read.
  if (Date.parse(change.expiresAt ?? "") <= client.clock.now()) {
    const found = await readChange(flow, id);
    if (found.status !== "AWAITING_SIGNATURE") return found;
    change = found;
  }
  const route = at(CONTACT_CHANGE_SUBMIT, [customerId, id]);
  try {
    const { body } = await waitingOut(flow, route, () =>
      client.signed(
        {
          operation: "changeContact",
          ...route,
          payloadToSign: change.payloadToSign as string,
          idempotencyKey: false as const,
          sign,
          checkPayload: updateCustomerContactPayload(client, { accountId, ...contact }),
          parseBody: (answer) => seen(flow, answer),
          // The change itself says whether the lost answer applied it (#853: GET reaches the
          // same answer as the submit).
          resolveAmbiguous: async () => {
            const found = await readChange(flow, id);
            return found.status === "APPLIED" ? { status: 200, body: found } : undefined;
          },
        },
        call,
      ),
    );
    if (body.id !== id) throw aboutAnother("another change");
    return body;
  } catch (error) {
    if (isSignetError(error) && error.code === "CONTACT_CHANGE_NOT_AWAITING_SIGNATURE") {
      const found = await readChange(flow, id);
      if (found.status === "PROCESSING") return settleChange(flow, id);
      if (TERMINAL.includes(found.status)) return found;
    }
    throw error;
  }
}

/**
 * Runs `send` again while the service answers 409 `AUTH_CREDENTIAL_OPERATION_IN_FLIGHT` (an OTP
 * credential operation of the same type is settling; #853: "wait and retry"), at most the retry
 * policy's `retryCount` times, each wait its backoff; then the 409 is passed on.
 */
async function waitingOut<T>(
  { client, call }: Flow,
  request: { method: string; path: string },
  send: () => Promise<T>,
): Promise<T> {
  const policy = resolveRetryPolicy(client.retry, call.retry);
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (
        !isSignetError(error) ||
        error.code !== "AUTH_CREDENTIAL_OPERATION_IN_FLIGHT" ||
        attempt > policy.retryCount
      )
        throw error;
      const delayMs = backoffDelay({ ...policy.backoff, attempt, random: client.random });
      client.emit(
        retryEvent(
          { method: request.method, path: request.path, operation: "changeContact" },
          "processing",
          attempt,
          delayMs,
          client.clock.now(),
          error,
        ),
        call.onEvent,
      );
      await client.sleep(delayMs, call.signal);
    }
  }
}

/** Whether a change is this customer's, of the contact typed (an email without regard to case). */
function isOurs({ customerId, contact }: Flow, change: ContactChangeJson): boolean {
  if (change.customerId !== customerId) return false;
  return "email" in contact
    ? change.type === "EMAIL" && change.value.toLowerCase() === contact.email.toLowerCase()
    : change.type === "PHONE" && change.value === contact.phoneNumber;
}

/** Holds an answer to the change the user typed, then tells the caller. */
function seen(flow: Flow, answer: unknown): ContactChangeJson {
  const change = parseContactChange(answer);
  if (!isOurs(flow, change)) throw aboutAnother("another customer or contact");
  flow.call.onChange?.(change);
  return change;
}

const aboutAnother = (what: string) =>
  new SignetError("MALFORMED_RESPONSE", `The service answered about ${what}`);

/** Narrows an answer to a ContactChange with a known status. */
export function parseContactChange(answer: unknown): ContactChangeJson {
  const record = (typeof answer === "object" && answer !== null ? answer : {}) as Record<
    string,
    unknown
  >;
  const missing = ["id", "customerId", "type", "value", "status"].filter(
    (field) => typeof record[field] !== "string" || record[field] === "",
  );
  if (
    missing.length > 0 ||
    !STATUSES.includes(record.status as ContactChangeStatus) ||
    (record.type !== "EMAIL" && record.type !== "PHONE")
  ) {
    throw new SignetError("MALFORMED_RESPONSE", "Expected a ContactChange", {
      details: { missing },
    });
  }
  return record as unknown as ContactChangeJson;
}

/** `POST /customers/{Customer}/contact-changes`: 201 settled on create, or 202 awaiting the signature. */
export const CONTACT_CHANGE_CREATE = {
  method: "POST",
  path: "/customers/{Customer}/contact-changes",
  expectedStatus: 201,
} as const satisfies ActionRoute;

/** `GET /customers/{Customer}/contact-changes/{ContactChange}`. */
export const CONTACT_CHANGE_GET = {
  method: "GET",
  path: "/customers/{Customer}/contact-changes/{ContactChange}",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** `POST …/{ContactChange}/submit`: the stamp only, no body, no `Request-Id`. */
export const CONTACT_CHANGE_SUBMIT = {
  method: "POST",
  path: "/customers/{Customer}/contact-changes/{ContactChange}/submit",
  expectedStatus: 200,
  mode: "direct",
} as const satisfies ActionRoute;

/** changeContact's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const changeContactRow = {
  chunk: "wallet",
  sensitive: true,
  summary:
    'changes the email or the phone number behind the client\'s `contactChanges` switch: the PATCH (default), or the contact-change resource (`"resource"`: create, stamp, submit, GET after a lost answer)',
  parameters:
    "`{ customerId, accountId, email }` or `{ customerId, accountId, phoneNumber }`, `changeId?`, `onChange?`",
  resolvesTo:
    '`{ via: "patch", status: "APPLIED", customer }` or `{ via: "resource", status, change }`',
  requests: [
    { route: CONTACT_CHANGE_CREATE },
    { route: CONTACT_CHANGE_GET },
    {
      route: CONTACT_CHANGE_SUBMIT,
      signed: {
        signer: "session",
        check: updateCustomerContactPayload,
        signedBy:
          "a session of any wallet tied to that contact; **signature only: no body, no `Request-Id`** (the change id correlates)",
      },
    },
  ],
  runs: ["updateCustomerContact"],
  errors: { client: [SESSION_SIGNED_ERRORS] },
  hook: {
    kind: "mutation",
    name: "useChangeContact",
    doc: "Changes the customer's email or phone number (`changeContact`), through the PATCH or the contact-change resource as the client's `contactChanges` says; the outcome's `status` says how it ended. The tied OTP credential is renamed, so `useCredentials` refetches.",
    invalidates: ["credentials"],
  },
} as const satisfies ActionSourceRow;
