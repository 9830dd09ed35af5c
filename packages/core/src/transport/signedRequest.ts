/**
 * The signed-retry engine (docs/protocol.md §2; spec "Signed-retry pattern"; docs/architecture.md "The
 * signed-retry engine"). One function runs every signed endpoint: the challenge legs, the
 * PROCESSING re-sends, rate limits, expiry, and quote execute's direct mode.
 *
 * Invariants, each relied on by a test:
 * - the body is the caller's string, sent unchanged on every leg and every re-send;
 * - a stamp is computed once per challenge (or once per direct execute) and re-sent as is;
 * - a request id is never sent again after a terminal answer; a re-send only repeats a request
 *   that got no terminal answer, and single-use request ids (or the Idempotency-Key) make it
 *   at-most-once;
 * - events are built field by field from non-secret values: no body, payload, stamp or key.
 */

import { isSignetError, SignetError } from "../errors.js";
import { deliver } from "../events.js";
import { type BackoffOptions, backoffDelay } from "./backoff.js";
import {
  IDEMPOTENCY_KEY_HEADER,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
  WALLET_SIGNATURE_HEADER,
} from "./headers.js";
import {
  abortedError,
  type Clock,
  parseJsonBody,
  systemClock,
  type Transport,
  type TransportResponse,
} from "./http.js";
import { errorFromResponse, isPlainObject, parseRetryAfter } from "./responseError.js";

/** Where a signed request is, as shown to hooks and devtools. */
export type SignedRequestStage =
  | "challenge"
  | "signing"
  | "submitting"
  | "processing"
  | "done"
  | "failed";

/** Why a request is sent again. */
export type SignedRequestRetryReason = "processing" | "rate-limited" | "transient" | "restart";

/**
 * One step of a signed request. Redacted by construction: it never holds a body, a
 * `payloadToSign`, a stamp or a header value other than the request id.
 */
export type SignedRequestEvent = {
  type: "signedRequest";
  /** The caller's name for the flow, e.g. `"revokeSession"`. */
  operation?: string;
  mode: "challenge" | "direct";
  method: string;
  path: string;
  stage: SignedRequestStage;
  /** 1 for the unsigned first call, 2 for the first signed call, 3 on delegated keys. */
  leg: number;
  /** Sends of the current leg so far, 1-based (on `processing`: PROCESSING answers so far). */
  attempt: number;
  status?: number;
  requestId?: string;
  /** The error code, on `failed`. */
  code?: string;
  /** The wait before the next send, on `processing` and retries. */
  delayMs?: number;
  retryReason?: SignedRequestRetryReason;
};

/** What the signer is told besides the payload. */
export type SignContext = {
  /** The leg the stamp is for: 2 for the first signed call; 1 in direct mode. */
  leg: number;
  /** The credential type from the challenge, where the service gives one (OTP verify, …). */
  type?: string;
  /** The challenge's request id (challenge mode). */
  requestId?: string;
  operation?: string;
  signal?: AbortSignal;
};

/**
 * Stamps `payloadToSign` byte for byte and returns the `Grid-Wallet-Signature` value. The
 * engine does not know keys: `(payload) => stampPayload(payload, sessionKey)` is typical.
 */
export type SignPayload = (payloadToSign: string, context: SignContext) => Promise<string> | string;

/** A validated 202 body. */
export type SignedRetryChallenge = {
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
  /** `expiresAt` in epoch ms. */
  expiresAtMs: number;
  type?: string;
};

type CommonParameters<TBody> = {
  transport: Transport;
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  /** Relative to the relay URL: `/auth/sessions/Session:…`. */
  path: string;
  /**
   * The JSON body, serialised ONCE by the caller; these exact bytes go out on every leg and
   * every re-send. Omit for bodiless `DELETE`s.
   */
  body?: string | undefined;
  sign: SignPayload;
  /**
   * The terminal success status(es): 200 (verify, export, contact update, quote execute),
   * 201 (credential add, refresh, delegated key) or 204 (revocations).
   */
  expectedStatus: number | readonly number[];
  /**
   * For 200-success endpoints: whether a 200 body means "still processing". Default: an object
   * whose `status` is `"PROCESSING"` and which has no `id` (a Quote in PROCESSING is a success).
   * When 200 is not an expected status, every 200 means processing.
   */
  isProcessing?: ((body: unknown) => boolean) | undefined;
  /** Checks and narrows the success body; thrown non-Signet errors become `MALFORMED_RESPONSE`. */
  parseBody?: ((body: unknown) => TBody) | undefined;
  /** A name for events and error details: `"revokeSession"`, `"executeQuote"`. */
  operation?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Overall time limit from the start, in ms. Default 120 000. */
  timeoutMs?: number | undefined;
  /** Absolute overall deadline in epoch ms (the earlier of this and `timeoutMs` applies). */
  deadline?: number | undefined;
  /** Per-attempt time limit passed to the transport (capped by the overall deadline). */
  attemptTimeoutMs?: number | undefined;
  /** Schedule of waits between PROCESSING re-sends and transient retries. */
  backoff?: Partial<BackoffOptions> | undefined;
  /** Retries after a network failure, a timeout or a 5xx, per leg. Default 2. */
  maxTransientRetries?: number | undefined;
  /** Retries after a 429, per leg. Default 2. */
  maxRateLimitRetries?: number | undefined;
  /** Largest `Retry-After` honoured, in ms; longer waits throw the 429. Default 30 000. */
  maxRetryAfterMs?: number | undefined;
  /** The service's time (challenge expiry). Default `Date.now`. */
  clock?: Clock | undefined;
  /**
   * Local elapsed time, for `timeoutMs`: unlike `clock`, it never jumps when the client learns
   * the service's clock mid-request. Default: `clock`.
   */
  timer?: Clock | undefined;
  /** Resolves after `ms`. Injected in tests to run on a fake clock. Default `setTimeout`. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Uniform source in [0, 1) for jitter. Default `Math.random`. */
  random?: (() => number) | undefined;
  onEvent?: ((event: SignedRequestEvent) => void) | undefined;
};

/** The 202 → stamp → re-send protocol of every signed endpoint but quote execute. */
export type ChallengeModeParameters = {
  mode?: "challenge" | undefined;
  /** Legs allowed, the unsigned one included. Default 3 (delegated keys). */
  maxLegs?: number | undefined;
  /**
   * Start over from leg 1, once, when the challenge lapses (locally, or a 401 for an expired
   * request id). Only for flows that are safe to repeat, such as export. Default false.
   */
  restartOnExpiry?: boolean | undefined;
};

/** Quote execute: one signed request, signature header only, no 202, no `Request-Id`. */
export type DirectModeParameters = {
  mode: "direct";
  /** The payload to stamp before sending (the quote's `payloadToSign`). */
  payloadToSign: string;
  /**
   * The `Idempotency-Key` for this execute. Default: generated once with `generateId` and
   * reused on every retry of this call.
   */
  idempotencyKey?: string | undefined;
  /** Default `crypto.randomUUID()`, looked up at call time. */
  generateId?: (() => string) | undefined;
};

/** Parameters of `runSignedRequest`. `TBody` is the success body's type. */
export type RunSignedRequestParameters<TBody = unknown> = CommonParameters<TBody> &
  (ChallengeModeParameters | DirectModeParameters);

/** What `runSignedRequest` resolves to. */
export type RunSignedRequestReturnType<TBody = unknown> = {
  /** The terminal success status. */
  status: number;
  /** Parsed JSON (through `parseBody` when given); `undefined` for 204 or an empty body. */
  body: TBody;
  /** The request id of the leg that succeeded (challenge mode). */
  requestId?: string;
  /** The `Idempotency-Key` sent (direct mode). */
  idempotencyKey?: string;
  /** Legs sent in the final run (2 for most endpoints, 3 for delegated keys, 1 in direct mode). */
  legs: number;
  /** HTTP requests sent in total, re-sends and restarts included. */
  attempts: number;
  /** 1 when `restartOnExpiry` started the flow over. */
  restarts: number;
};

/** Errors `runSignedRequest` throws: always a `SignetError` (see its TSDoc for the codes). */
export type RunSignedRequestErrorType = SignetError;

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_LEGS = 3;
const DEFAULT_TRANSIENT_RETRIES = 2;
const DEFAULT_RATE_LIMIT_RETRIES = 2;
const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;

const REQUEST_ID_PATTERN =
  /^Request:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const RFC3339_PATTERN = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
// Header values cannot hold control characters; a stamp with one would be a signer bug.
const HEADER_VALUE_PATTERN = /^[\x21-\x7e]+$/;

/**
 * The default PROCESSING check: `{ status: "PROCESSING" }` without an `id`.
 *
 * @example
 * ```ts
 * isProcessingBody({ status: "PROCESSING", message: "settling" }); // true
 * isProcessingBody({ id: "Quote:…", status: "PROCESSING" });      // false: an executed quote
 * ```
 */
export function isProcessingBody(body: unknown): boolean {
  return isPlainObject(body) && body.status === "PROCESSING" && body.id === undefined;
}

/**
 * Validates a 202 answer of the signed-retry protocol against the clock.
 *
 * @throws {SignetError} `MALFORMED_RESPONSE` when the body is not a JSON object;
 * `CHALLENGE_INVALID` (details `{ field }`) when `payloadToSign` is not a non-empty string,
 * `requestId` is not `Request:<uuid>`, or `expiresAt` is not an RFC 3339 time in the future.
 * @example
 * ```ts
 * const challenge = parseSignedRetryChallenge({ text: response.text, now: Date.now() });
 * ```
 */
export function parseSignedRetryChallenge(parameters: {
  text: string;
  now: number;
  status?: number;
}): SignedRetryChallenge {
  const status = parameters.status ?? 202;
  let json: unknown;
  try {
    json = JSON.parse(parameters.text);
  } catch (cause) {
    throw new SignetError("MALFORMED_RESPONSE", `HTTP ${status} challenge is not JSON`, {
      status,
      cause,
    });
  }
  if (!isPlainObject(json)) {
    throw new SignetError("MALFORMED_RESPONSE", `HTTP ${status} challenge is not a JSON object`, {
      status,
    });
  }
  const invalid = (field: string, expected: string) =>
    new SignetError("CHALLENGE_INVALID", `"${field}" of the challenge expected ${expected}`, {
      status,
      details: { field },
    });
  const { payloadToSign, requestId, expiresAt, type } = json;
  if (typeof payloadToSign !== "string" || payloadToSign === "") {
    throw invalid("payloadToSign", "a non-empty string");
  }
  if (typeof requestId !== "string" || !REQUEST_ID_PATTERN.test(requestId)) {
    throw invalid("requestId", "Request:<uuid>");
  }
  const expiresAtMs = typeof expiresAt === "string" ? Date.parse(expiresAt) : Number.NaN;
  if (
    typeof expiresAt !== "string" ||
    !RFC3339_PATTERN.test(expiresAt) ||
    !Number.isFinite(expiresAtMs)
  ) {
    throw invalid("expiresAt", "an RFC 3339 date-time");
  }
  if (expiresAtMs <= parameters.now) throw invalid("expiresAt", "a time in the future");
  return {
    payloadToSign,
    requestId,
    expiresAt,
    expiresAtMs,
    ...(typeof type === "string" ? { type } : {}),
  };
}

/**
 * A random UUID for `Idempotency-Key`: `crypto.randomUUID()` when present, else a v4 UUID from
 * `crypto.getRandomValues`, else from `Math.random` (the key must be unique, not secret).
 *
 * @example
 * ```ts
 * const key = generateIdempotencyKey(); // "3b241101-e2bb-4255-8caf-4136c566a962"
 * ```
 */
export function generateIdempotencyKey(): string {
  const cryptoObject = (globalThis as { crypto?: Partial<Crypto> }).crypto;
  if (typeof cryptoObject?.randomUUID === "function") return cryptoObject.randomUUID();
  const bytes = new Uint8Array(16);
  if (typeof cryptoObject?.getRandomValues === "function") cryptoObject.getRandomValues(bytes);
  else for (let index = 0; index < 16; index++) bytes[index] = Math.floor(Math.random() * 256);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Resolves after `ms`, or rejects with `ABORTED` as soon as `signal` fires.
 * @throws {SignetError} `ABORTED`.
 */
export const abortableSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  unlessAborted(() => defaultSleep(ms, signal), signal);

/** Runs `task`, rejecting with `ABORTED` as soon as `signal` fires, whatever `task` does. */
function unlessAborted<T>(task: () => Promise<T> | T, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return Promise.resolve().then(task);
  if (signal.aborted) return Promise.reject(abortedError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve()
      .then(task)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Thrown inside a run to start over from leg 1. */
class ChallengeLapse {
  constructor(readonly error: SignetError) {}
}

function isExpectedStatus(expected: number | readonly number[], status: number): boolean {
  return typeof expected === "number" ? status === expected : expected.includes(status);
}

/**
 * A 401 on a signed leg means the request id lapsed when the service says so in words, or when
 * the local clock is past `expiresAt`; the wallet-signature codes always keep their own meaning.
 */
function isRequestIdExpiry(
  error: SignetError,
  challenge: SignedRetryChallenge,
  now: number,
): boolean {
  if (error.status !== 401) return false;
  const code = String(error.code);
  if (code.startsWith("WALLET_SIGNATURE_") || code === "REQUEST_ID_MISSING") return false;
  if (code === "CHALLENGE_EXPIRED" || code === "REQUEST_EXPIRED" || code === "REQUEST_ID_EXPIRED") {
    return true;
  }
  if (now >= challenge.expiresAtMs) return true;
  const reason = error.details?.reason;
  const text = `${typeof reason === "string" ? reason : ""} ${error.message}`;
  return /expired/i.test(text) && /request/i.test(text);
}

/**
 * Runs one signed endpoint to its terminal answer.
 *
 * Challenge mode (default): leg 1 goes without signature headers; a 202 is validated, its
 * `payloadToSign` stamped by `sign`, and the same body sent again with `Grid-Wallet-Signature`
 * and `Request-Id`; a further 202 (delegated keys) repeats this, up to `maxLegs`. A 200 that
 * means PROCESSING is answered by re-sending the identical request (same body, stamp and request
 * id) with exponential backoff and full jitter, until a terminal answer, the challenge's
 * `expiresAt`, the deadline, or the signal. A 429 waits for `Retry-After` and re-sends the same
 * leg; a network failure, timeout or 5xx re-sends the same leg a bounded number of times.
 *
 * Direct mode (`mode: "direct"`, quote execute): `payloadToSign` is stamped once, and one
 * request is sent with the signature header and an `Idempotency-Key` generated once; every
 * retry re-sends the same stamp and key, so a network failure mid-execute can never pay twice.
 *
 * @throws {SignetError} the service's error (code, status, details) for a 4xx/5xx terminal
 * answer; `CHALLENGE_INVALID` or `MALFORMED_RESPONSE` for a bad 202; `CHALLENGE_EXPIRED` when
 * the challenge lapses first; `PROCESSING_TIMEOUT` at the deadline; `ABORTED`; `NETWORK` or
 * `TIMEOUT` when retries run out; `UNEXPECTED_STATUS`; and whatever `sign` throws. An error
 * answer that follows a re-send after a network failure or 5xx on a signed leg carries
 * `details.ambiguousResend: true`: the first send may have taken effect (a 401 for a used
 * request id then means exactly that), so the caller should re-read the state.
 * @example
 * ```ts
 * const { status } = await runSignedRequest({
 *   transport,
 *   operation: "revokeSession",
 *   method: "DELETE",
 *   path: `/auth/sessions/${sessionId}`,
 *   expectedStatus: 204,
 *   sign: (payload) => stampPayload(payload, sessionKey),
 *   signal,
 * });
 * ```
 */
export async function runSignedRequest<TBody = unknown>(
  parameters: RunSignedRequestParameters<TBody>,
): Promise<RunSignedRequestReturnType<TBody>> {
  const { transport, method, path, body, sign, expectedStatus, operation, signal, backoff } =
    parameters;
  if (body !== undefined && typeof body !== "string") {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"body" expected a string serialised once by the caller, got ${typeof body}`,
    );
  }
  const clock = parameters.clock ?? systemClock;
  const sleep = parameters.sleep ?? defaultSleep;
  const random = parameters.random ?? Math.random;
  const isProcessing = parameters.isProcessing ?? isProcessingBody;
  const maxTransientRetries = parameters.maxTransientRetries ?? DEFAULT_TRANSIENT_RETRIES;
  const maxRateLimitRetries = parameters.maxRateLimitRetries ?? DEFAULT_RATE_LIMIT_RETRIES;
  const maxRetryAfterMs = parameters.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const direct = parameters.mode === "direct";
  const maxLegs = parameters.mode === "direct" ? 1 : (parameters.maxLegs ?? DEFAULT_MAX_LEGS);
  const restartOnExpiry = parameters.mode !== "direct" && parameters.restartOnExpiry === true;
  const expects200 = isExpectedStatus(expectedStatus, 200);

  // The time budget runs on the local timer; an absolute `deadline` (service time) is turned
  // into the timer's terms once, here.
  const timer = parameters.timer ?? clock;
  const startedAt = timer.now();
  const deadline = Math.min(
    startedAt + (parameters.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    parameters.deadline === undefined
      ? Number.POSITIVE_INFINITY
      : startedAt + (parameters.deadline - clock.now()),
  );

  const emit = (
    event: Omit<SignedRequestEvent, "type" | "mode" | "method" | "path" | "operation">,
  ) => {
    deliver(
      {
        type: "signedRequest",
        ...(operation === undefined ? {} : { operation }),
        mode: direct ? "direct" : "challenge",
        method,
        path,
        ...event,
      },
      parameters.onEvent,
    );
  };

  const withContext = (details: Record<string, unknown>) => ({
    ...(operation === undefined ? {} : { operation }),
    ...details,
  });

  let attempts = 0;
  let restarts = 0;
  const usedRequestIds = new Set<string>();
  // Where the run stands, for the `failed` event.
  const position: { leg: number; attempt: number; requestId: string | undefined } = {
    leg: 1,
    attempt: 0,
    requestId: undefined,
  };

  const stamp = async (payloadToSign: string, context: SignContext): Promise<string> => {
    const value = await unlessAborted(() => sign(payloadToSign, context), signal);
    if (typeof value !== "string" || !HEADER_VALUE_PATTERN.test(value)) {
      throw new SignetError(
        "INVALID_ARGUMENT",
        `"sign" expected to return a non-empty header-safe string, got ${typeof value}`,
      );
    }
    return value;
  };

  /**
   * Sleeps `ms` unless waking would be past the deadline or the challenge's expiry, in which
   * case it throws at once what the caller chose for each limit: waiting is pointless then.
   */
  const wait = async (
    ms: number,
    challenge: SignedRetryChallenge | undefined,
    limits: {
      deadline: () => SignetError;
      expiry: (challenge: SignedRetryChallenge) => SignetError | ChallengeLapse;
    },
  ) => {
    if (timer.now() + ms >= deadline) throw limits.deadline();
    if (challenge !== undefined && clock.now() + ms >= challenge.expiresAtMs)
      throw limits.expiry(challenge);
    await unlessAborted(() => sleep(ms, signal), signal);
  };

  const expiredError = (challenge: SignedRetryChallenge, cause?: unknown) =>
    new SignetError("CHALLENGE_EXPIRED", "The signed-retry challenge expired before completion", {
      details: withContext({ requestId: challenge.requestId, expiresAt: challenge.expiresAt }),
      ...(cause === undefined ? {} : { cause }),
    });

  const timeoutError = (cause?: unknown) =>
    new SignetError("PROCESSING_TIMEOUT", "The signed request did not finish before its deadline", {
      retryable: true,
      details: withContext({}),
      ...(cause === undefined ? {} : { cause }),
    });

  /** The error for a lapse, wrapped to restart the flow when allowed and not yet used. */
  const lapse = (
    challenge: SignedRetryChallenge,
    cause?: unknown,
  ): SignetError | ChallengeLapse => {
    const error = expiredError(challenge, cause);
    return restartOnExpiry && restarts === 0 ? new ChallengeLapse(error) : error;
  };

  async function runOnce(): Promise<RunSignedRequestReturnType<TBody>> {
    let leg = 1;
    let legAttempt = 0;
    let processingCount = 0;
    let transientRetries = 0;
    let rateLimitRetries = 0;
    let challenge: SignedRetryChallenge | undefined;
    let headers: Record<string, string> = {};
    let idempotencyKey: string | undefined;

    if (parameters.mode === "direct") {
      idempotencyKey =
        parameters.idempotencyKey ?? (parameters.generateId ?? generateIdempotencyKey)();
      emit({ stage: "signing", leg, attempt: 0 });
      const value = await stamp(parameters.payloadToSign, {
        leg,
        ...(operation === undefined ? {} : { operation }),
        ...(signal === undefined ? {} : { signal }),
      });
      headers = { [WALLET_SIGNATURE_HEADER]: value, [IDEMPOTENCY_KEY_HEADER]: idempotencyKey };
    }

    let retryReason: SignedRequestRetryReason | undefined = restarts > 0 ? "restart" : undefined;
    let retryDelayMs: number | undefined;

    for (;;) {
      if (signal?.aborted) throw abortedError(signal);
      if (challenge !== undefined && clock.now() >= challenge.expiresAtMs) throw lapse(challenge);
      if (timer.now() >= deadline) throw timeoutError();

      legAttempt += 1;
      attempts += 1;
      position.leg = leg;
      position.attempt = legAttempt;
      position.requestId = challenge?.requestId;
      emit({
        stage: leg === 1 && !direct ? "challenge" : "submitting",
        leg,
        attempt: legAttempt,
        ...(challenge === undefined ? {} : { requestId: challenge.requestId }),
        ...(retryReason === undefined ? {} : { retryReason }),
        ...(retryDelayMs === undefined ? {} : { delayMs: retryDelayMs }),
      });
      retryReason = undefined;
      retryDelayMs = undefined;

      const remainingMs = deadline - timer.now();
      const attemptTimeoutMs = Math.min(parameters.attemptTimeoutMs ?? remainingMs, remainingMs);
      let response: TransportResponse;
      try {
        response = await transport.request({
          method,
          path,
          body,
          headers,
          signal,
          ...(Number.isFinite(attemptTimeoutMs) ? { timeoutMs: attemptTimeoutMs } : {}),
        });
      } catch (error) {
        if (!isSignetError(error)) throw error;
        if (error.code === "ABORTED") throw error;
        if (error.code === "TIMEOUT" && timer.now() >= deadline) throw timeoutError(error);
        if (!error.retryable || transientRetries >= maxTransientRetries) throw error;
        transientRetries += 1;
        const delayMs = backoffDelay({ ...backoff, attempt: transientRetries, random });
        await wait(delayMs, challenge, { deadline: () => error, expiry: () => error });
        retryReason = "transient";
        retryDelayMs = delayMs;
        continue;
      }

      const { status } = response;

      if (status === 202 && !direct) {
        const next = parseSignedRetryChallenge({ text: response.text, now: clock.now(), status });
        if (usedRequestIds.has(next.requestId)) {
          throw new SignetError("CHALLENGE_INVALID", "The service repeated a used request id", {
            status,
            details: withContext({ field: "requestId", requestId: next.requestId }),
          });
        }
        if (leg + 1 > maxLegs) {
          throw new SignetError(
            "CHALLENGE_INVALID",
            `The service asked for more than ${maxLegs} legs`,
            { status, details: withContext({ requestId: next.requestId, maxLegs }) },
          );
        }
        usedRequestIds.add(next.requestId);
        leg += 1;
        challenge = next;
        legAttempt = 0;
        processingCount = 0;
        transientRetries = 0;
        rateLimitRetries = 0;
        position.leg = leg;
        position.attempt = 0;
        position.requestId = next.requestId;
        emit({ stage: "signing", leg, attempt: 0, status, requestId: next.requestId });
        const value = await stamp(next.payloadToSign, {
          leg,
          requestId: next.requestId,
          ...(next.type === undefined ? {} : { type: next.type }),
          ...(operation === undefined ? {} : { operation }),
          ...(signal === undefined ? {} : { signal }),
        });
        headers = { [WALLET_SIGNATURE_HEADER]: value, [REQUEST_ID_HEADER]: next.requestId };
        continue;
      }

      if (status === 200 || isExpectedStatus(expectedStatus, status)) {
        // On 201/204 endpoints any 200 means processing, whatever its body.
        const parsed = status === 200 && !expects200 ? undefined : parseJsonBody<unknown>(response);
        if (status === 200 && (!expects200 || isProcessing(parsed))) {
          processingCount += 1;
          const delayMs = backoffDelay({ ...backoff, attempt: processingCount, random });
          emit({
            stage: "processing",
            leg,
            attempt: processingCount,
            status,
            delayMs,
            ...(challenge === undefined ? {} : { requestId: challenge.requestId }),
          });
          await wait(delayMs, challenge, { deadline: () => timeoutError(), expiry: lapse });
          retryReason = "processing";
          retryDelayMs = delayMs;
          continue;
        }
        let result: TBody;
        try {
          result =
            parameters.parseBody === undefined ? (parsed as TBody) : parameters.parseBody(parsed);
        } catch (cause) {
          if (isSignetError(cause)) throw cause;
          throw new SignetError("MALFORMED_RESPONSE", `HTTP ${status} body failed validation`, {
            status,
            cause,
            details: withContext({}),
          });
        }
        emit({
          stage: "done",
          leg,
          attempt: legAttempt,
          status,
          ...(challenge === undefined ? {} : { requestId: challenge.requestId }),
        });
        return {
          status,
          body: result,
          ...(challenge === undefined ? {} : { requestId: challenge.requestId }),
          ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
          legs: leg,
          attempts,
          restarts,
        };
      }

      const error =
        status >= 400
          ? errorFromResponse({
              response,
              now: clock.now(),
              details: withContext({
                ...(challenge === undefined ? {} : { requestId: challenge.requestId }),
                // A failure before this answer may have reached the service: after such a
                // re-send, a 401 for a used request id can mean the first send took effect.
                ...(transientRetries > 0 && (leg > 1 || direct) ? { ambiguousResend: true } : {}),
              }),
            })
          : new SignetError("UNEXPECTED_STATUS", `Unexpected HTTP ${status}`, {
              status,
              details: withContext({}),
            });

      if (status === 429 && rateLimitRetries < maxRateLimitRetries) {
        const retryAfterMs = parseRetryAfter(response.headers.get(RETRY_AFTER_HEADER), clock.now());
        const delayMs =
          retryAfterMs ?? backoffDelay({ ...backoff, attempt: rateLimitRetries + 1, random });
        if (delayMs <= maxRetryAfterMs) {
          rateLimitRetries += 1;
          await wait(delayMs, challenge, { deadline: () => error, expiry: () => error });
          retryReason = "rate-limited";
          retryDelayMs = delayMs;
          continue;
        }
      }

      if (status >= 500 && transientRetries < maxTransientRetries) {
        transientRetries += 1;
        const delayMs = backoffDelay({ ...backoff, attempt: transientRetries, random });
        await wait(delayMs, challenge, { deadline: () => error, expiry: () => error });
        retryReason = "transient";
        retryDelayMs = delayMs;
        continue;
      }

      if (challenge !== undefined && isRequestIdExpiry(error, challenge, clock.now())) {
        throw lapse(challenge, error);
      }
      throw error;
    }
  }

  for (;;) {
    try {
      return await runOnce();
    } catch (thrown) {
      if (thrown instanceof ChallengeLapse && restarts === 0) {
        restarts += 1;
        continue;
      }
      const error = thrown instanceof ChallengeLapse ? thrown.error : thrown;
      emit({
        stage: "failed",
        leg: position.leg,
        attempt: position.attempt,
        ...(position.requestId === undefined ? {} : { requestId: position.requestId }),
        ...(isSignetError(error)
          ? {
              code: String(error.code),
              ...(error.status === undefined ? {} : { status: error.status }),
            }
          : {}),
      });
      throw error;
    }
  }
}
