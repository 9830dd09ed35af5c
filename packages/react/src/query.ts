"use client";
// Queries: shared per provider by key, fetched on mount, refetched after the mutations that change
// them; nothing runs during server rendering. The result narrows like TanStack Query v5's.
import type { CallOptions, RetryEvent, SignetError, SignetEvent } from "@signet/core";
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { useSignetContext } from "./context.js";
import type { SignetQueryOptions } from "./queries.js";
import { asSignetError, type UnexpectedErrorType } from "./queryCache.js";
import { hashKey, type SkipToken, skipToken } from "./queryKey.js";

type QueryResultBase = {
  /** A request for it is under way (the first one, a refetch, or one after a mutation). */
  isFetching: boolean;
  /** Fetches it again (joins a fetch under way). */
  refetch: () => Promise<void>;
  /**
   * The wait the fetch under way is in before core sends again: core's `retry` event (`reason`,
   * `attempt`, `delayMs`, `retryAt`, the last try's `status` and `code`), until the fetch's next
   * event (the retried request's answer) and when it settles. The same for every component
   * showing the query.
   */
  retrying: RetryEvent | undefined;
};

/** Before the first answer (and during server rendering, and while disabled). */
export type QueryPendingResult = QueryResultBase & {
  status: "pending";
  data: undefined;
  error: null;
  isPending: true;
  /** The first fetch is under way (`isPending && isFetching`). */
  isLoading: boolean;
  isSuccess: false;
  isError: false;
};
/** The last fetch failed; `data` is the previous answer's, if there was one. */
export type QueryErrorResult<TData, TError> = QueryResultBase & {
  status: "error";
  data: TData | undefined;
  /** The action's typed error, or `UNEXPECTED_ERROR` for anything else that was thrown. */
  error: TError | UnexpectedErrorType;
  isPending: false;
  isLoading: false;
  isSuccess: false;
  isError: true;
};
/** The last fetch answered. */
export type QuerySuccessResult<TData> = QueryResultBase & {
  status: "success";
  data: TData;
  error: null;
  isPending: false;
  isLoading: false;
  isSuccess: true;
  isError: false;
};

/**
 * What a query hook returns: a union that narrows on `status`, `isPending`, `isSuccess` and
 * `isError`, as TanStack Query v5's does (`if (q.isError) q.error.code`, `q.isSuccess && q.data`).
 */
export type UseQueryReturnType<TData, TError extends SignetError = SignetError> =
  | QueryPendingResult
  | QueryErrorResult<TData, TError>
  | QuerySuccessResult<TData>;

/** Options every query hook takes, with its parameters or as its second argument. */
export type QueryOptions<
  TData = unknown,
  TError extends SignetError = SignetError,
  TSelected = TData,
> = {
  /** `false` waits (for example until an id is known). Default `true`. See also `skipToken`. */
  enabled?: boolean | undefined;
  /** Derives `data` from the answer (during render; the cache keeps the answer itself). */
  select?: ((data: TData) => TSelected) | undefined;
  /**
   * How long, in ms, an answer stays fresh: a component that mounts with an older one fetches
   * it again. Default `Infinity` (fresh until a mutation changes it or `refetch`).
   */
  staleTime?: number | undefined;
  /**
   * Whether a failed fetch is tried again: a number of times, `true` for ever, or a function of
   * the failures so far and the error. Default `false`: core already retries what may succeed
   * on a second try (network failures, 429 and 5xx answers) before it fails.
   */
  retry?: boolean | number | ((failureCount: number, error: TError) => boolean) | undefined;
  /** The wait before retry number `failureCount`, in ms. Default `min(1000 · 2^n, 30 000)`. */
  retryDelay?: number | ((failureCount: number, error: TError) => number) | undefined;
  /**
   * Refetch when the window regains focus or the page becomes visible again (a change made on
   * another device or tab then shows). Default `true`, as TanStack Query's: the shown query
   * refetches unless its answer is younger than a `staleTime` you gave. `"always"` ignores
   * `staleTime`; `false` never refetches on focus. Browsers only (no `window` events, no effect).
   */
  refetchOnWindowFocus?: boolean | "always" | undefined;
};

/** A query hook's first argument: the action's parameters (with options), or `skipToken`. */
export type QueryParameters<
  TParameters,
  TData,
  TError extends SignetError = SignetError,
  TSelected = TData,
> = (TParameters & QueryOptions<TData, TError, TSelected>) | SkipToken;

/** Splits a hook's argument into the action's parameters and the query options. */
const split = (
  parameters: Record<string, unknown> | SkipToken,
  options: object | undefined,
): [object | undefined, Record<string, unknown>] => {
  if (parameters === skipToken) return [undefined, { ...options, enabled: false }];
  const { enabled, select, staleTime, retry, retryDelay, refetchOnWindowFocus, ...rest } =
    parameters;
  return [
    rest,
    { enabled, select, staleTime, retry, retryDelay, refetchOnWindowFocus, ...options },
  ];
};

const DISABLED_KEY = ["@signet/react:skip"] as const;

/** @internal The query hook behind every `useX` read. */
export function useSignetQuery<
  TParameters extends object,
  TData,
  TError extends SignetError,
  TSelected,
>(
  hook: string,
  queryOptions: (
    client: ReturnType<typeof useSignetContext>["client"],
    parameters: TParameters,
  ) => SignetQueryOptions<string, TParameters, TData>,
  parameters: (TParameters & QueryOptions<TData, TError, TSelected>) | SkipToken,
  options?: QueryOptions<TData, TError, TSelected>,
): UseQueryReturnType<TSelected, TError> {
  const { client, cache } = useSignetContext(hook);
  const [actionParameters, given] = split(
    parameters as Record<string, unknown> | SkipToken,
    options,
  );
  const own = given as QueryOptions<TData, TError, TSelected>;
  const {
    enabled = true,
    staleTime = Number.POSITIVE_INFINITY,
    select,
    refetchOnWindowFocus = true,
  } = own;
  // A staleTime the app gave keeps a young answer on focus; the default (Infinity) is about mounts.
  const focusFreshFor = own.staleTime ?? 0;
  const p = actionParameters as (TParameters & CallOptions) | undefined;
  // The fetch tells the cache its retry waits, so every component showing the query sees them.
  const query = p
    ? queryOptions(client, {
        ...p,
        onEvent: (event: SignetEvent) => {
          p.onEvent?.(event);
          cache.event(hash, event);
        },
      })
    : undefined;
  const queryKey = query?.queryKey ?? DISABLED_KEY;
  const hash = hashKey(queryKey);
  // The latest options and fetch, without making a new `run` on every render.
  const latest = useRef({ query, own });
  latest.current = { query, own };

  const snapshot = useSyncExternalStore(
    // biome-ignore lint/correctness/useExhaustiveDependencies: `hash` stands for the key
    useCallback((listener) => cache.subscribe(queryKey, listener), [cache, hash]),
    () => cache.snapshot(hash),
    () => cache.snapshot(hash),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: `hash` stands for the parameters
  const run = useCallback(
    async (signal: AbortSignal): Promise<unknown> => {
      // Only ever run while enabled, that is with parameters.
      const { query: current, own: o } = latest.current as {
        query: NonNullable<typeof query>;
        own: typeof own;
      };
      for (let failures = 0; ; ) {
        try {
          return await current.queryFn({ signal });
        } catch (thrown) {
          // As TanStack Query counts: 0 at the first failure.
          const error = asSignetError(thrown) as TError;
          const { retry = false, retryDelay } = o;
          const again =
            typeof retry === "function"
              ? retry(failures, error)
              : typeof retry === "number"
                ? failures < retry
                : retry;
          if (!again || signal.aborted) throw error;
          await new Promise((resolve) =>
            setTimeout(
              resolve,
              typeof retryDelay === "function"
                ? retryDelay(failures, error)
                : (retryDelay ?? Math.min(1000 * 2 ** failures, 30_000)),
            ),
          );
          // Stopped during the wait (nobody watches, or a refetch replaced it).
          if (signal.aborted) throw error;
          failures++;
        }
      }
    },
    [hash],
  );
  const active = enabled && query !== undefined;
  const needsFirstFetch = snapshot.status === "pending" && !snapshot.isFetching;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `hash` stands for the key; `needsFirstFetch` runs it again when a query is left without an answer or a fetch
  useEffect(() => {
    if (!active) return;
    // On mount, on a new key, and whenever the query is left without an answer or a fetch.
    const current = cache.snapshot(hash);
    if (current.isFetching) return;
    if (current.status === "pending" || Date.now() - current.updatedAt >= staleTime)
      void cache.fetch(queryKey, run);
  }, [active, cache, hash, run, staleTime, needsFirstFetch]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `hash` stands for the key
  useEffect(() => {
    if (!active || refetchOnWindowFocus === false) return;
    // Not in a browser (server rendering never runs effects; React Native has no window events).
    if (typeof window === "undefined" || typeof window.addEventListener !== "function") return;
    const doc = typeof document === "undefined" ? undefined : document;
    const onFocus = () => {
      if (doc?.visibilityState === "hidden") return;
      const current = cache.snapshot(hash);
      if (current.isFetching) return;
      const young = current.status !== "pending" && Date.now() - current.updatedAt < focusFreshFor;
      if (refetchOnWindowFocus !== "always" && young) return;
      void cache.fetch(queryKey, run);
    };
    window.addEventListener("focus", onFocus);
    doc?.addEventListener("visibilitychange", onFocus);
    return () => {
      window.removeEventListener("focus", onFocus);
      doc?.removeEventListener("visibilitychange", onFocus);
    };
  }, [active, cache, hash, run, refetchOnWindowFocus, focusFreshFor]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `hash` stands for the key
  const refetch = useCallback(
    () => (active ? cache.fetch(queryKey, run) : Promise.resolve()),
    [active, cache, hash, run],
  );

  // `select` runs again only when the answer or the function changes.
  const data = useMemo(
    () => (select && snapshot.data !== undefined ? select(snapshot.data as TData) : snapshot.data),
    [select, snapshot.data],
  );
  const { status } = snapshot;
  return {
    status,
    data,
    error: snapshot.error,
    isPending: status === "pending",
    isLoading: status === "pending" && snapshot.isFetching,
    isSuccess: status === "success",
    isError: status === "error",
    isFetching: snapshot.isFetching,
    refetch,
    retrying: snapshot.retrying,
  } as UseQueryReturnType<TSelected, TError>;
}
