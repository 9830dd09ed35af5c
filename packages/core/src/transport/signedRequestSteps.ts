// The steps of one pass of a signed request (docs/architecture.md "The signed-request engine"), each
// over the run and the pass's own leg state: start a send, send, decide (the pure `nextStep`),
// then sign the next leg, succeed, wait to re-send, or fail. Each is small and tested on its own
// (signedRequestSteps.test.ts); `runSignedRequest`'s loop strings them together.
import { defined } from "../errors/defined.js";
import { detailOf, isSignetError, SignetError } from "../errors/errors.js";
import { abortedError } from "./abort.js";
import { parseSignedRequestChallenge } from "./challenge.js";
import { deliver } from "./deliver.js";
import type { TransportResponse } from "./http.js";
import { generateIdempotencyKey } from "./idempotencyKey.js";
import { type Answer, nextStep, readAnswer, type Step } from "./nextStep.js";
import { IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER, WALLET_SIGNATURE_HEADER } from "./protocol.js";
import { waitOnce } from "./repeat.js";
import { backoffDelay } from "./retry.js";
import type { RunSignedRequestReturnType, WalletOperationPush } from "./signedRequestParameters.js";
import {
  ChallengeLapse,
  challengeExpiredError,
  emitStage,
  type LegState,
  MAX_CHALLENGE_LIFETIME_MS,
  MAX_SIGNED_RUN_MS,
  processingTimeoutError,
  type RunState,
  withContext,
} from "./signedRequestRun.js";

export type Sent = { answer: Answer; response: TransportResponse | undefined; parsed: unknown };

/** Whether the leg carries a signature (every leg but challenge mode's first). */
const isSignedLeg = (run: RunState<unknown>, current: LegState) =>
  run.config.direct || current.leg > 1;

/**
 * Direct mode: the `Idempotency-Key` (made once for the call) and the one stamp, before the
 * first send.
 * @throws {SignetError} what the checked signer throws (`PAYLOAD_MISMATCH`, `ABORTED`, …).
 */
export async function prepareDirect(run: RunState<unknown>, current: LegState): Promise<void> {
  const { parameters, signer } = run.config;
  if (parameters.mode !== "direct") return;
  // `false`: the path itself correlates the re-sends (a contact-change submit), so no key is sent.
  current.idempotencyKey =
    parameters.idempotencyKey === false
      ? undefined
      : (parameters.idempotencyKey ?? (parameters.generateId ?? generateIdempotencyKey)());
  emitStage(run, current, { stage: "signing" });
  const value = await signer.stamp(
    parameters.payloadToSign,
    defined({ leg: current.leg, operation: parameters.operation, signal: parameters.signal }),
  );
  current.headers = {
    [WALLET_SIGNATURE_HEADER]: value,
    ...(current.idempotencyKey === undefined
      ? {}
      : { [IDEMPOTENCY_KEY_HEADER]: current.idempotencyKey }),
  };
}

/**
 * Before each send: stop on the signal, a lapsed challenge or a spent budget; count the send and
 * announce it (`challenge` for leg 1, else `submitting`, with the re-send's reason and wait).
 * @throws {SignetError} `ABORTED`, `PROCESSING_TIMEOUT`; {@link ChallengeLapse} on a lapse.
 */
export function startSend(run: RunState<unknown>, current: LegState): void {
  const { clock, timer, direct, parameters } = run.config;
  if (parameters.signal?.aborted) throw abortedError(parameters.signal);
  if (current.challenge !== undefined && clock.now() >= current.challenge.expiresAtMs)
    throw lapse(run, current);
  if (timer.now() >= run.deadline) throw processingTimeoutError(withContext(run, {}));
  current.attempt += 1;
  run.attempts += 1;
  emitStage(run, current, {
    stage: current.leg === 1 && !direct ? "challenge" : "submitting",
    retryReason: current.retryReason,
    delayMs: current.retryDelayMs,
  });
  current.retryReason = undefined;
  current.retryDelayMs = undefined;
}

/**
 * Sends the current leg once and reads the answer (no answer is an answer too: `failure`).
 * @throws {SignetError} `MALFORMED_RESPONSE` for a success body that is not JSON; non-Signet
 * errors of the transport as they are.
 */
export async function send(run: RunState<unknown>, current: LegState): Promise<Sent> {
  const { parameters, timer, clock, direct, policy, random } = run.config;
  const remainingMs = run.deadline - timer.now();
  const attemptTimeoutMs = Math.min(parameters.attemptTimeoutMs ?? remainingMs, remainingMs);
  let response: TransportResponse;
  try {
    response = await parameters.transport.request({
      method: parameters.method,
      path: parameters.path,
      body: parameters.body,
      headers: current.headers,
      signal: parameters.signal,
      ...(Number.isFinite(attemptTimeoutMs) ? { timeoutMs: attemptTimeoutMs } : {}),
    });
  } catch (error) {
    if (!isSignetError(error)) throw error;
    return { answer: { failure: error }, response: undefined, parsed: undefined };
  }
  const { answer, parsed } = readAnswer({
    response,
    direct,
    expectedStatus: parameters.expectedStatus,
    isProcessing: run.config.isProcessing,
    isResource: run.config.isResource,
    now: clock.now(),
    details: withContext(run, {
      requestId: current.challenge?.requestId,
      // A signed send before this answer may have reached the service: a 401 for a used request
      // id, or a duplicate, can then mean the earlier send took effect.
      ...(isAmbiguous(run) ? { ambiguousResend: true } : {}),
    }),
    rateLimitDelay:
      current.rateLimitRetries < run.config.maxRateLimitRetries
        ? () => backoffDelay({ ...policy.backoff, attempt: current.rateLimitRetries + 1, random })
        : undefined,
  });
  return { answer, response, parsed };
}

/**
 * Whether a signed send of this run, in this pass or an earlier one, may have been taken without
 * a terminal answer (see `RunState.mayHaveActed`): a later answer may follow a send that took
 * effect, and the outcome is unknown.
 */
export function isAmbiguous(run: RunState<unknown>): boolean {
  return run.mayHaveActed;
}

/**
 * After a send: a signed one that got no terminal answer may have been taken (see
 * `LegState.touched`): no answer (unless the connection was refused: nothing left), a 5xx (a 503
 * with `Retry-After` too: a gateway may answer it after the service committed), or PROCESSING.
 * A 429 is given before anything is done, and any other answer is terminal.
 */
export function noteSent(run: RunState<unknown>, current: LegState, answer: Answer): void {
  if (!isSignedLeg(run, current)) return;
  const taken =
    "failure" in answer
      ? answer.failure.code !== "ABORTED" && detailOf(answer.failure, "sent") !== false
      : answer.status >= 500 || answer.processing === true;
  if (!taken) return;
  current.touched = true;
  run.mayHaveActed = true;
}

/** What to do with an answer: the pure decision table, fed from the run's state. */
export function decide(run: RunState<unknown>, current: LegState, answer: Answer): Step {
  const { config } = run;
  const now = config.clock.now();
  return nextStep(answer, {
    direct: config.direct,
    expectedStatus: config.parameters.expectedStatus,
    challengeExpiresAtMs: current.challenge?.expiresAtMs,
    now,
    pastDeadline: config.timer.now() >= run.deadline,
    transientRetries: current.transientRetries,
    maxTransientRetries: config.maxTransientRetries,
    rateLimitRetries: current.rateLimitRetries,
    maxRateLimitRetries: config.maxRateLimitRetries,
    maxRetryAfterMs: config.maxRetryAfterMs,
  });
}

/**
 * A 202: validates the challenge, refuses a repeated request id or one leg too many, stamps
 * the payload (checked first) and makes the next leg's headers.
 * @throws {SignetError} `CHALLENGE_INVALID`, `MALFORMED_RESPONSE`, and what the signer throws.
 */
export async function signNext(
  run: RunState<unknown>,
  current: LegState,
  response: TransportResponse,
): Promise<void> {
  const { clock, parameters, maxLegs, signer, givenDeadline, startedAt } = run.config;
  const { status } = response;
  const parsed = parseSignedRequestChallenge({ text: response.text, now: clock.now(), status });
  // A relay may name any `expiresAt`: no challenge is honoured longer than the cap.
  const next = {
    ...parsed,
    expiresAtMs: Math.min(parsed.expiresAtMs, clock.now() + MAX_CHALLENGE_LIFETIME_MS),
  };
  if (run.usedRequestIds.has(next.requestId)) {
    throw new SignetError("CHALLENGE_INVALID", "The service repeated a used request id", {
      status,
      details: withContext(run, { field: "requestId", requestId: next.requestId }),
    });
  }
  const leg = current.leg + 1;
  if (leg > maxLegs) {
    throw new SignetError("CHALLENGE_INVALID", `The service asked for more than ${maxLegs} legs`, {
      status,
      details: withContext(run, { requestId: next.requestId, maxLegs }),
    });
  }
  run.usedRequestIds.add(next.requestId);
  // Without an explicit time limit, re-sends may go on until the challenge expires, within the
  // run's ceiling.
  if (parameters.timeoutMs === undefined)
    run.deadline = Math.min(givenDeadline, startedAt + MAX_SIGNED_RUN_MS);
  Object.assign(current, {
    leg,
    challenge: next,
    attempt: 0,
    processingCount: 0,
    transientRetries: 0,
    rateLimitRetries: 0,
    touched: false,
  });
  emitStage(run, current, { stage: "signing", status });
  const value = await signer.stamp(
    next.payloadToSign,
    defined({
      leg,
      requestId: next.requestId,
      type: next.type,
      operation: parameters.operation,
      signal: parameters.signal,
    }),
    // The payload's timestamp is judged against the challenge as the service stated it.
    parsed.expiresAtMs,
  );
  current.headers = { [WALLET_SIGNATURE_HEADER]: value, [REQUEST_ID_HEADER]: next.requestId };
}

/**
 * A terminal success: the body through `parseBody`, the `done` event, the result.
 * @throws {SignetError} `MALFORMED_RESPONSE` when `parseBody` refuses the body (its own
 * `SignetError` as it is).
 */
export function succeed<TBody>(
  run: RunState<TBody>,
  current: LegState,
  status: number,
  parsed: unknown,
): RunSignedRequestReturnType<TBody> {
  const { parseBody } = run.config.parameters;
  let body: TBody;
  try {
    body = parseBody === undefined ? (parsed as TBody) : parseBody(parsed);
  } catch (cause) {
    if (isSignetError(cause)) throw cause;
    throw new SignetError("MALFORMED_RESPONSE", `HTTP ${status} body failed validation`, {
      status,
      cause,
      details: withContext(run, {}),
    });
  }
  const requestId = current.challenge?.requestId;
  emitStage(run, current, { stage: "done", status });
  return {
    status,
    body,
    ...defined({ requestId, idempotencyKey: current.idempotencyKey }),
    legs: current.leg,
    attempts: run.attempts,
    restarts: run.restarts,
  };
}

/**
 * Waits before re-sending the same leg: the backoff after PROCESSING or a transient failure,
 * `Retry-After` after a 429. A wait that would end past the budget or the challenge's expiry
 * is not made: the step's cause (or `PROCESSING_TIMEOUT`, or the lapse) is thrown at once.
 * @throws {SignetError} as said, and `ABORTED`; {@link ChallengeLapse} on a restartable lapse.
 */
export async function waitToResend(
  run: RunState<unknown>,
  current: LegState,
  step: Extract<Step, { type: "resend" }>,
  status: number | undefined,
): Promise<void> {
  // Each reason counts its own waits on this leg; the wait itself is the one loop's (repeat.ts).
  let attempt: number;
  if (step.reason === "processing") attempt = ++current.processingCount;
  else if (step.reason === "rate-limited") attempt = ++current.rateLimitRetries;
  else attempt = ++current.transientRetries;
  const cause = step.reason === "processing" ? undefined : step.cause;
  const { policy, parameters, random, clock } = run.config;
  const requestId = current.challenge?.requestId;
  const push = parameters.waitForPush;
  // After PROCESSING, the operation's pushed end may cut the wait short, once a leg (push.ts).
  const sleep =
    step.reason === "processing" && push !== undefined && requestId !== undefined && !current.pushed
      ? sleepUntilPushed(
          run.config.sleep,
          (signal) => push(requestId, signal, parameters),
          (heard) => {
            current.pushed = true;
            emitStage(run, current, { stage: "pushed", status, push: heard });
          },
        )
      : run.config.sleep;
  const delayMs = await waitOnce(
    {
      reason: step.reason,
      attempt,
      cause,
      // A 429's wait was read and checked against the policy by `nextStep`.
      delayMs: step.reason === "rate-limited" ? step.delayMs : undefined,
    },
    {
      policy,
      request: parameters,
      random,
      sleep,
      signal: parameters.signal,
      clock,
      noted: (wait, ms) => {
        if (wait.reason !== "processing") return;
        emitStage(run, current, { stage: "processing", attempt, status, delayMs: ms });
        tellStillProcessing(run, current, attempt);
      },
      fits: (ms) => assertWaitFits(run, current, ms, cause),
      onRetry: (event) => deliver(event, parameters.onEvent),
    },
  );
  current.retryReason = step.reason;
  current.retryDelayMs = delayMs;
}

/**
 * The wait raced with a push: `sleep` as given, ended early (and quietly) when `listen` hears the
 * operation's end first. The caller's abort still rejects; the loser is always stopped.
 */
function sleepUntilPushed(
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  listen: (signal: AbortSignal) => Promise<WalletOperationPush | undefined>,
  heard: (push: WalletOperationPush) => void,
): (ms: number, signal?: AbortSignal) => Promise<void> {
  return async (ms, signal) => {
    const inner = new AbortController();
    const stop = () => inner.abort(signal?.reason);
    signal?.addEventListener("abort", stop, { once: true });
    let pushed = false;
    listen(inner.signal).then(
      (push) => {
        if (push === undefined || inner.signal.aborted) return;
        pushed = true;
        heard(push);
        inner.abort();
      },
      () => undefined,
    );
    try {
      await sleep(ms, inner.signal);
    } catch (error) {
      if (!pushed) throw error;
    } finally {
      signal?.removeEventListener("abort", stop);
      inner.abort();
    }
  };
}

/**
 * Tells `onStillProcessing`: the stamped leg in challenge mode; in direct mode only the call's id
 * (its `Idempotency-Key`, or one made here once) and the attempt, as there is no `Request-Id` and
 * no challenge a re-send could be kept under.
 */
function tellStillProcessing(run: RunState<unknown>, current: LegState, attempt: number): void {
  const { parameters } = run.config;
  const { challenge } = current;
  const signature = current.headers[WALLET_SIGNATURE_HEADER];
  if (parameters.onStillProcessing === undefined) return;
  if (parameters.mode === "direct") {
    current.callId ??=
      current.idempotencyKey ?? (parameters.generateId ?? generateIdempotencyKey)();
    try {
      parameters.onStillProcessing({ mode: "direct", requestId: current.callId, attempt });
    } catch {
      // Showing the call pending is best effort: the re-send goes on either way.
    }
    return;
  }
  if (challenge === undefined || !signature) return;
  try {
    parameters.onStillProcessing({
      method: parameters.method,
      path: parameters.path,
      body: parameters.body,
      expectedStatus: parameters.expectedStatus,
      requestId: challenge.requestId,
      signature,
      expiresAtMs: challenge.expiresAtMs,
      attempt,
    });
  } catch {
    // Keeping the call for a reload is best effort: this tab goes on re-sending either way.
  }
}

/** Throws instead of a wait that would wake past the budget or the challenge's expiry. */
function assertWaitFits(
  run: RunState<unknown>,
  current: LegState,
  ms: number,
  cause: SignetError | undefined,
) {
  const { timer, clock } = run.config;
  const { challenge } = current;
  if (timer.now() + ms >= run.deadline) throw cause ?? processingTimeoutError(withContext(run, {}));
  if (challenge !== undefined && clock.now() + ms >= challenge.expiresAtMs)
    throw cause ?? lapse(run, current);
}

/**
 * The error for a lapsed challenge: `CHALLENGE_EXPIRED`, wrapped in a {@link ChallengeLapse} to
 * start over with a fresh challenge, while the policy allows restarts, when that is safe: no
 * signed send of this leg may have been taken (it got no answer, a 5xx or PROCESSING), or the
 * flow allows it (`restartOnExpiry`). Marked `ambiguousResend` when a send may have been taken.
 */
export function lapse(
  run: RunState<unknown>,
  current: LegState,
  cause?: unknown,
): SignetError | ChallengeLapse {
  const { parameters } = run.config;
  const { challenge } = current;
  if (challenge === undefined) throw new TypeError("lapse without a challenge");
  const error = challengeExpiredError(
    challenge,
    withContext(run, isAmbiguous(run) ? { ambiguousResend: true } : {}),
    cause,
  );
  const allowed =
    parameters.mode !== "direct" &&
    // A resume cannot sign a fresh challenge: its lapse is the end.
    parameters.resumeFrom === undefined &&
    parameters.restartOnExpiry !== false &&
    (parameters.restartOnExpiry === true || !current.touched);
  return allowed && run.restarts < run.config.maxRestarts ? new ChallengeLapse(error) : error;
}

/** The error to throw for a terminal step (`timeout`, `lapse`, `fail`). */
export function failure(
  run: RunState<unknown>,
  current: LegState,
  step: Extract<Step, { type: "timeout" | "lapse" | "fail" }>,
): SignetError | ChallengeLapse {
  if (step.type === "timeout") return processingTimeoutError(withContext(run, {}), step.cause);
  if (step.type === "lapse") return lapse(run, current, step.cause);
  return step.error;
}
