"use client";
// The provider: one client and one query cache for a tree of components.
import { type KnownErrorCode, type SignetClient, SignetError } from "@signet/core";
import { createContext, createElement, type ReactNode, useContext, useMemo } from "react";
import { createQueryCache, type QueryCache } from "./queryCache.js";
import type { QueryKey } from "./queryKey.js";

type SignetContextValue = { client: SignetClient; cache: QueryCache };

const SignetContext = createContext<SignetContextValue | undefined>(undefined);

/** Props of {@link SignetProvider}. */
export type SignetProviderProps = {
  /** The client every hook below uses (`createClient` from `@signet/core`). */
  client: SignetClient;
  children?: ReactNode;
};

/**
 * Gives every Signet hook below it a client and a shared query cache. Create the client once,
 * outside render (module scope or `useState`), so it is not recreated on each render.
 *
 * @example
 * ```tsx
 * const client = createClient({ relayUrl: "/api/grid" });
 * root.render(<SignetProvider client={client}><App /></SignetProvider>);
 * ```
 */
export function SignetProvider({ client, children }: SignetProviderProps): ReactNode {
  const value = useMemo(() => ({ client, cache: createQueryCache() }), [client]);
  return createElement(SignetContext.Provider, { value }, children);
}

/** @internal The provider's value, or a typed error that says what to do. */
export function useSignetContext(hook: string): SignetContextValue {
  const value = useContext(SignetContext);
  if (value === undefined) {
    // A code of core's one set (`KnownErrorCode`), documented there.
    throw new SignetError(
      "PROVIDER_MISSING" satisfies KnownErrorCode,
      `${hook}() must be used inside <SignetProvider client={client}>: wrap your app (or this component) in it`,
    );
  }
  return value;
}

/**
 * The client of the nearest {@link SignetProvider}, to call a `@signet/core` action directly.
 *
 * @throws {SignetError} `PROVIDER_MISSING` outside a provider.
 */
export function useClient(): SignetClient {
  return useSignetContext("useClient").client;
}

/**
 * A function that refetches the provider's queries whose key starts with `queryKey` (those on
 * screen; the others are fetched anew when next shown), like TanStack Query's
 * `invalidateQueries`. Build the key with a `…QueryKey` function: `credentialsQueryKey({
 * accountId })` for one list, `["listCredentials"]` for every credential list, `[]` for all.
 *
 * @example
 * ```ts
 * const invalidate = useInvalidateQueries();
 * await changeSomethingOnYourBackend();
 * invalidate(credentialsQueryKey({ accountId }));
 * ```
 */
export function useInvalidateQueries(): (queryKey: QueryKey) => void {
  const { cache } = useSignetContext("useInvalidateQueries");
  return cache.invalidate;
}
