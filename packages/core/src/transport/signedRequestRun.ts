// The state of one signed request (docs/architecture.md "The signed-request engine"): what stays
// fixed for the run (its configuration, made once from the caller's parameters), what it keeps
// across its passes (counts, used request ids, the deadline), the leg state each pass holds as its
// own local, and the events and errors the run makes. The steps in `signedRequestSteps.ts` read it;
// `runSignedRequest`'s loop owns it.
import { defined, type Loose } from "../errors/defined.js";
import { SignetError, type SignetErrorDetails } from "../errors/errors.js";
import { defaultSleep } from "./abort.js";
import type { SignedRequestChallenge } from "./challenge.js";
import { checkedSigner } from "./checkedSigner.js";
import { deliver } from "./deliver.js";
import { type Clock, systemClock } from "./http.js";
import { REQUEST_ID_HEADER, WALLET_SIGNATURE_HEADER } from "./protocol.js";
import { isProcessingBody } from "./responseShape.js";
import {
  type RetryEvent,
  type RetryPolicy,
  type RetryReason,
  resolveRetryPolicy,
  retryEvent,
} from "./retry.js";
import type {
  ResumeFrom,
  RunSignedRequestParameters,
  SignedRequestEnd,
  SignedRequestEvent,
} from "./signedRequestParameters.js";

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_LEGS = 2;
/**
 * The longest a challenge is honoured, whatever its `expiresAt` says: the service's and the
 * emulator's challenges live minutes (5 in the emulator), so a later `expiresAt` can only come
 * from a relay that wants the device to keep re-sending.
 */
export const MAX_CHALLENGE_LIFETIME_MS = 15 * 60_000;
/**
 * Without a caller's `timeoutMs`, a run that holds a challenge ends this long after it started,
 * restarts included: room for one restart after a challenge of the longest honoured lifetime (the
 * service's challenges live minutes, so the policy's restarts fit), and no more, so endless
 * PROCESSING answers cannot keep a call pending.
 */
export const MAX_SIGNED_RUN_MS = 2 * MAX_CHALLENGE_LIFETIME_MS;

/** What stays fixed for the whole run, restarts included. */
export type RunConfig<TBody> = {
  readonly parameters: RunSignedRequestParameters<TBody>;
  readonly direct: boolean;
  readonly maxLegs: number;
  readonly clock: Clock;
  /** Local elapsed time, for the budget. */
  readonly timer: Clock;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random: () => number;
  readonly isProcessing: (body: unknown) => boolean;
  /** Whether a 200 body on a 201/204 endpoint is the resource (`parseBody` accepts it). */
  readonly isResource: ((body: unknown) => boolean) | undefined;
  readonly policy: RetryPolicy;
  readonly maxTransientRetries: number;
  readonly maxRateLimitRetries: number;
  readonly maxRetryAfterMs: number;
  /**
   * Fresh starts allowed: the policy's `retryCount`, and at least one (a lapse nothing can have
   * beaten always started over once, `retry: false` too), after a lapse nothing can have beaten,
   * or when `resolveAmbiguous` found that nothing happened.
   */
  readonly maxRestarts: number;
  /** The caller's absolute deadline on the local timer (infinite when none was given). */
  readonly givenDeadline: number;
  /** When the run started, on the local timer. */
  readonly startedAt: number;
  readonly signer: ReturnType<typeof checkedSigner>;
};

/**
 * Where one leg stands: local to a pass of the loop (a fresh one at each start), advanced in place
 * when a new challenge is signed.
 */
export type LegState = {
  leg: number;
  /** Sends of this leg so far. */
  attempt: number;
  processingCount: number;
  transientRetries: number;
  rateLimitRetries: number;
  /**
   * Whether a send of this signed leg may have been taken without a terminal answer (anything
   * but a 429: no answer, a 5xx, a 503 with `Retry-After`, PROCESSING): a lapse then no longer
   * proves that nothing happened.
   */
  touched: boolean;
  challenge: SignedRequestChallenge | undefined;
  headers: Record<string, string>;
  idempotencyKey: string | undefined;
  /** Direct mode without an `Idempotency-Key`: the device's own id for the call's pending state. */
  callId?: string;
  /** Why the next send is a re-send, and after which wait: told in its event. */
  retryReason: RetryReason | undefined;
  /** A push has ended a wait of this leg: later waits are the backoff alone. */
  pushed?: boolean;
  retryDelayMs: number | undefined;
};

/** What a run keeps across its passes (the leg state is each pass's own). */
export type RunState<TBody> = {
  readonly config: RunConfig<TBody>;
  /** HTTP requests sent in total. */
  attempts: number;
  /** Fresh starts from leg 1 (at most `config.maxRestarts`). */
  restarts: number;
  /**
   * Whether a signed send of this run, in any pass, may have been taken without a terminal
   * answer: an answer after it, even a fresh challenge's, can then follow an earlier send that
   * took effect, and an error that leaves the outcome open is resolved (`resolveAmbiguous`).
   */
  mayHaveActed: boolean;
  readonly usedRequestIds: Set<string>;
  /** The local-timer deadline: `timeoutMs` until a challenge is held, then as the caller chose. */
  deadline: number;
};

/**
 * Makes the run's state from the caller's parameters, defaulting every seam.
 *
 * @throws never.
 * @example
 * ```ts
 * const run = createRunState(parameters);
 * ```
 */
export function createRunState<TBody>(
  parameters: RunSignedRequestParameters<TBody>,
): RunState<TBody> {
  const clock = parameters.clock ?? systemClock;
  const timer = parameters.timer ?? clock;
  const policy = resolveRetryPolicy(parameters.retry);
  const direct = parameters.mode === "direct";
  const startedAt = timer.now();
  // An absolute `deadline` (service time) is turned into the timer's terms once, here.
  const givenDeadline =
    parameters.deadline === undefined
      ? Number.POSITIVE_INFINITY
      : startedAt + (parameters.deadline - clock.now());
  const config: RunConfig<TBody> = {
    parameters,
    direct,
    // A resume has no key to sign a further challenge with: a 202 ends it.
    maxLegs:
      parameters.mode === "direct"
        ? 1
        : parameters.resumeFrom !== undefined
          ? 2
          : (parameters.maxLegs ?? DEFAULT_MAX_LEGS),
    clock,
    timer,
    sleep: parameters.sleep ?? defaultSleep,
    random: parameters.random ?? Math.random,
    isProcessing: parameters.isProcessing ?? isProcessingBody,
    isResource: resourceCheck(parameters.parseBody),
    policy,
    maxTransientRetries: policy.retryCount,
    maxRateLimitRetries: policy.retryCount,
    maxRetryAfterMs: policy.maxRetryAfterMs,
    maxRestarts: Math.max(1, policy.retryCount),
    givenDeadline,
    startedAt,
    // Every payload is checked before `sign` sees it (docs/protocol.md §11).
    signer: checkedSigner({
      sign: parameters.sign,
      checkPayload: parameters.checkPayload,
      allowUnknownPayloads: parameters.allowUnknownPayloads === true,
      operation: parameters.operation ?? "signedRequest",
      now: () => clock.now(),
      signal: parameters.signal,
      onEvent: parameters.onEvent,
    }),
  };
  return {
    config,
    attempts: 0,
    restarts: 0,
    mayHaveActed: false,
    usedRequestIds: new Set(),
    deadline: Math.min(startedAt + (parameters.timeoutMs ?? DEFAULT_TIMEOUT_MS), givenDeadline),
  };
}

/** Whether `parseBody` accepts a body (a 200 that is the resource itself settles a call). */
function resourceCheck(
  parseBody: ((body: unknown) => unknown) | undefined,
): ((body: unknown) => boolean) | undefined {
  if (parseBody === undefined) return undefined;
  return (body) => {
    try {
      parseBody(body);
      return true;
    } catch {
      return false;
    }
  };
}

/** Leg 1 of a fresh start (`restart` after a restart: told in the first send's event). */
export function freshLeg(retryReason?: RetryReason): LegState {
  return {
    leg: 1,
    attempt: 0,
    processingCount: 0,
    transientRetries: 0,
    rateLimitRetries: 0,
    touched: false,
    challenge: undefined,
    headers: {},
    idempotencyKey: undefined,
    retryReason,
    retryDelayMs: undefined,
  };
}

/**
 * The signed leg a resume carries on (`resumeFrom`): leg 2 under its request id, with the stamp
 * it went with. Its earlier sends may have been taken, so the run counts as having acted (an
 * answer that leaves the outcome open is `OUTCOME_UNKNOWN`), and the request id is used.
 */
export function resumedLeg(run: RunState<unknown>, from: ResumeFrom): LegState {
  const { parameters, givenDeadline, startedAt } = run.config;
  run.mayHaveActed = true;
  run.usedRequestIds.add(from.requestId);
  if (parameters.timeoutMs === undefined)
    run.deadline = Math.min(givenDeadline, startedAt + MAX_SIGNED_RUN_MS);
  return {
    ...freshLeg(),
    leg: 2,
    touched: true,
    challenge: {
      payloadToSign: "",
      requestId: from.requestId,
      expiresAt: new Date(from.expiresAtMs).toISOString(),
      expiresAtMs: Math.min(from.expiresAtMs, run.config.clock.now() + MAX_CHALLENGE_LIFETIME_MS),
    },
    headers: { [WALLET_SIGNATURE_HEADER]: from.signature, [REQUEST_ID_HEADER]: from.requestId },
  };
}

/**
 * Emits a `signedRequest` event; optional fields may be `undefined` and are left out. `leg`,
 * `attempt` and `requestId` default to `leg`'s.
 */
export function emitStage(
  run: RunState<unknown>,
  current: LegState,
  event: Loose<
    Omit<SignedRequestEvent, "type" | "mode" | "method" | "path" | "operation" | "leg" | "attempt">
  > & { attempt?: number },
): void {
  const { parameters, direct } = run.config;
  const built = defined({
    type: "signedRequest",
    operation: parameters.operation,
    mode: direct ? "direct" : "challenge",
    method: parameters.method,
    path: parameters.path,
    leg: current.leg,
    attempt: current.attempt,
    requestId: current.challenge?.requestId,
    ...event,
  }) as SignedRequestEvent;
  // The end goes to the one who must act on it (the session store, on a 401) by a direct call;
  // the event that follows is for observers only.
  if (built.stage === "done" || built.stage === "failed") {
    try {
      parameters.onEnd?.(built as SignedRequestEnd);
    } catch {
      // What the receiver does with the end never changes how the request ended.
    }
  }
  deliver(built, parameters.onEvent);
}

/** Emits a `retry` event: the wait before a re-send, with its reason. */
export function emitRetry(
  run: RunState<unknown>,
  event: Pick<RetryEvent, "reason" | "attempt" | "delayMs"> & { error?: SignetError | undefined },
): void {
  const { parameters, clock } = run.config;
  const { reason, attempt, delayMs, error } = event;
  deliver(retryEvent(parameters, reason, attempt, delayMs, clock.now(), error), parameters.onEvent);
}

/** What a run adds to the `details` of the errors it makes or reads (codes.ts lists them per code). */
export type RunContext = {
  operation?: string;
  requestId?: string;
  ambiguousResend?: boolean;
  field?: string;
  maxLegs?: number;
};

/** Secret-free context for error details: the operation and what is given. */
export function withContext(run: RunState<unknown>, details: Loose<RunContext>): RunContext {
  return defined({ operation: run.config.parameters.operation, ...details });
}

/** Thrown inside a run to start over from leg 1 (flows that allow it, such as export). */
export class ChallengeLapse {
  constructor(readonly error: SignetError) {}
}

/** `CHALLENGE_EXPIRED`: the challenge lapsed before a terminal answer. */
export const challengeExpiredError = (
  challenge: SignedRequestChallenge,
  details: Record<string, unknown>,
  cause?: unknown,
): SignetError<"CHALLENGE_EXPIRED"> =>
  new SignetError("CHALLENGE_EXPIRED", "The signed-request challenge expired before completion", {
    details: { ...details, requestId: challenge.requestId, expiresAt: challenge.expiresAt },
    cause,
  });

/**
 * `OUTCOME_UNKNOWN`: a signed send may have taken effect, its answer was lost, and asking the
 * service did not settle what happened (details: `operation`, `step`, `requestId`, `code`).
 */
export const outcomeUnknownError = (
  details: SignetErrorDetails<"OUTCOME_UNKNOWN">,
  cause: SignetError,
): SignetError<"OUTCOME_UNKNOWN"> =>
  new SignetError(
    "OUTCOME_UNKNOWN",
    "The answer was lost and the outcome could not be read back: check the state before trying again",
    { details, cause },
  );

/** `PROCESSING_TIMEOUT` (retryable): the run's time budget is spent. */
export const processingTimeoutError = (
  details: Record<string, unknown>,
  cause?: unknown,
): SignetError<"PROCESSING_TIMEOUT"> =>
  new SignetError("PROCESSING_TIMEOUT", "The signed request did not finish before its deadline", {
    retryable: true,
    details,
    cause,
  });
