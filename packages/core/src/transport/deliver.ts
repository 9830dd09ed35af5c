// Handing events to sinks (docs/architecture.md "Events"). It lives in transport, the lowest layer
// that emits, so that `session/events.ts` (the vocabulary of event types) imports transport's types
// and transport never imports it: the two do not import each other.

/**
 * Hands `event` to each sink; what a sink throws is dropped, so no sink can break a flow.
 *
 * @throws never.
 * @example
 * ```ts
 * deliver({ type: "retry", method: "GET", path: "/quotes/Quote:…", reason: "transient", attempt: 1, delayMs: 400, retryAt }, onEvent);
 * ```
 */
export function deliver<TEvent>(
  event: TEvent,
  ...sinks: readonly (((event: TEvent) => void) | undefined)[]
): void {
  for (const sink of sinks) {
    try {
      sink?.(event);
    } catch {
      // An event sink must never break a payment or a sign-in.
    }
  }
}
