/**
 * Retry delays: capped exponential backoff with full jitter ("Exponential Backoff And Jitter",
 * AWS Architecture Blog). Full jitter spreads re-sends of many devices over the whole window
 * instead of synchronising them on the same instants.
 */

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
