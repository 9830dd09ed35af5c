// The emulator's clock: a time source plus an offset that tests advance, so session, challenge,
// quote and settlement lifetimes can be crossed without waiting.

/** The emulator clock. */
export interface EmulatorClock {
  /** Current emulator time in epoch milliseconds (time source + offset). */
  now(): number;
  /** Moves emulator time forward by `ms` (must be a non-negative finite number). */
  advance(ms: number): void;
  /** The total offset added so far, in milliseconds. */
  readonly offsetMs: number;
  /** Sets the offset back to zero. */
  reset(): void;
}

/**
 * Creates a clock over a time source (`Date.now` by default).
 * @example const clock = createClock(); clock.advance(15 * 60_000);
 */
export function createClock(source: () => number = Date.now): EmulatorClock {
  let offset = 0;
  return {
    now: () => source() + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`"ms" expected >= 0, got ${ms}`);
      offset += ms;
    },
    get offsetMs() {
      return offset;
    },
    reset() {
      offset = 0;
    },
  };
}

/** RFC 3339 text of an epoch-milliseconds time. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
