// Waiting and cancelling: the sleep between re-sends and the rule that an aborted call rejects at
// once with `ABORTED`, whatever the work it waits on does.
import { SignetError } from "../errors/errors.js";

/**
 * The error for a request stopped by the caller's `AbortSignal`.
 *
 * @example
 * ```ts
 * if (signal.aborted) throw abortedError(signal);
 * ```
 */
export function abortedError(signal?: AbortSignal): SignetError {
  return new SignetError("ABORTED", "The request was aborted", { cause: signal?.reason });
}

/** Resolves after `ms`, early (and quietly) when `signal` fires. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Resolves after `ms`, or rejects with `ABORTED` as soon as `signal` fires.
 * @throws {SignetError} `ABORTED`.
 */
export const abortableSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  unlessAborted(() => defaultSleep(ms, signal), signal);

/** Runs `task`, rejecting with `ABORTED` as soon as `signal` fires, whatever `task` does. */
export function unlessAborted<T>(
  task: () => Promise<T> | T,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (signal === undefined) return Promise.resolve().then(task);
  if (signal.aborted) return Promise.reject(abortedError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve()
      .then(task)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}
