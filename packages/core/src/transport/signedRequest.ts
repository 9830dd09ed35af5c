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

import { defined, type Loose } from "../defined.js";
import { isSignetError, SignetError } from "../errors.js";
import { deliver } from "../events.js";
import { defaultSleep, unlessAborted } from "./abort.js";
import { backoffDelay } from "./backoff.js";
import { parseSignedRequestChallenge, type SignedRequestChallenge } from "./challenge.js";
import { checkedSigner } from "./checkedSigner.js";
import { IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER, WALLET_SIGNATURE_HEADER } from "./headers.js";
import { abortedError, systemClock, type TransportResponse } from "./http.js";
import { generateIdempotencyKey } from "./idempotencyKey.js";
import { type Answer, isProcessingBody, nextStep } from "./nextStep.js";
import { readAnswer } from "./readAnswer.js";
import {
  ChallengeLapse,
  challengeExpiredError,
  processingTimeoutError,
} from "./signedRequestErrors.js";
import type { SignedRequestEvent, SignedRequestRetryReason } from "./signedRequestEvent.js";
import type {
  RunSignedRequestParameters,
  RunSignedRequestReturnType,
} from "./signedRequestParameters.js";

export type {
  SignedRequestEvent,
  SignedRequestRetryReason,
  SignedRequestStage,
} from "./signedRequestEvent.js";
export type {
  ChallengeModeParameters,
  DirectModeParameters,
  RunSignedRequestErrorType,
  RunSignedRequestParameters,
  RunSignedRequestReturnType,
  SignContext,
  SignPayload,
} from "./signedRequestParameters.js";

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_LEGS = 2;
const DEFAULT_TRANSIENT_RETRIES = 2;
const DEFAULT_RATE_LIMIT_RETRIES = 2;
const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;

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
      `"body" expected a string (serialised once), got ${typeof body}`,
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

  // Optional fields may be passed as `undefined`: the event leaves them out.
  const emit = (
    event: Loose<Omit<SignedRequestEvent, "type" | "mode" | "method" | "path" | "operation">>,
  ) => {
    deliver(
      defined({
        type: "signedRequest",
        operation,
        mode: direct ? "direct" : "challenge",
        method,
        path,
        ...event,
      }) as SignedRequestEvent,
      parameters.onEvent,
    );
  };

  const withContext = (details: Record<string, unknown>) => defined({ operation, ...details });

  let attempts = 0;
  let restarts = 0;
  const usedRequestIds = new Set<string>();
  // Where the run stands, for the `failed` event.
  const position: { leg: number; attempt: number; requestId: string | undefined } = {
    leg: 1,
    attempt: 0,
    requestId: undefined,
  };

  // Every payload is checked before `sign` sees it (docs/protocol.md §11).
  const signer = checkedSigner({
    sign,
    checkPayload: parameters.checkPayload,
    allowUnknownPayloads: parameters.allowUnknownPayloads === true,
    operation: operation ?? "signedRequest",
    now: () => clock.now(),
    signal,
    onEvent: parameters.onEvent,
  });
  const stamp = signer.stamp;

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

  const timeoutError = (cause?: unknown) => processingTimeoutError(withContext({}), cause);

  /** The error for a lapse, wrapped to restart the flow when allowed and not yet used. */
  const lapse = (
    challenge: SignedRequestChallenge,
    cause?: unknown,
  ): SignetError | ChallengeLapse => {
    const error = challengeExpiredError(challenge, withContext({}), cause);
    return restartOnExpiry && restarts === 0 ? new ChallengeLapse(error) : error;
  };

  async function runOnce(): Promise<RunSignedRequestReturnType<TBody>> {
    // A restart signs its payloads afresh: the first is the first again.
    signer.restart();
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
      const value = await stamp(parameters.payloadToSign, defined({ leg, operation, signal }));
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
        requestId: challenge?.requestId,
        retryReason,
        delayMs: retryDelayMs,
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
        ({ answer, parsed } = readAnswer({
          response,
          direct,
          expectedStatus,
          isProcessing,
          now: clock.now(),
          details: withContext({
            requestId: challenge?.requestId,
            // A failure before this answer may have reached the service: after such a re-send,
            // a 401 for a used request id can mean the first send took effect.
            ...(transientRetries > 0 && (leg > 1 || direct) ? { ambiguousResend: true } : {}),
          }),
          rateLimitDelay:
            rateLimitRetries < maxRateLimitRetries
              ? () => backoffDelay({ ...backoff, attempt: rateLimitRetries + 1, random })
              : undefined,
        }));
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
        const value = await stamp(
          next.payloadToSign,
          defined({ leg, requestId: next.requestId, type: next.type, operation, signal }),
          next.expiresAtMs,
        );
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
          requestId: challenge?.requestId,
        });
        return {
          status,
          body: result,
          ...defined({ requestId: challenge?.requestId, idempotencyKey }),
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
            status,
            delayMs,
            requestId: challenge?.requestId,
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
        requestId: position.requestId,
        ...(isSignetError(error) ? { code: String(error.code), status: error.status } : {}),
      });
      throw error;
    }
  }
}
