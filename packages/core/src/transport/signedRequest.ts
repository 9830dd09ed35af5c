/**
 * The signed-request engine (docs/protocol.md §2; spec "Signed-retry pattern"; docs/architecture.md "The
 * signed-request engine"). One function runs every signed endpoint: the challenge legs, the
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
import { defaultSleep, unlessAborted } from "./abort.js";
import { type BackoffOptions, backoffDelay } from "./backoff.js";
import { parseSignedRequestChallenge, type SignedRequestChallenge } from "./challenge.js";
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
import { generateIdempotencyKey } from "./idempotencyKey.js";
import { type Answer, isExpectedStatus, isProcessingBody, nextStep } from "./nextStep.js";
import { errorFromResponse, parseRetryAfter } from "./responseError.js";

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
  /** Makes the key. Default `generateIdempotencyKey()` (`crypto.getRandomValues`); a client passes its crypto backend's source. */
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

/** Thrown inside a run to start over from leg 1. */
class ChallengeLapse {
  constructor(readonly error: SignetError) {}
}

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_LEGS = 3;
const DEFAULT_TRANSIENT_RETRIES = 2;
const DEFAULT_RATE_LIMIT_RETRIES = 2;
const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;

// Header values cannot hold control characters; a stamp with one would be a signer bug.
const HEADER_VALUE_PATTERN = /^[\x21-\x7e]+$/;

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
  const givenDeadline =
    parameters.deadline === undefined
      ? Number.POSITIVE_INFINITY
      : startedAt + (parameters.deadline - clock.now());
  // Until a challenge is held; then, unless `timeoutMs` was given, its `expiresAt` bounds the run.
  let deadline = Math.min(startedAt + (parameters.timeoutMs ?? DEFAULT_TIMEOUT_MS), givenDeadline);

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
    challenge: SignedRequestChallenge | undefined,
    limits: {
      deadline: () => SignetError;
      expiry: (challenge: SignedRequestChallenge) => SignetError | ChallengeLapse;
    },
  ) => {
    if (timer.now() + ms >= deadline) throw limits.deadline();
    if (challenge !== undefined && clock.now() + ms >= challenge.expiresAtMs)
      throw limits.expiry(challenge);
    await unlessAborted(() => sleep(ms, signal), signal);
  };

  const expiredError = (challenge: SignedRequestChallenge, cause?: unknown) =>
    new SignetError("CHALLENGE_EXPIRED", "The signed-request challenge expired before completion", {
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
    challenge: SignedRequestChallenge,
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
    let challenge: SignedRequestChallenge | undefined;
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
      let answer: Answer | undefined;
      let response: TransportResponse | undefined;
      let parsed: unknown;
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
        answer = { failure: error };
      }
      if (response !== undefined) {
        const { status } = response;
        if (status === 202 && !direct) answer = { status };
        else if (status === 200 || isExpectedStatus(expectedStatus, status)) {
          parsed = status === 200 && !expects200 ? undefined : parseJsonBody<unknown>(response);
          answer = { status, processing: status === 200 && expects200 && isProcessing(parsed) };
        } else {
          answer = {
            status,
            error:
              status >= 400
                ? errorFromResponse({
                    response,
                    now: clock.now(),
                    details: withContext({
                      ...(challenge === undefined ? {} : { requestId: challenge.requestId }),
                      // A failure before this answer may have reached the service: after such a
                      // re-send, a 401 for a used request id can mean the first send took effect.
                      ...(transientRetries > 0 && (leg > 1 || direct)
                        ? { ambiguousResend: true }
                        : {}),
                    }),
                  })
                : new SignetError("UNEXPECTED_STATUS", `Unexpected HTTP ${status}`, {
                    status,
                    details: withContext({}),
                  }),
            ...(status === 429 && rateLimitRetries < maxRateLimitRetries
              ? {
                  delayMs:
                    parseRetryAfter(response.headers.get(RETRY_AFTER_HEADER), clock.now()) ??
                    backoffDelay({ ...backoff, attempt: rateLimitRetries + 1, random }),
                }
              : {}),
          };
        }
      }
      if (answer === undefined) throw new TypeError("no answer and no failure");
      const step = nextStep(answer, {
        direct,
        expectedStatus,
        challengeExpiresAtMs: challenge?.expiresAtMs,
        now: clock.now(),
        pastDeadline: timer.now() >= deadline,
        transientRetries,
        maxTransientRetries,
        rateLimitRetries,
        maxRateLimitRetries,
        maxRetryAfterMs,
      });
      const status = response?.status;

      if (step.type === "sign" && response !== undefined) {
        const { status } = response;
        const next = parseSignedRequestChallenge({ text: response.text, now: clock.now(), status });
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
        // Without an explicit time limit, re-sends may go on until the challenge expires.
        if (parameters.timeoutMs === undefined) deadline = givenDeadline;
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

      if (step.type === "succeed" && status !== undefined) {
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

      if (step.type === "resend") {
        let delayMs: number;
        if (step.reason === "processing") {
          processingCount += 1;
          delayMs = backoffDelay({ ...backoff, attempt: processingCount, random });
          emit({
            stage: "processing",
            leg,
            attempt: processingCount,
            ...(status === undefined ? {} : { status }),
            delayMs,
            ...(challenge === undefined ? {} : { requestId: challenge.requestId }),
          });
          await wait(delayMs, challenge, { deadline: () => timeoutError(), expiry: lapse });
        } else {
          if (step.reason === "rate-limited") {
            rateLimitRetries += 1;
            delayMs = step.delayMs;
          } else {
            transientRetries += 1;
            delayMs = backoffDelay({ ...backoff, attempt: transientRetries, random });
          }
          const { cause } = step;
          await wait(delayMs, challenge, { deadline: () => cause, expiry: () => cause });
        }
        retryReason = step.reason;
        retryDelayMs = delayMs;
        continue;
      }

      if (step.type === "timeout") throw timeoutError(step.cause);
      if (step.type === "lapse" && challenge !== undefined) throw lapse(challenge, step.cause);
      throw step.type === "fail" ? step.error : new TypeError(`unhandled step ${step.type}`);
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
