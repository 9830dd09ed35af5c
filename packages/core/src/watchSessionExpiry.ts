// Automatic session refresh (docs/architecture.md "Sessions"): refreshes each held session
// `marginMs` before it expires, while the client lives, by subscribing to the client's sessions.
// Loaded as a chunk when `autoRefresh` asks for it: the first refresh is minutes away. It is handed
// `refreshSession` rather than importing it, so the chunk holds only this module.
import type { refreshSession } from "./actions/refreshSession.js";
import type { SignetClient } from "./client.js";

/**
 * Refreshes every session the client holds `marginMs` before it expires, as long as it is still
 * held then; sessions restored after a reload count too. Stops, and cancels a refresh in flight,
 * when the client is destroyed. Failures are reported by the refresh's own events; the session
 * then expires normally.
 *
 * @returns A function that stops watching (the client's `destroy()` does it too).
 * @example
 * ```ts
 * const stop = watchSessionExpiry(client, { marginMs: 60_000, refresh: refreshSession });
 * ```
 */
export function watchSessionExpiry(
  client: SignetClient,
  { marginMs, refresh }: { marginMs: number; refresh: typeof refreshSession },
): () => void {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const { signal } = client;

  const refreshLater = (accountId: string, sessionId: string, expiresAt: string) => {
    const delay = Math.max(0, Date.parse(expiresAt) - marginMs - client.clock.now());
    const timer = setTimeout(() => {
      void client.sessions
        .list(accountId)
        .then((held) => {
          if (held.some((s) => s.id === sessionId)) {
            return refresh(client, { accountId, sessionId, signal });
          }
        })
        .catch(() => {
          // Reported through events by the refresh itself; the session then expires normally.
        });
    }, delay);
    (timer as { unref?: () => void }).unref?.();
    timers.set(sessionId, timer);
  };

  const sync = () => {
    const held = new Set<string>();
    for (const sessions of Object.values(client.sessions.getSnapshot())) {
      for (const session of sessions) {
        held.add(session.id);
        if (!timers.has(session.id)) refreshLater(session.accountId, session.id, session.expiresAt);
      }
    }
    for (const [id, timer] of timers) {
      if (held.has(id)) continue;
      clearTimeout(timer);
      timers.delete(id);
    }
  };

  const unsubscribe = client.sessions.subscribe(sync);
  const stop = () => {
    unsubscribe();
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    signal.removeEventListener("abort", stop);
  };
  if (signal.aborted) stop();
  else {
    signal.addEventListener("abort", stop, { once: true });
    sync();
  }
  return stop;
}
