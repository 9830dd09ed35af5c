// The one retry policy (docs/architecture.md "Retries"): how many times, how long to wait, and
// what is safe to repeat, for every request Signet makes: signed legs, PROCESSING polls, the
// polls of waitForTransaction and plain reads. One place decides; each wait is a `retry` event.
import { defined } from "../errors/defined.js";
import { detailOf, type SignetError } from "../errors/errors.js";

// Retry delays: capped exponential backoff with full jitter ("Exponential Backoff And Jitter", AWS
// Architecture Blog). Full jitter spreads re-sends of many devices over the whole window instead of
// synchronising them on the same instants.

/** The shape of a backoff schedule. Every field is optional where it is accepted. */
export type BackoffOptions = {
  /** Ceiling of the first delay, in milliseconds. Default 500. */
  baseMs: number;
  /** Growth of the ceiling per attempt. Default 2. */
  factor: number;
  /** Largest ceiling, in milliseconds. Default 8000. */
  maxMs: number;
};

/** The schedule used when none is given: 500 ms, doubling, capped at 8 s. */
export const defaultBackoff: Readonly<BackoffOptions> = Object.freeze({
  baseMs: 500,
  factor: 2,
  maxMs: 8_000,
});

export type BackoffDelayParameters = Partial<BackoffOptions> & {
  /** 1 for the first retry, 2 for the second, and so on. */
  attempt: number;
  /** Uniform source in [0, 1). Default `Math.random` (jitter needs spread, not secrecy). */
  random?: (() => number) | undefined;
};

/**
 * The ceiling of the delay before retry number `attempt`: `min(maxMs, baseMs * factor^(attempt-1))`.
 *
 * @throws {SignetError} never; non-finite or negative inputs give 0.
 * @example
 * ```ts
 * backoffCeiling({ attempt: 3 }); // 2000
 * ```
 */
export function backoffCeiling(parameters: Omit<BackoffDelayParameters, "random">): number {
  const baseMs = parameters.baseMs ?? defaultBackoff.baseMs;
  const factor = parameters.factor ?? defaultBackoff.factor;
  const maxMs = parameters.maxMs ?? defaultBackoff.maxMs;
  const exponent = Math.max(0, Math.floor(parameters.attempt) - 1);
  const ceiling = Math.min(maxMs, baseMs * factor ** exponent);
  return Number.isFinite(ceiling) && ceiling > 0 ? ceiling : 0;
}

/**
 * The delay before retry number `attempt`, drawn uniformly from `[0, ceiling)` (full jitter)
 * and rounded to whole milliseconds.
 *
 * @example
 * ```ts
 * const delayMs = backoffDelay({ attempt: 2, random: () => 0.5 }); // 500 (half of 1000)
 * await sleep(delayMs);
 * ```
 */
export function backoffDelay(parameters: BackoffDelayParameters): number {
  const random = parameters.random ?? Math.random;
  const draw = random();
  const unit = Number.isFinite(draw) ? Math.min(Math.max(draw, 0), 1) : 0;
  return Math.floor(backoffCeiling(parameters) * unit);
}

/**
 * Why a request is sent again (or polled again), as a `retry` event and a hook's `retrying` tell.
 *
 * @throws never (a type).
 * @example
 * ```ts
 * const label = (reason: RetryReason) => (reason === "rate-limited" ? "Busy" : "Retrying");
 * ```
 */
export type RetryReason =
  /** The service answered `{ status: "PROCESSING" }` or a transaction is still moving. */
  | "processing"
  /** A 429, or a 503 with `Retry-After`: the answer said when to come back. */
  | "rate-limited"
  /** No answer (network, timeout) or a 5xx. */
  | "transient"
  /** The challenge lapsed or a re-send was ambiguous: the flow starts over with a fresh challenge. */
  | "restart";

/**
 * A retry policy with every field set: {@link defaultRetryPolicy}, or a client's `retry` options
 * over it (a call's `retry` refines it again).
 *
 * @throws never (a type).
 * @example
 * ```ts
 * const patient: RetryPolicy = { ...defaultRetryPolicy, retryCount: 6, timeoutMs: 300_000 };
 * createClient({ relayUrl: "/api/grid", retry: patient });
 * ```
 */
export type RetryPolicy = {
  /** Retries after a transient failure or a rate limit, per request (per leg of a signed request). */
  readonly retryCount: number;
  /** Waits between retries and PROCESSING re-sends: capped exponential backoff, full jitter. */
  readonly backoff: Readonly<BackoffOptions>;
  /** Largest `Retry-After` honoured, in ms; an answer asking for longer is final. */
  readonly maxRetryAfterMs: number;
  /** Overall budget of one unsigned call and its retries, in ms (signed requests: `timeoutMs`). */
  readonly timeoutMs: number;
  /**
   * Vetoes a retry the policy would make (it can never add one that is unsafe). Default: every
   * retry the rules allow.
   */
  readonly shouldRetry: ((context: ShouldRetryContext) => boolean) | undefined;
};

/**
 * What `shouldRetry` is asked about: the failure, why the policy would retry it, which retry it
 * would be, and the request (method and path, never a body or a header).
 *
 * @throws never (a type).
 * @example
 * ```ts
 * const shouldRetry = ({ reason, path }: ShouldRetryContext) =>
 *   reason !== "rate-limited" || !path.startsWith("/quotes/");
 * ```
 */
export type ShouldRetryContext = {
  error: SignetError;
  reason: RetryReason;
  /** 1 for the first retry. */
  attempt: number;
  method: string;
  path: string;
};

/**
 * Retry options, for `createClient({ retry })` or per call (`{ retry }` beside `signal`). The
 * policy of a call is built in one order, each layer overriding the one before it field by
 * field: the defaults (3 retries, 500 ms doubling to 8 s with full jitter, `Retry-After` up to
 * 30 s), then the client's `retry`, then the action's own default (a line in the action, e.g. a
 * slower backoff), then the call's `retry`. So the caller always wins, and an action's default
 * refines the client's policy without dropping it. `false`
 * turns retries off at its layer (PROCESSING re-sends, which are the protocol, go on; a later
 * layer's `retryCount` turns them on again). A `shouldRetry` can only veto a retry, never add one
 * the policy finds unsafe.
 *
 * @throws never (a type); a negative or non-finite `retryCount` is read as 0.
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "/api/grid", retry: { retryCount: 5 } });
 * await listSessions(client, { accountId, retry: false }); // this call: no retries
 * ```
 */
export type RetryOptions =
  | {
      retryCount?: number | undefined;
      backoff?: Partial<BackoffOptions> | undefined;
      maxRetryAfterMs?: number | undefined;
      timeoutMs?: number | undefined;
      shouldRetry?: ((context: ShouldRetryContext) => boolean) | undefined;
    }
  | false;

/**
 * The policy when nothing is given: 3 retries, 500 ms doubling to 8 s (full jitter),
 * `Retry-After` honoured up to 30 s, 120 s in all for an unsigned call and its retries.
 *
 * @throws never (a frozen value).
 * @example
 * ```ts
 * createClient({ relayUrl, retry: { retryCount: defaultRetryPolicy.retryCount * 2 } });
 * ```
 */
export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  retryCount: 3,
  backoff: defaultBackoff,
  maxRetryAfterMs: 30_000,
  timeoutMs: 120_000,
  shouldRetry: undefined,
});

/**
 * Merges retry options over the defaults, later ones winning field by field: pass the layers in
 * the documented order, `resolveRetryPolicy(client.retry, action, call.retry)` (see
 * {@link RetryOptions}). Every request Signet makes gets its policy here.
 *
 * @throws {SignetError} never; a negative or non-finite count is read as 0.
 * @example
 * ```ts
 * const policy = resolveRetryPolicy(client.retry, { backoff: { baseMs: 1_000 } }, call.retry);
 * ```
 */
export function resolveRetryPolicy(...layers: readonly (RetryOptions | undefined)[]): RetryPolicy {
  let policy: RetryPolicy = defaultRetryPolicy;
  for (const layer of layers) {
    if (layer === undefined) continue;
    if (layer === false) {
      policy = { ...policy, retryCount: 0 };
      continue;
    }
    policy = {
      retryCount: layer.retryCount ?? policy.retryCount,
      backoff: { ...policy.backoff, ...defined(layer.backoff ?? {}) },
      maxRetryAfterMs: layer.maxRetryAfterMs ?? policy.maxRetryAfterMs,
      timeoutMs: layer.timeoutMs ?? policy.timeoutMs,
      shouldRetry: layer.shouldRetry ?? policy.shouldRetry,
    };
  }
  const count = Number.isFinite(policy.retryCount) ? Math.max(0, Math.floor(policy.retryCount)) : 0;
  return count === policy.retryCount ? policy : { ...policy, retryCount: count };
}

/**
 * A 429, or a 503 that said when to come back (`Retry-After`): the service did not take the
 * request and asks for it later (docs/protocol.md §2). The one place this rule is written; the
 * engine's answers and `withRetry`'s failures both ask it.
 *
 * @example
 * ```ts
 * isRateLimited(503, true); // true: a 503 with Retry-After
 * ```
 */
export const isRateLimited = (status: number | undefined, saidWhen: boolean): boolean =>
  status === 429 || (status === 503 && saidWhen);

/**
 * Why a failure may be repeated, or `undefined` when it may not: `rate-limited` for a 429 or a
 * 503 with `Retry-After` (the answer says when to come back), `transient` for no answer or
 * another 5xx. `safe` says whether the request may be repeated whatever the first send did
 * (reads, new challenges, unsigned first legs, execute under its idempotency key): without it
 * only a request that provably never left (a refused connection) goes again.
 *
 * @example
 * ```ts
 * retryReasonOf(error, { safe: method === "GET" }); // "transient" for a NETWORK error on a read
 * ```
 */
export function retryReasonOf(
  error: SignetError,
  options: { safe: boolean },
): "rate-limited" | "transient" | undefined {
  if (error.code === "ABORTED" || !error.retryable) return undefined;
  const status = error.status;
  // A request that provably never left (a refused connection) may always go again.
  if (status === undefined && detailOf(error, "sent") === false) return "transient";
  // Otherwise only what is safe to repeat: a 429 on an SCA proof, say, is the service counting
  // refused answers, and the caller decides what comes next.
  if (!options.safe) return undefined;
  if (isRateLimited(status, typeof detailOf(error, "retryAfterMs") === "number"))
    return "rate-limited";
  if (status === undefined || status >= 500) return "transient";
  return undefined;
}

/**
 * The wait before retry number `attempt`: the answer's `Retry-After` when it gave one (within
 * `maxRetryAfterMs`, else `undefined`: do not retry), otherwise the backoff.
 *
 * @example
 * ```ts
 * retryDelay(policy, { attempt: 1, retryAfterMs: 3_000, random: Math.random }); // 3000
 * ```
 */
export function retryDelay(
  policy: RetryPolicy,
  parameters: { attempt: number; retryAfterMs?: number | undefined; random: () => number },
): number | undefined {
  const { retryAfterMs } = parameters;
  if (retryAfterMs !== undefined) {
    return retryAfterMs <= policy.maxRetryAfterMs ? Math.max(0, retryAfterMs) : undefined;
  }
  return backoffDelay({
    ...policy.backoff,
    attempt: parameters.attempt,
    random: parameters.random,
  });
}

/**
 * A retry or a wait, announced before it starts, so an app can show "retrying in 3 s" (the
 * React hooks hold the latest one as `retrying`). Redacted by construction: the path and
 * codes, never a body or a header value.
 *
 * @throws never (a type).
 * @example
 * ```ts
 * await verifyOtp(client, {
 *   ...parameters,
 *   onEvent: (event) => {
 *     if (event.type === "retry") show(`Retrying in ${Math.ceil(event.delayMs / 1000)} s`);
 *   },
 * });
 * ```
 */
export type RetryEvent = {
  type: "retry";
  /** The flow, e.g. `"verifyOtp"`, where known. */
  operation?: string;
  method: string;
  path: string;
  reason: RetryReason;
  /** 1 for the first retry (of this reason, on this leg). */
  attempt: number;
  delayMs: number;
  /** When the next send goes, in the client's time (epoch ms). */
  retryAt: number;
  /** What ended the last try: its HTTP status and code, when there was one. */
  status?: number;
  code?: string;
};

/**
 * The one way a `retry` event is made (the signed-request engine, `withRetry`, `pollUntil`):
 * from the request's method, path and operation, the wait, and what ended the last try.
 *
 * @example
 * ```ts
 * emit(retryEvent({ method: "GET", path }, "transient", 1, 500, clock.now(), error));
 * ```
 */
export const retryEvent = (
  request: { method: string; path: string; operation?: string | undefined },
  reason: RetryReason,
  attempt: number,
  delayMs: number,
  now: number,
  error?: SignetError,
): RetryEvent =>
  defined({
    type: "retry",
    operation: request.operation,
    method: request.method,
    path: request.path,
    reason,
    attempt,
    delayMs,
    retryAt: now + delayMs,
    status: error?.status,
    code: error && String(error.code),
  }) as RetryEvent;
