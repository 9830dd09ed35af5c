// One deadline mechanism for every call of one duration (a service call, a Redis command): a
// queue in start order, which for a fixed duration is deadline order, and one timer for its head.
// A timer (`AbortSignal.timeout`, `setTimeout`) per call costs a timer, a signal and their
// garbage on every request, and holds each until it would fire, long after the call ended.

/** Deadlines of one fixed duration. */
export interface Deadlines {
  /**
   * Starts a deadline: `onExpire` runs once `ms` milliseconds from now unless the returned
   * function is called first (the call ended). Calling it again, or after expiry, does nothing.
   */
  start(onExpire: () => void): () => void;
}

type Entry = { readonly at: number; readonly onExpire: () => void };

const now = (): number => performance.now();

/**
 * Whether timers here are process timers (Node, Bun: an object with `unref`), which may fire
 * for any request. Elsewhere (Workers, Deno, browsers) a timer is kept per call: a runtime that
 * scopes timers to the request that set them could drop a shared one when that request ends.
 */
function sharedTimersWork(): boolean {
  const probe: unknown = setTimeout(() => {}, 0);
  clearTimeout(probe as ReturnType<typeof setTimeout>);
  return typeof (probe as { unref?: unknown } | null)?.unref === "function";
}

function unref(timer: ReturnType<typeof setTimeout>): void {
  // A pending deadline must not keep a process alive that has nothing else to do.
  (timer as { unref?: () => void }).unref?.();
}

/** Deadlines of `ms` milliseconds, sharing one timer where the runtime allows it. */
export function createDeadlines(ms: number): Deadlines {
  // Insertion order is start order, and with one duration, deadline order: the head expires first.
  const pending = new Map<object, Entry>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shared: boolean | undefined;

  const arm = (at: number): void => {
    timer = setTimeout(fire, Math.max(0, at - now()));
    unref(timer);
  };
  function fire(): void {
    timer = undefined;
    const t = now();
    for (const [key, entry] of pending) {
      if (entry.at > t) {
        arm(entry.at);
        return;
      }
      pending.delete(key);
      try {
        entry.onExpire();
      } catch {
        // One expiry must not stop the others.
      }
    }
  }

  return {
    start(onExpire) {
      // Probed on first use, inside a request: some runtimes refuse timers at module scope.
      shared ??= sharedTimersWork();
      if (!shared) {
        const own = setTimeout(onExpire, ms);
        return () => clearTimeout(own);
      }
      const key = {};
      pending.set(key, { at: now() + ms, onExpire });
      // An armed timer always points at or before the head's deadline (entries only join at the
      // tail, later), so only an empty queue needs a new one.
      if (timer === undefined) arm(now() + ms);
      return () => {
        pending.delete(key);
      };
    },
  };
}
