// A small cache of query results shared by a provider's components: one request per key at a
// time, observers told of every change, and invalidation by key prefix after mutations.
import {
  isSignetError,
  type KnownErrorCode,
  type RetryEvent,
  SignetError,
  type SignetEvent,
} from "@signet/core";
import { hashKey, matchesKey, type QueryKey } from "./queryKey.js";

/** A query's state, as a hook reads it. A new object on every change (for useSyncExternalStore). */
export type QuerySnapshot = {
  readonly status: "pending" | "success" | "error";
  readonly data: unknown;
  readonly error: SignetError | null;
  readonly isFetching: boolean;
  /** When the last fetch settled (`Date.now()`), 0 before: what `staleTime` is measured from. */
  readonly updatedAt: number;
  /** The retry wait of the fetch under way (core's `retry` event), until its next event. */
  readonly retrying?: RetryEvent | undefined;
};

const INITIAL: QuerySnapshot = Object.freeze({
  status: "pending",
  data: undefined,
  error: null,
  isFetching: false,
  updatedAt: 0,
});

type Run = (signal: AbortSignal) => Promise<unknown>;

type Entry = {
  queryKey: QueryKey;
  snapshot: QuerySnapshot;
  listeners: Set<() => void>;
  run?: Run | undefined;
  controller?: AbortController | undefined;
};

export type QueryCache = {
  snapshot(hash: string): QuerySnapshot;
  subscribe(queryKey: QueryKey, listener: () => void): () => void;
  /** Takes an event of a fetch of `hash`: a `retry` shows its wait until the next event. */
  event(hash: string, event: SignetEvent): void;
  /** Fetches `queryKey` with `run` unless a fetch of it is under way. */
  fetch(queryKey: QueryKey, run: Run): Promise<void>;
  /**
   * Refetches the observed queries whose key starts with `filter` (a prefix, `[]` for all) and
   * forgets the unobserved ones, so that they are fetched anew when next shown.
   */
  invalidate(filter: QueryKey): void;
};

/** Anything thrown becomes a SignetError, so `error.code` is always there. */
/**
 * What a hook reports when its call threw something that is not a `SignetError` (an app's own
 * callback, such as `authorizeQuote`'s `onChallenge`, that threw): `UNEXPECTED_ERROR`, the thrown
 * value as `cause`. Every hook's `error` is its action's error type or this.
 */
export type UnexpectedErrorType = SignetError<"UNEXPECTED_ERROR">;

export const asSignetError = (error: unknown): SignetError =>
  isSignetError(error)
    ? error
    : // A code of core's one set (`KnownErrorCode`), documented there.
      new SignetError(
        "UNEXPECTED_ERROR" satisfies KnownErrorCode,
        "Something failed outside Signet",
        {
          cause: error,
        },
      );

export function createQueryCache(): QueryCache {
  const entries = new Map<string, Entry>();
  const entry = (queryKey: QueryKey): Entry => {
    const hash = hashKey(queryKey);
    let found = entries.get(hash);
    if (!found) {
      found = { queryKey, snapshot: INITIAL, listeners: new Set() };
      entries.set(hash, found);
    }
    return found;
  };
  const set = (e: Entry, patch: Partial<QuerySnapshot>) => {
    e.snapshot = Object.freeze({ ...e.snapshot, ...patch });
    for (const listener of e.listeners) listener();
  };
  const fetch = async (e: Entry, run: Run) => {
    e.run = run;
    if (e.controller) return;
    const controller = new AbortController();
    e.controller = controller;
    set(e, { isFetching: true });
    try {
      const data = await run(controller.signal);
      if (e.controller === controller)
        set(e, { status: "success", data, error: null, updatedAt: Date.now() });
    } catch (error) {
      if (e.controller === controller && !controller.signal.aborted)
        set(e, { status: "error", error: asSignetError(error), updatedAt: Date.now() });
    } finally {
      if (e.controller === controller) {
        e.controller = undefined;
        set(e, { isFetching: false, retrying: undefined });
      }
    }
  };
  return {
    snapshot: (hash) => entries.get(hash)?.snapshot ?? INITIAL,
    event(hash, event) {
      const e = entries.get(hash);
      if (e) set(e, { retrying: event.type === "retry" ? event : undefined });
    },
    subscribe(queryKey, listener) {
      const e = entry(queryKey);
      e.listeners.add(listener);
      return () => {
        e.listeners.delete(listener);
        // Nobody is watching any more: stop waiting for an answer nobody will read. Not at once:
        // a component that comes straight back (Strict Mode's second mount, a moved subtree)
        // keeps the request under way instead of starting it again.
        setTimeout(() => {
          if (e.listeners.size > 0 || !e.controller) return;
          e.controller.abort();
          e.controller = undefined;
          e.snapshot = Object.freeze({ ...e.snapshot, isFetching: false });
        }, 0);
      };
    },
    fetch: (queryKey, run) => fetch(entry(queryKey), run),
    invalidate(filter) {
      for (const [hash, e] of entries) {
        if (!matchesKey(e.queryKey, filter)) continue;
        if (e.listeners.size > 0 && e.run) {
          e.controller?.abort();
          e.controller = undefined;
          void fetch(e, e.run);
        } else entries.delete(hash);
      }
    },
  };
}
