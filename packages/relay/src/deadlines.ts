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

/**
 * A pending deadline, linked to its neighbours in start order: stopping one unlinks it in place,
 * with no key, no map and no table to rebuild as deadlines come and go on every request.
 */
type Entry = {
  readonly at: number;
  readonly onExpire: () => void;
  prev: Entry | undefined;
  next: Entry | undefined;
  /** Stopped or expired: unlinked, and never unlinked again. */
  done: boolean;
};

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
  // Start order, and with one duration, deadline order: the head expires first.
  let head: Entry | undefined;
  let tail: Entry | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shared: boolean | undefined;

  const unlink = (entry: Entry): void => {
    if (entry.done) return;
    entry.done = true;
    if (entry.prev === undefined) head = entry.next;
    else entry.prev.next = entry.next;
    if (entry.next === undefined) tail = entry.prev;
    else entry.next.prev = entry.prev;
    entry.prev = undefined;
    entry.next = undefined;
  };
  const arm = (at: number): void => {
    timer = setTimeout(fire, Math.max(0, at - now()));
    unref(timer);
  };
  function fire(): void {
    timer = undefined;
    const t = now();
    while (head !== undefined) {
      const entry = head;
      if (entry.at > t) {
        arm(entry.at);
        return;
      }
      unlink(entry);
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
      const entry: Entry = { at: now() + ms, onExpire, prev: tail, next: undefined, done: false };
      if (tail === undefined) head = entry;
      else tail.next = entry;
      tail = entry;
      // An armed timer always points at or before the head's deadline (entries only join at the
      // tail, later), so only an empty queue needs a new one.
      if (timer === undefined) arm(entry.at);
      return () => unlink(entry);
    },
  };
}
