/**
 * The signed-request engine (docs/protocol.md §2; spec "Signed-retry pattern"; docs/architecture.md "The
 * signed-request engine"), internal to core: every signed action runs its endpoint through
 * `runSignedRequest`. One loop, here with what follows a failed pass (a restart, or the look-up
 * that settles a lost answer): a pass goes from leg 1 (or direct mode's one leg) to a terminal
 * answer, its leg state local to the pass (`signedRequestRun.ts` holds the run's state,
 * `signedRequestSteps.ts` the steps of a pass); what to do with each answer is `nextStep.ts`'s
 * pure decision; payloads reach the signer only through `checkedSigner.ts`; the types are in
 * `signedRequestParameters.ts`.
 *
 * Invariants, each relied on by a test:
 * - the body is the caller's string, sent unchanged on every leg and every re-send;
 * - a stamp is computed once per challenge (or once per direct execute) and re-sent as is;
 * - a request id is never sent again after a terminal answer; a re-send only repeats a request
 *   that got no terminal answer, and single-use request ids (or the Idempotency-Key) make it
 *   at-most-once;
 * - events are built field by field from non-secret values: no body, payload, stamp or key;
 * - a flow starts over (a fresh challenge, leg 1, the same body) only when nothing can have
 *   happened (a lapse no signed send may have beaten: only a 429 proves a send untaken) or the
 *   caller's `resolveAmbiguous` found that nothing did, as often as the policy allows. A relay
 *   that lies about a request id's expiry after forwarding the send gets at most one duplicate of
 *   the same checked body (the payload check runs again on the fresh challenge);
 * - `resolveAmbiguous` is asked only after an answer that leaves the outcome open
 *   (`mayHaveTakenEffect`), and when it throws, the original error is thrown.
 */

import { defined } from "../errors/defined.js";
import { isSignetError, SignetError } from "../errors/errors.js";
import { deliver } from "./deliver.js";
import { mayHaveTakenEffect } from "./nextStep.js";
import type {
  RunSignedRequestParameters,
  RunSignedRequestReturnType,
} from "./signedRequestParameters.js";
import {
  ChallengeLapse,
  createRunState,
  emitRetry,
  emitStage,
  freshLeg,
  type LegState,
  outcomeUnknownError,
  type RunState,
  resumedLeg,
} from "./signedRequestRun.js";
import {
  decide,
  failure,
  isAmbiguous,
  noteSent,
  prepareDirect,
  send,
  signNext,
  startSend,
  succeed,
  waitToResend,
} from "./signedRequestSteps.js";
import { withRetry } from "./withRetry.js";

export type {
  ChallengeModeParameters,
  DirectModeParameters,
  ResumeFrom,
  RunSignedRequestErrorType,
  RunSignedRequestParameters,
  RunSignedRequestReturnType,
  SignContext,
  SignedRequestEnd,
  SignedRequestEvent,
  SignedRequestStage,
  SignPayload,
  StampedRequest,
  WalletOperationPush,
} from "./signedRequestParameters.js";

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
 * answer that follows a re-send on a signed leg whose earlier send may have been taken (no
 * answer, a 5xx, a 503 with `Retry-After`, PROCESSING: anything but a 429) carries
 * `details.ambiguousResend: true`: the first send may have taken effect (a 401 for a used
 * request id then means exactly that), so the caller should re-read the state. When the
 * caller's `resolveAmbiguous` throws, this original error is thrown.
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
  const { body } = parameters;
  if (body !== undefined && typeof body !== "string") {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"body" expected a string (serialised once), got ${typeof body}`,
    );
  }
  const run = createRunState(parameters);
  for (;;) {
    // A restart signs its payloads afresh: the first is the first again.
    run.config.signer.restart();
    const leg =
      run.restarts === 0 && parameters.resumeFrom !== undefined
        ? resumedLeg(run, parameters.resumeFrom)
        : freshLeg(run.restarts > 0 ? "restart" : undefined);
    try {
      return await runLegs(run, leg);
    } catch (thrown) {
      let next: Awaited<ReturnType<typeof afterFailure<TBody>>>;
      try {
        next = await afterFailure(run, leg, thrown);
      } catch (error) {
        throw failed(run, leg, error);
      }
      if (next === "restart") continue;
      if (next !== undefined) return next;
      throw failed(run, leg, thrown instanceof ChallengeLapse ? thrown.error : thrown);
    }
  }
}

/** One pass from leg 1 (or direct mode's one leg) to a terminal answer. */
async function runLegs<TBody>(
  run: RunState<TBody>,
  leg: LegState,
): Promise<RunSignedRequestReturnType<TBody>> {
  await prepareDirect(run, leg);
  for (;;) {
    startSend(run, leg);
    const { answer, response, parsed } = await send(run, leg);
    noteSent(run, leg, answer);
    const step = decide(run, leg, answer);
    if (step.type === "sign" && response !== undefined) await signNext(run, leg, response);
    else if (step.type === "succeed" && response !== undefined)
      return succeed(run, leg, response.status, parsed);
    else if (step.type === "resend") await waitToResend(run, leg, step, response?.status);
    else if (step.type === "timeout" || step.type === "lapse" || step.type === "fail")
      throw failure(run, leg, step);
    else throw new TypeError(`unhandled step ${step.type}`);
  }
}

/**
 * After a pass failed: start over (a lapse that is safe to restart, or an ambiguous send that
 * the caller's `resolveAmbiguous` says to restart, while the policy allows), return what
 * `resolveAmbiguous` found, or `undefined` to throw the failure. An outcome left open ends in
 * `OUTCOME_UNKNOWN` where the answer would say something else (a spent request id's 401, the
 * relay's 403): see {@link unsettledError}.
 */
async function afterFailure<TBody>(
  run: RunState<TBody>,
  leg: LegState,
  thrown: unknown,
): Promise<"restart" | RunSignedRequestReturnType<TBody> | undefined> {
  if (thrown instanceof ChallengeLapse) return restart(run);
  if (!isSignetError(thrown) || !isAmbiguous(run)) return undefined;
  if (thrown.code === "ABORTED" || thrown.code === "PAYLOAD_MISMATCH") return undefined;
  // A definite refusal (a wrong code, a 400) says this request was judged: nothing to look up.
  if (!mayHaveTakenEffect(thrown)) return undefined;
  const resolve = run.config.parameters.resolveAmbiguous;
  if (resolve === undefined) throw unsettledError(run, leg, thrown, `leg ${leg.leg}`);
  let resolved: Awaited<ReturnType<typeof resolve>>;
  try {
    resolved = await askAgainOnFaults(run, () => resolve(thrown));
  } catch (failure) {
    if (isSignetError(failure, "ABORTED")) throw failure;
    // The question failed too, past the policy's retries: the outcome stays unknown.
    throw unsettledError(run, leg, thrown, "recovery", failure);
  }
  if (resolved === "restart") {
    if (run.restarts < run.config.maxRestarts) return restart(run);
    throw unsettledError(run, leg, thrown, `leg ${leg.leg}`);
  }
  if (resolved === undefined) throw unsettledError(run, leg, thrown, `leg ${leg.leg}`);
  const requestId = leg.challenge?.requestId;
  emitStage(run, leg, { stage: "done" });
  return {
    status: resolved.status,
    body: resolved.body,
    ...(requestId === undefined ? {} : { requestId }),
    legs: leg.leg,
    attempts: run.attempts,
    restarts: run.restarts,
    resolved: true,
  };
}

/**
 * Asks `question` (the look-up that settles an ambiguous send) again after its own transient
 * failures, in the one retry loop (`withRetry`) under the run's policy and within its budget: the
 * recovery recovers from what it recovers from. A look-up is a read: safe to repeat.
 * @throws {SignetError} its last failure, or `ABORTED`.
 */
function askAgainOnFaults<T>(run: RunState<unknown>, question: () => Promise<T>): Promise<T> {
  const { policy, random, timer, clock, sleep, parameters } = run.config;
  return withRetry(question, {
    policy,
    safe: true,
    method: parameters.method,
    path: parameters.path,
    operation: parameters.operation,
    signal: parameters.signal,
    sleep,
    random,
    timer,
    clock,
    deadline: run.deadline,
    onRetry: (event) => deliver(event, parameters.onEvent),
  });
}

/**
 * The error of a run whose signed send may have taken effect and whose outcome nothing settled:
 * an answer that would say something else (the 401 of a spent request id, whose documented
 * meaning is platform credentials; the relay's 403 for a resource the earlier send ended) is
 * `OUTCOME_UNKNOWN`, with the operation, the step (`leg N`, or `recovery` when the look-up that
 * settles it failed) and the code that ended it. No answer at all (`NETWORK`, `TIMEOUT`, a 5xx,
 * `PROCESSING_TIMEOUT`) and a lapse say so already and are thrown as they are.
 */
function unsettledError(
  run: RunState<unknown>,
  leg: LegState,
  thrown: SignetError,
  step: string,
  recoveryFailure?: unknown,
): SignetError {
  if (thrown.status === undefined || thrown.status >= 500) return thrown;
  return outcomeUnknownError(
    defined({
      operation: run.config.parameters.operation,
      step,
      requestId: leg.challenge?.requestId,
      code: String(thrown.code),
      status: thrown.status,
      recoveryCode: isSignetError(recoveryFailure) ? String(recoveryFailure.code) : undefined,
    }),
    thrown,
  );
}

/** Says `failed` (with the code) and gives the error back to throw. */
function failed(run: RunState<unknown>, leg: LegState, error: unknown): unknown {
  emitStage(run, leg, {
    stage: "failed",
    ...(isSignetError(error) ? { code: String(error.code), status: error.status } : {}),
  });
  return error;
}

function restart(run: RunState<unknown>): "restart" {
  run.restarts += 1;
  emitRetry(run, { reason: "restart", attempt: run.restarts, delayMs: 0 });
  return "restart";
}

/** One send's outcome: what `nextStep` reads, and the raw answer when there was one. */
