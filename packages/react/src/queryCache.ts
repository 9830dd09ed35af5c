// A small cache of query results shared by a provider's components: one request per key at a
// time, observers told of every change, and invalidation by query name after mutations.
import { isSignetError, SignetError } from "@signet/core";

/** A query's state, as a hook reads it. A new object on every change (for useSyncExternalStore). */
export type QuerySnapshot = {
  readonly status: "pending" | "success" | "error";
  readonly data: unknown;
  readonly error: SignetError | null;
  readonly isFetching: boolean;
};

const INITIAL: QuerySnapshot = Object.freeze({
  status: "pending",
  data: undefined,
  error: null,
  isFetching: false,
});

type Entry = {
  snapshot: QuerySnapshot;
  listeners: Set<() => void>;
  run?: ((signal: AbortSignal) => Promise<unknown>) | undefined;
  controller?: AbortController | undefined;
};

export type QueryCache = {
  snapshot(key: string): QuerySnapshot;
  subscribe(key: string, listener: () => void): () => void;
  /** Fetches `key` with `run` unless a fetch of it is under way. */
  fetch(key: string, run: (signal: AbortSignal) => Promise<unknown>): Promise<void>;
  /** Refetches the observed queries whose key starts with one of `names`; forgets the rest. */
  invalidate(names: readonly string[]): void;
};

/** Anything thrown becomes a SignetError, so `error.code` is always there. */
export const asSignetError = (error: unknown): SignetError =>
  isSignetError(error)
    ? error
    : new SignetError("UNEXPECTED_ERROR", "Something failed outside Signet", { cause: error });

export function createQueryCache(): QueryCache {
  const entries = new Map<string, Entry>();
  const entry = (key: string): Entry => {
    let found = entries.get(key);
    if (!found) {
      found = { snapshot: INITIAL, listeners: new Set() };
      entries.set(key, found);
    }
    return found;
  };
  const set = (e: Entry, patch: Partial<QuerySnapshot>) => {
    e.snapshot = Object.freeze({ ...e.snapshot, ...patch });
    for (const listener of e.listeners) listener();
  };
  const fetch = async (key: string, run: (signal: AbortSignal) => Promise<unknown>) => {
    const e = entry(key);
    e.run = run;
    if (e.controller) return;
    const controller = new AbortController();
    e.controller = controller;
    set(e, { isFetching: true });
    try {
      const data = await run(controller.signal);
      if (e.controller === controller) set(e, { status: "success", data, error: null });
    } catch (error) {
      if (e.controller === controller && !controller.signal.aborted)
        set(e, { status: "error", error: asSignetError(error) });
    } finally {
      if (e.controller === controller) {
        e.controller = undefined;
        set(e, { isFetching: false });
      }
    }
  };
  return {
    snapshot: (key) => entries.get(key)?.snapshot ?? INITIAL,
    subscribe(key, listener) {
      const e = entry(key);
      e.listeners.add(listener);
      return () => {
        e.listeners.delete(listener);
        // Nobody is watching any more: stop waiting for an answer nobody will read.
        if (e.listeners.size === 0 && e.controller) {
          e.controller.abort();
          e.controller = undefined;
          e.snapshot = Object.freeze({ ...e.snapshot, isFetching: false });
        }
      };
    },
    fetch,
    invalidate(names) {
      for (const [key, e] of entries) {
        if (!names.some((name) => key.startsWith(`${name}:`))) continue;
        if (e.listeners.size > 0 && e.run) {
          e.controller?.abort();
          e.controller = undefined;
          void fetch(key, e.run);
        } else entries.delete(key);
      }
    },
  };
}
