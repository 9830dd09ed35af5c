"use client";
// Queries: shared per provider by name and parameters, fetched on mount, refetched after the
// mutations that change them; nothing runs during server rendering.
import type { CallOptions, SignetClient, SignetError } from "@signet/core";
import { useCallback, useEffect, useSyncExternalStore } from "react";
import { useSignetContext } from "./context.js";

/** What a query hook returns. */
export type UseQueryReturnType<TData, TError extends SignetError = SignetError> = {
  data: TData | undefined;
  /** `pending` until the first answer (and during server rendering). */
  status: "pending" | "success" | "error";
  isPending: boolean;
  isSuccess: boolean;
  isError: boolean;
  error: TError | null;
  /** A request for it is under way (the first one, a refetch, or one after a mutation). */
  isFetching: boolean;
  refetch: () => Promise<void>;
};

/** Options every query hook takes besides its parameters. */
export type QueryOptions = {
  /** `false` waits (for example until an id is known). Default `true`. */
  enabled?: boolean | undefined;
};

// Keys are the query name and its parameters, in a stable order.
const keyOf = (name: string, parameters: object) =>
  `${name}:${JSON.stringify(parameters, Object.keys(parameters).sort())}`;

/** @internal The query hook behind every `useX` read. */
export function useSignetQuery<TParameters extends CallOptions, TData, TError extends SignetError>(
  name: string,
  action: (client: SignetClient, parameters: TParameters) => Promise<TData>,
  parameters: TParameters & QueryOptions,
): UseQueryReturnType<TData, TError> {
  const { client, cache } = useSignetContext(name);
  const { enabled = true, ...rest } = parameters;
  const key = keyOf(name, rest);
  const snapshot = useSyncExternalStore(
    useCallback((listener) => cache.subscribe(key, listener), [cache, key]),
    () => cache.snapshot(key),
    () => cache.snapshot(key),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the parameters
  const run = useCallback(
    (signal: AbortSignal) => action(client, { ...(rest as TParameters), signal }),
    [client, action, key],
  );
  useEffect(() => {
    if (enabled && snapshot.status === "pending" && !snapshot.isFetching)
      void cache.fetch(key, run);
  }, [enabled, cache, key, run, snapshot.status, snapshot.isFetching]);
  const refetch = useCallback(() => cache.fetch(key, run), [cache, key, run]);
  return {
    data: snapshot.data as TData | undefined,
    status: snapshot.status,
    isPending: snapshot.status === "pending",
    isSuccess: snapshot.status === "success",
    isError: snapshot.status === "error",
    error: snapshot.error as TError | null,
    isFetching: snapshot.isFetching,
    refetch,
  };
}
