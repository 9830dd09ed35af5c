// The webhook receiver (the service's #802 `wallet-operation` webhook) and the device's wait for
// it. The service posts each WALLET_OPERATION.* signed with X-Grid-Signature; the receiver
// verifies the signature over the raw body, refuses stale deliveries and replays, and publishes
// each operation's end under its `requestId`. A device waits on `GET …/wallet-operations/{id}`;
// only the user whose signed request the relay forwarded under that id (and the service took)
// is let in, so a push reaches its sender and nobody else.
import { answerHeaders, type RelayAnswer, RelayRefusal } from "../errors.js";
import { REQUEST_ID_PATTERN } from "../protocol.js";
import { parseStrictJson } from "../strictJson.js";
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from "./signature.js";
import type { WebhookStore } from "./store.js";

/**
 * Codes the receiver answers the service with (never a device): its own table, apart from the
 * device's `RelayErrorCode`, in the relay's error shape.
 *
 * | code | status | when |
 * |---|---|---|
 * | `WEBHOOK_SIGNATURE_INVALID` | 401 | `X-Grid-Signature` is missing or not the service's signature over the body (the service's "Signature validation failed") |
 * | `WEBHOOK_STALE` | 400 | the signed `timestamp` is further than `toleranceMs` from the relay's clock, or missing |
 * | `WEBHOOK_DUPLICATE` | 409 | the delivery `id` was taken before (the service's "Webhook has already been processed"; it does not retry a 409) |
 * | `INVALID_INPUT` | 400 | the signed body is not a webhook the relay can read |
 * | `PAYLOAD_TOO_LARGE` | 413 | the body is larger than the relay's `maxBodyBytes` |
 * | `RELAY_STORE_UNAVAILABLE` | 503 | the webhook store (Redis) is down; the service retries |
 */
export const RelayWebhookErrorCode = Object.freeze({
  WEBHOOK_SIGNATURE_INVALID: "WEBHOOK_SIGNATURE_INVALID",
  WEBHOOK_STALE: "WEBHOOK_STALE",
  WEBHOOK_DUPLICATE: "WEBHOOK_DUPLICATE",
  INVALID_INPUT: "INVALID_INPUT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  RELAY_STORE_UNAVAILABLE: "RELAY_STORE_UNAVAILABLE",
} as const);

/** One of {@link RelayWebhookErrorCode}. */
export type RelayWebhookErrorCode =
  (typeof RelayWebhookErrorCode)[keyof typeof RelayWebhookErrorCode];

const WEBHOOK_STATUS: Record<RelayWebhookErrorCode, number> = {
  WEBHOOK_SIGNATURE_INVALID: 401,
  WEBHOOK_STALE: 400,
  WEBHOOK_DUPLICATE: 409,
  INVALID_INPUT: 400,
  PAYLOAD_TOO_LARGE: 413,
  RELAY_STORE_UNAVAILABLE: 503,
};

/** The operations the service reports by webhook (#802's `operationType`). */
export const WALLET_OPERATION_TYPES = [
  "auth_credential.create",
  "auth_credential.delete",
  "session.revoke",
  "wallet.export",
] as const;

const RESOURCE_TYPES = ["AUTH_METHOD", "SESSION", "INTERNAL_ACCOUNT"] as const;
const EVENT_TYPES = ["WALLET_OPERATION.COMPLETED", "WALLET_OPERATION.FAILED"] as const;

/**
 * Why a device's wait was answered 503 `RELAY_STORE_UNAVAILABLE` (its `details.reason`): the
 * webhook store is down, or the relay already holds `webhooks.maxWaits` waits open. Either way
 * the answer carries `Retry-After` and the device polls meanwhile.
 */
export type RelayWaitUnavailableReason = "store unavailable" | "too many waits";

/** What the receiver needs, resolved by `createRelay`. */
export interface WebhookSettings {
  key: Promise<CryptoKey>;
  store: WebhookStore;
  toleranceMs: number;
  ttlMs: number;
  waitMs: number;
  /** The most device waits this relay holds open at once. */
  maxWaits: number;
  /** The waits open now (this relay's, shared by its requests). */
  waits: { open: number };
  maxBodyBytes: number;
  now: () => number;
}

/** What the receiver did with a delivery, for the relay's event. */
export type WebhookOutcome = { status: number; code?: RelayWebhookErrorCode; eventType?: string };

class WebhookRefusal extends Error {
  constructor(
    readonly code: RelayWebhookErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const encoder = new TextEncoder();

function webhookAnswer(code: RelayWebhookErrorCode, message: string): RelayAnswer {
  const status = WEBHOOK_STATUS[code];
  return {
    status,
    headers: { "content-type": "application/json", ...answerHeaders() },
    body: encoder.encode(JSON.stringify({ status, code, message })) as Uint8Array<ArrayBuffer>,
  };
}

const eventKey = (id: string) => `webhook:event:${id}`;
const ownerKey = (requestId: string) => `webhook:owner:${requestId}`;
const operationChannel = (requestId: string) => `webhook:operation:${requestId}`;

const isString = (value: unknown): value is string => typeof value === "string" && value !== "";
const oneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === "string" && (list as readonly string[]).includes(value);

/** The pushed message: the service's signed event, cut to the fields #802 names. */
function pushMessage(event: Record<string, unknown>): { requestId: string; message: string } {
  const data = event.data as Record<string, unknown> | null;
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw new WebhookRefusal("INVALID_INPUT", "The webhook has no data object.");
  const { requestId, operationType, resourceType, resourceId, status, operationId } = data;
  if (
    typeof requestId !== "string" ||
    !REQUEST_ID_PATTERN.test(requestId) ||
    !oneOf(WALLET_OPERATION_TYPES, operationType) ||
    !oneOf(RESOURCE_TYPES, resourceType) ||
    !isString(resourceId) ||
    (status !== "completed" && status !== "failed") ||
    (status === "completed") !== (event.type === "WALLET_OPERATION.COMPLETED")
  ) {
    throw new WebhookRefusal("INVALID_INPUT", "The webhook's data is not a wallet operation's.");
  }
  const error = data.error as { code?: unknown } | undefined;
  if (status === "failed" && !isString(error?.code))
    throw new WebhookRefusal("INVALID_INPUT", "A failed operation's webhook has no error code.");
  const pushed = {
    id: event.id,
    type: event.type,
    data: {
      ...(isString(operationId) ? { operationId } : {}),
      requestId,
      operationType,
      resourceType,
      resourceId,
      status,
      ...(status === "failed" ? { error: { code: error!.code } } : {}),
    },
  };
  return { requestId, message: JSON.stringify(pushed) };
}

/**
 * Handles one delivery from the service: the raw body's signature first (nothing is parsed
 * before it passes), then the signed timestamp's window, then the delivery id (a replay in the
 * window is a duplicate), then the operation's end is published under its `requestId`. A
 * verified webhook of another type is accepted (200) and left alone.
 */
export async function receiveWebhook(
  settings: WebhookSettings,
  readBody: (maxBodyBytes: number) => Promise<Uint8Array<ArrayBuffer>>,
  signature: string | null,
): Promise<{ answer: RelayAnswer; outcome: WebhookOutcome }> {
  let eventType: string | undefined;
  try {
    // No signature: refused before the body is read, so an unsigned caller costs no read.
    if (signature === null || signature.trim() === "") throw invalidSignature();
    let body: Uint8Array<ArrayBuffer>;
    try {
      body = await readBody(settings.maxBodyBytes);
    } catch (error) {
      if (error instanceof RelayRefusal && error.code === "PAYLOAD_TOO_LARGE")
        throw new WebhookRefusal("PAYLOAD_TOO_LARGE", "The webhook body is too large.");
      throw new WebhookRefusal("INVALID_INPUT", "The webhook body could not be read.");
    }
    if (!(await verifyWebhookSignature(await settings.key, signature, body)))
      throw invalidSignature();
    let event: Record<string, unknown>;
    try {
      const parsed = parseStrictJson(new TextDecoder("utf-8", { fatal: true }).decode(body));
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw parsed;
      event = parsed as Record<string, unknown>;
    } catch {
      throw new WebhookRefusal("INVALID_INPUT", "The webhook body is not a JSON object.");
    }
    if (!isString(event.id) || !isString(event.type) || event.id.length > 200)
      throw new WebhookRefusal("INVALID_INPUT", "The webhook has no id or type.");
    eventType = event.type;
    const sentAt = typeof event.timestamp === "string" ? Date.parse(event.timestamp) : Number.NaN;
    if (!Number.isFinite(sentAt) || Math.abs(settings.now() - sentAt) > settings.toleranceMs)
      throw new WebhookRefusal(
        "WEBHOOK_STALE",
        "The webhook's timestamp is outside the relay's window.",
      );
    const push = oneOf(EVENT_TYPES, event.type) ? pushMessage(event) : undefined;
    const key = eventKey(event.id as string);
    const duplicate = () =>
      new WebhookRefusal("WEBHOOK_DUPLICATE", "This webhook was received before.");
    // A delivery already taken publishes nothing. The id is claimed only once the end is
    // published: a claim taken first would answer the service's retry of a failed publish with
    // 409, which it never retries, and the push would be lost. Two copies racing may both
    // publish; that is the same end twice, which a waiting device reads once.
    if ((await stored(() => settings.store.get(key))) !== undefined) throw duplicate();
    if (push !== undefined)
      await stored(() =>
        settings.store.publish(operationChannel(push.requestId), push.message, settings.ttlMs),
      );
    // Kept past the window on both sides, and a second beyond (a delivery dated at the window's
    // far edge must not outlive its record by the millisecond the comparisons leave), so a replay
    // can never outlive its record.
    const first = await stored(() =>
      settings.store.claim(key, "1", 2 * settings.toleranceMs + 1_000),
    );
    if (!first) throw duplicate();
    return {
      answer: { status: 200, headers: answerHeaders(), body: null },
      outcome: { status: 200, eventType },
    };
  } catch (error) {
    const refusal =
      error instanceof WebhookRefusal
        ? error
        : new WebhookRefusal("INVALID_INPUT", "The webhook could not be read.");
    return {
      answer: webhookAnswer(refusal.code, refusal.message),
      outcome: {
        status: WEBHOOK_STATUS[refusal.code],
        code: refusal.code,
        ...(eventType !== undefined ? { eventType } : {}),
      },
    };
  }
}

const invalidSignature = () =>
  new WebhookRefusal(
    "WEBHOOK_SIGNATURE_INVALID",
    `The ${WEBHOOK_SIGNATURE_HEADER} header is not the service's signature over this body.`,
  );

async function stored<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch {
    throw new WebhookRefusal(
      "RELAY_STORE_UNAVAILABLE",
      "The relay cannot store webhooks right now; send it again later.",
    );
  }
}

/**
 * Records that `customerId` sent the signed request `requestId` and the service took it (a 2xx):
 * the first sender is kept, and a store that fails only costs the push (the device polls).
 */
export async function recordSender(
  settings: WebhookSettings,
  requestId: string,
  customerId: string,
): Promise<void> {
  if (!REQUEST_ID_PATTERN.test(requestId)) return;
  await settings.store.claim(ownerKey(requestId), customerId, settings.ttlMs).catch(() => false);
}

/**
 * The device's wait for the end of its request `requestId`: 200 `text/event-stream` with one
 * `wallet-operation` event as soon as it is known (at once when it already is), or 204 after
 * `waitMs` without one. Works as server-sent events, a streamed fetch and a long poll alike.
 * @throws {RelayRefusal} 403 `RELAY_FORBIDDEN` when the caller did not send that request through
 *   this relay; 503 `RELAY_STORE_UNAVAILABLE` when the store is down.
 */
export async function waitForOperation(
  settings: WebhookSettings,
  requestId: string,
  customerId: string,
): Promise<RelayAnswer> {
  const unavailable = (reason: RelayWaitUnavailableReason = "store unavailable") =>
    new RelayRefusal(
      "RELAY_STORE_UNAVAILABLE",
      "The relay cannot wait for this request right now; poll instead.",
      { retryAfterSeconds: 1, reason },
      { "Retry-After": "1" },
    );
  const owner = await settings.store.get(ownerKey(requestId)).catch(() => {
    throw unavailable();
  });
  if (owner !== customerId)
    throw new RelayRefusal(
      "RELAY_FORBIDDEN",
      "This request was not sent by this user through the relay.",
      { reason: "not the sender" },
    );
  // Each open wait holds a subscription and a timer for up to `waitMs`: past the cap a device is
  // told to poll (its answers come from the service all the same), so a flood of waits cannot
  // hold the relay's memory or sockets.
  if (settings.waits.open >= settings.maxWaits) throw unavailable("too many waits");
  settings.waits.open++;
  try {
    return await holdWait(settings, requestId, unavailable);
  } finally {
    settings.waits.open--;
  }
}

/** The open wait itself: subscribed first, then what is kept read, until an end or `waitMs`. */
async function holdWait(
  settings: WebhookSettings,
  requestId: string,
  unavailable: () => RelayRefusal,
): Promise<RelayAnswer> {
  const channel = operationChannel(requestId);
  let settle: (message: string | undefined) => void = () => {};
  const ended = new Promise<string | undefined>((resolve) => {
    settle = resolve;
  });
  // Subscribe before reading what is kept, so an end published in between is not missed.
  const unsubscribe = await settings.store
    .subscribe(channel, (message) => settle(message))
    .catch(() => {
      throw unavailable();
    });

  const timer = setTimeout(() => settle(undefined), settings.waitMs);
  try {
    const kept = await settings.store.get(channel).catch(() => undefined);
    if (kept !== undefined) settle(kept);
    const message = await ended;
    if (message === undefined) return { status: 204, headers: answerHeaders(), body: null };
    return {
      status: 200,
      headers: { "content-type": "text/event-stream; charset=utf-8", ...answerHeaders() },
      body: encoder.encode(
        `event: wallet-operation\ndata: ${message}\n\n`,
      ) as Uint8Array<ArrayBuffer>,
    };
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}
