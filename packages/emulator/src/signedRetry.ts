// docs/protocol.md §2: the signed-retry protocol, one implementation for every signed endpoint.
// Leg 1 (no headers) stores a pending request bound to method, path and the exact body bytes and
// answers 202; the retry carries `Grid-Wallet-Signature` and `Request-Id` and is verified here.
import { isoTime } from "./clock.js";
import { verifyStamp } from "./crypto/index.js";
import { faultError } from "./faults.js";
import { sameBytes } from "./http/body.js";
import type { RequestContext } from "./http/context.js";
import { requestIdRefused, ServiceError } from "./http/errors.js";
import { errorResponse, json, processing } from "./http/responses.js";
import type { CredentialType, PendingRequest } from "./state.js";
import { idPattern } from "./validation.js";
import type { WebhookOperation } from "./webhooks.js";

/** The wallet signature header (docs/protocol.md §1: the brand word is `Grid`). */
export const SIGNATURE_HEADER = "Grid-Wallet-Signature";
/** The header naming the pending request on a signed retry. */
export const REQUEST_ID_HEADER = "Request-Id";

/** How a challenge (a 202) is issued. */
export type ChallengeSpec = {
  /** Operation name written into the default payload, e.g. `ADD_CREDENTIAL`. */
  operation: string;
  /** Credential type echoed on the 202 (credential add/revoke, session revoke, OTP verify). */
  type?: CredentialType;
  /** Builds `payloadToSign`, in the service's shapes (./payloads.ts, docs/protocol.md §11). */
  payload: (p: { requestId: string; expiresAt: number }) => string;
  /** State to carry to the retry. */
  data?: unknown;
};

/** A signed endpoint: its challenge and what to do once a retry is verified. */
export type SignedRetrySpec = ChallengeSpec & {
  /** Public keys (hex) allowed to stamp the retry, evaluated when the retry arrives. */
  allowedKeys(pending: PendingRequest): readonly string[];
  /** Runs on a verified retry; its answer (or `ServiceError`) is terminal and uses up the request id. */
  complete(signed: { publicKey: string; pending: PendingRequest }): Response | Promise<Response>;
  /** The operation the service reports by webhook when this one ends (#802), if it is one. */
  webhook?: WebhookOperation;
};

/**
 * JSON text the way a Go service writes it with `json.Encoder`: `<`, `>`, `&`, U+2028 and U+2029
 * escaped as `\u003c`-style sequences, and a trailing newline. `JSON.stringify(JSON.parse(x))`
 * of such text, or a trimmed copy, is different bytes, so a client that re-serialises or trims a
 * `payloadToSign` fails here as it would at the service.
 */
export function encodePayload(value: unknown): string {
  const escapes: Record<string, string> = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
  };
  return `${JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => escapes[c]!)}\n`;
}

/**
 * Stores a pending request for this exact request and answers 202
 * `{ type?, payloadToSign, requestId, expiresAt }`.
 */
export function issueChallenge(ctx: RequestContext, spec: ChallengeSpec): Response {
  const requestId = ctx.rt.ids.next("Request");
  const expiresAt = ctx.now() + ctx.rt.options.challengeTtlMs;
  const payloadToSign = spec.payload({ requestId, expiresAt });
  ctx.rt.state.pending.set(requestId, {
    id: requestId,
    method: ctx.method,
    path: ctx.path,
    body: Uint8Array.from(ctx.rawBody),
    operation: spec.operation,
    payloadToSign,
    expiresAt,
    consumed: false,
    data: spec.data,
  });
  const body: Record<string, unknown> = {};
  if (spec.type) body.type = spec.type;
  body.payloadToSign = payloadToSign;
  body.requestId = requestId;
  body.expiresAt = isoTime(expiresAt);
  return json(202, body);
}

/** Which signed-retry headers a request carries. */
export function signedHeaders(ctx: RequestContext): {
  signature: string | null;
  requestId: string | null;
} {
  return {
    signature: ctx.headers.get(SIGNATURE_HEADER),
    requestId: ctx.headers.get(REQUEST_ID_HEADER),
  };
}

/**
 * Finds a usable pending request by id for this method and path: 401 `UNAUTHORIZED` with
 * `details.reason` when it is unknown, expired, already used or issued for another request.
 */
export function findPending(ctx: RequestContext, requestId: string): PendingRequest {
  const pending = idPattern("Request").test(requestId)
    ? ctx.rt.state.pending.get(requestId)
    : undefined;
  if (!pending) throw requestIdRefused("REQUEST_ID_UNKNOWN", "Unknown Request-Id.");
  if (pending.consumed) {
    throw requestIdRefused("REQUEST_ID_ALREADY_USED", "This Request-Id has already been used.");
  }
  if (ctx.now() >= pending.expiresAt) {
    throw requestIdRefused("REQUEST_ID_EXPIRED", "The signed-retry challenge has expired.");
  }
  if (pending.method !== ctx.method || pending.path !== ctx.path) {
    throw requestIdRefused(
      "REQUEST_ID_MISMATCH",
      "This Request-Id was issued for another request.",
    );
  }
  return pending;
}

/**
 * Verifies a stamp over `payload` against `allowedKeys`, and (when given) the body against the
 * pending body: 401 `WALLET_SIGNATURE_MALFORMED`, `WALLET_SIGNATURE_BODY_MISMATCH` or
 * `WALLET_SIGNATURE_INVALID`. Returns the stamp's compressed public key.
 */
export function checkStamp(
  ctx: RequestContext,
  stamp: string,
  payload: string,
  allowedKeys: readonly string[],
  pendingBody?: Uint8Array,
): string {
  const check = verifyStamp(stamp, payload, allowedKeys);
  if (!check.ok && check.code === "WALLET_SIGNATURE_MALFORMED") {
    throw new ServiceError(401, check.code, "The wallet signature could not be parsed.", {
      reason: check.reason,
    });
  }
  if (pendingBody && !sameBytes(pendingBody, ctx.rawBody)) {
    throw new ServiceError(
      401,
      "WALLET_SIGNATURE_BODY_MISMATCH",
      "The body differs from the body of the pending request.",
    );
  }
  if (!check.ok) {
    throw new ServiceError(401, check.code, "The wallet signature is not valid for this request.", {
      reason: check.reason,
    });
  }
  return check.publicKey;
}

/**
 * Runs one signed endpoint. The handler has already validated the request (on every leg), so a
 * refusal here or there changes no state.
 *
 * - no headers: a new challenge (202);
 * - signature without `Request-Id`: 401 `REQUEST_ID_MISSING`; `Request-Id` alone: 401
 *   `WALLET_SIGNATURE_MISSING`;
 * - both: the pending request is found, the stamp checked; an armed `processing` fault answers
 *   200 `PROCESSING` and leaves the request id usable; an armed `error` `at: "signed"` fault
 *   answers its error and uses the request id up; otherwise `complete` runs and its answer,
 *   success or `ServiceError`, uses up the request id. Signature failures do not use it up.
 */
export async function runSignedRetry(
  ctx: RequestContext,
  spec: SignedRetrySpec,
): Promise<Response> {
  const { signature, requestId } = signedHeaders(ctx);
  if (signature === null && requestId === null) return issueChallenge(ctx, spec);
  if (requestId === null) {
    throw new ServiceError(
      401,
      "REQUEST_ID_MISSING",
      "The signed retry needs a Request-Id header.",
    );
  }
  if (signature === null) {
    throw new ServiceError(
      401,
      "WALLET_SIGNATURE_MISSING",
      `The signed retry needs a ${SIGNATURE_HEADER} header.`,
    );
  }
  const pending = findPending(ctx, requestId);
  const publicKey = checkStamp(
    ctx,
    signature,
    pending.payloadToSign,
    spec.allowedKeys(pending),
    pending.body,
  );
  const fault = ctx.takeSignedFault();
  if (fault?.kind === "processing") {
    pending.submitted = true;
    pending.stamp = signature;
    if (reported(ctx, spec)) settleLater(ctx, spec, publicKey, pending);
    return processing();
  }
  if (fault) {
    pending.consumed = true;
    const error = faultError(fault);
    reportFailure(ctx, spec, pending, error);
    throw error;
  }
  try {
    const response = await spec.complete({ publicKey, pending });
    pending.consumed = true;
    await reportEnd(ctx, spec, pending, response);
    return response;
  } catch (error) {
    if (error instanceof ServiceError) {
      pending.consumed = true;
      reportFailure(ctx, spec, pending, error);
    }
    throw error;
  }
}

/** Whether this operation's end is reported: it is one #802 names, and a webhook URL is set. */
const reported = (
  ctx: RequestContext,
  spec: SignedRetrySpec,
): spec is SignedRetrySpec & {
  webhook: WebhookOperation;
} => spec.webhook !== undefined && ctx.rt.webhooks.active();

/**
 * Sends the operation's COMPLETED webhook, reading the resource's id from a copy of `response`
 * (only when one is sent: no copy is read while no webhook URL is set).
 */
async function reportEnd(
  ctx: RequestContext,
  spec: SignedRetrySpec,
  pending: PendingRequest,
  response: Response,
): Promise<void> {
  if (!reported(ctx, spec)) return;
  let body: unknown;
  if (response.status !== 204)
    body = await response
      .clone()
      .json()
      .catch(() => undefined);
  ctx.rt.webhooks.send({
    requestId: pending.id,
    operation: spec.webhook,
    outcome: { completed: body },
  });
}

function reportFailure(
  ctx: RequestContext,
  spec: SignedRetrySpec,
  pending: PendingRequest,
  error: ServiceError,
): void {
  if (!reported(ctx, spec)) return;
  ctx.rt.webhooks.send({
    requestId: pending.id,
    operation: spec.webhook,
    outcome: { failed: error.code },
  });
}

/**
 * After a PROCESSING answer the operation goes on by itself, as at the service: it settles
 * `settleMs` later, keeps its answer for the next verified re-send, and its webhook is sent.
 */
function settleLater(
  ctx: RequestContext,
  spec: SignedRetrySpec,
  publicKey: string,
  pending: PendingRequest,
): void {
  const settle = async () => {
    if (pending.consumed || pending.settled !== undefined) return;
    let response: Response;
    try {
      response = await spec.complete({ publicKey, pending });
      await reportEnd(ctx, spec, pending, response);
    } catch (error) {
      if (!(error instanceof ServiceError)) return;
      reportFailure(ctx, spec, pending, error);
      response = errorResponse(error);
    }
    pending.settled = {
      status: response.status,
      headers: [...response.headers],
      body: new Uint8Array(await response.arrayBuffer()),
    };
  };
  const timer = setTimeout(() => void settle(), ctx.rt.webhooks.settleMs);
  (timer as { unref?: () => void }).unref?.();
}

/**
 * The answer of an operation that settled by itself after PROCESSING, for the byte-identical
 * re-send that collects it (same method, path, body, `Request-Id` and stamp); it uses the request
 * id up. `undefined` for any other request, which then goes its usual way.
 */
export function collectSettled(
  rt: { state: { pending: Map<string, PendingRequest> } },
  method: string,
  path: string,
  headers: Headers,
  rawBody: Uint8Array,
): Response | undefined {
  const requestId = headers.get(REQUEST_ID_HEADER);
  const pending = requestId === null ? undefined : rt.state.pending.get(requestId);
  if (
    pending?.settled === undefined ||
    pending.consumed ||
    pending.method !== method ||
    pending.path !== path ||
    pending.stamp !== headers.get(SIGNATURE_HEADER) ||
    !sameBytes(pending.body, rawBody)
  )
    return undefined;
  pending.consumed = true;
  const { status, headers: kept, body } = pending.settled;
  return new Response(status === 204 ? null : Uint8Array.from(body), { status, headers: kept });
}
