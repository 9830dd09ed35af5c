// The watcher of held sessions (docs/architecture.md "Sessions"): warns before a session expires,
// refreshes it `marginMs` before (when `autoRefresh` asks), and drops it once expired, while the
// client lives. A device that slept is caught two ways: the app coming back to the foreground
// (`appState`), and a timer that fired late, since timers do not run while a laptop or a phone
// sleeps and a tab in the background is throttled. Either way the store is re-read (another tab
// may have refreshed meanwhile) and every session is judged by the clock again. Loaded as a chunk:
// its first timer is minutes away. It is handed `refreshSession` rather than importing it, so the
// chunk holds only this module.
import type { refreshSession } from "../../actions/refreshSession.js";
import type { SignetClient } from "../../client.js";
import { type AppStateSource, browserAppState } from "../appState.js";
import type { Session } from "../sessionStore.js";
import { isExpired, lapsesAt } from "./lapse.js";

/**
 * The longest one timer waits. A device that slept past a deadline notices within this after
 * waking, even in a background tab that gets no `visibilitychange`.
 */
export const MAX_TIMER_MS = 60_000;

/** A timer this much later than it was set for means the device slept or the tab was frozen. */
export const LATE_TIMER_MS = 2_000;

/** What {@link watchSessionExpiry} takes besides the client. */
export type WatchSessionExpiryParameters = {
  /** Refresh each held session this long before it expires (with `refresh`). */
  marginMs?: number | undefined;
  /** The refresh action; automatic refresh is off without it. */
  refresh?: typeof refreshSession | undefined;
  /** Foreground signals. Default: the browser's, looked up when a session is first held. */
  appState?: AppStateSource | undefined;
};

/**
 * Watches every session the client holds (restored ones too): emits a `session` event with
 * `action: "expiring"` once `client.sessions.expiryWarningMs` before it expires, refreshes it
 * `marginMs` before it expires when `refresh` is given (one attempt per session; a failure is
 * reported by the refresh's own events and the session then expires normally), and drops it when
 * it has expired (`action: "expired"`). A session whose refresh time passed while the device
 * slept is refreshed on waking; one that expired meanwhile is dropped, not refreshed. Stops, and
 * cancels a refresh in flight, when the client is destroyed.
 *
 * @returns A function that stops watching (the client's `destroy()` does it too).
 * @example
 * ```ts
 * const stop = watchSessionExpiry(client, { marginMs: 60_000, refresh: refreshSession });
 * ```
 */
export function watchSessionExpiry(
  client: SignetClient,
  { marginMs = 0, refresh, appState = browserAppState }: WatchSessionExpiryParameters = {},
): () => void {
  const { signal, sessions } = client;
  const warningMs = sessions.expiryWarningMs;
  // What was done for each session id, so that nothing is done twice for one session.
  const warned = new Set<string>();
  const refreshed = new Set<string>();
  const expiryChecked = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let resumeWanted = false;
  let stopListening: (() => void) | undefined;
  let running = false;

  const held = (): Session[] => Object.values(sessions.getSnapshot()).flat();

  /** The next moment something is due for `session`, or undefined when nothing is left. */
  const nextDue = (session: Session): number | undefined => {
    const end = Date.parse(session.expiresAt);
    const due: number[] = [];
    if (!expiryChecked.has(session.id)) due.push(lapsesAt(session));
    if (refresh && !refreshed.has(session.id)) due.push(end - marginMs);
    if (warningMs > 0 && !warned.has(session.id)) due.push(end - warningMs);
    return due.length ? Math.min(...due) : undefined;
  };

  const act = (session: Session, now: number) => {
    const end = Date.parse(session.expiresAt);
    const { accountId, id: sessionId } = session;
    if (isExpired(session, now)) {
      if (expiryChecked.has(sessionId)) return;
      // Too late to warn or refresh (a device that slept past the end): it is only dropped.
      for (const done of [expiryChecked, refreshed, warned]) done.add(sessionId);
      // `list` drops it when both clocks agree (or the service confirms) and emits `expired`.
      void sessions.list(accountId).catch(() => {
        // The store could not be read: the next call reports it.
      });
      return;
    }
    if (refresh && !refreshed.has(sessionId) && now >= end - marginMs) {
      refreshed.add(sessionId);
      // A refresh due before the warning makes the warning moot, unless the refresh fails.
      const warnLater = warningMs > 0 && warningMs <= marginMs && !warned.has(sessionId);
      if (warnLater) warned.add(sessionId);
      void refresh(client, { accountId, sessionId, signal }).catch(() => {
        // Reported through events by the refresh itself; the session then expires normally,
        // with its warning.
        if (!warnLater) return;
        warned.delete(sessionId);
        schedule();
      });
      return;
    }
    if (warningMs > 0 && !warned.has(sessionId) && now >= end - warningMs) {
      warned.add(sessionId);
      client.emit({
        type: "session",
        action: "expiring",
        accountId,
        sessionId,
        expiresAt: session.expiresAt,
      });
    }
  };

  const check = async () => {
    if (running || signal.aborted) return;
    running = true;
    try {
      if (resumeWanted) {
        resumeWanted = false;
        // Another tab may have refreshed, signed out or been rejected while this one slept.
        await sessions.sync().catch(() => {});
      }
      const now = client.clock.now();
      for (const session of held()) act(session, now);
    } finally {
      running = false;
      schedule();
    }
  };

  function schedule() {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (signal.aborted) return;
    const sessionsHeld = held();
    const ids = new Set(sessionsHeld.map((s) => s.id));
    for (const done of [warned, refreshed, expiryChecked]) {
      for (const id of done) if (!ids.has(id)) done.delete(id);
    }
    if (sessionsHeld.length === 0) {
      stopListening?.();
      stopListening = undefined;
      return;
    }
    stopListening ??= appState(() => {
      resumeWanted = true;
      schedule();
    });
    const due = sessionsHeld
      .map(nextDue)
      .filter((at): at is number => at !== undefined)
      .reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
    if (due === Number.POSITIVE_INFINITY && !resumeWanted) return;
    const now = client.clock.now();
    const delay = resumeWanted ? 0 : Math.min(MAX_TIMER_MS, Math.max(0, due - now));
    const setAt = client.timer.now();
    timer = setTimeout(() => {
      timer = undefined;
      // Fired late: the device slept (timers stood still) or the tab was frozen. The store may
      // have changed meanwhile, and deadlines passed: act as on coming back to the foreground.
      if (client.timer.now() - setAt - delay > LATE_TIMER_MS) resumeWanted = true;
      void check();
    }, delay);
    (timer as { unref?: () => void }).unref?.();
  }

  const unsubscribe = sessions.subscribe(schedule);
  const stop = () => {
    unsubscribe();
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    stopListening?.();
    stopListening = undefined;
    signal.removeEventListener("abort", stop);
  };
  if (signal.aborted) stop();
  else {
    signal.addEventListener("abort", stop, { once: true });
    schedule();
  }
  return stop;
}
