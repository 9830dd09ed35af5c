// Query keys: arrays of the query's name and its parameters, hashed with every nested field kept
// and object keys in a stable order, and matched by prefix for invalidation (TanStack's rules).

/** A query's key: `[name, parameters]`, as the `…QueryKey` functions build it. */
export type QueryKey = readonly unknown[];

/**
 * Passed instead of a query hook's parameters, it disables the query (like TanStack Query's
 * `skipToken`): nothing is fetched and `status` stays `pending`, with type-safe parameters that
 * do not need to be complete yet.
 *
 * @example
 * ```ts
 * // the parameters of `useTransaction`, once the id is known
 * const parameters = transactionId ? { transactionId } : skipToken;
 * ```
 */
export const skipToken: unique symbol = Symbol("skipToken");
/** The type of {@link skipToken}. */
export type SkipToken = typeof skipToken;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A stable string for a query key: objects at any depth with their keys sorted, so
 * `{ a, b: { c, d } }` and `{ b: { d, c }, a }` hash alike and no nested field is dropped.
 * `undefined` fields and functions are left out, as JSON does.
 */
export const hashKey = (queryKey: QueryKey): string =>
  JSON.stringify(queryKey, (_, value: unknown) =>
    isObject(value)
      ? Object.keys(value)
          .sort()
          .reduce<Record<string, unknown>>((sorted, key) => {
            sorted[key] = value[key];
            return sorted;
          }, {})
      : value,
  );

/**
 * Whether `key` starts with `filter`: each element of `filter` equals the one of `key` at its
 * place, an object when every field it names is equal (deeply). `["listCredentials"]` matches
 * every credential list; `["listCredentials", { accountId }]` that account's.
 */
export const matchesKey = (key: unknown, filter: unknown): boolean => {
  if (key === filter) return true;
  if (typeof key !== "object" || typeof filter !== "object" || key === null || filter === null)
    return false;
  return Object.keys(filter).every((field) =>
    matchesKey((key as Record<string, unknown>)[field], (filter as Record<string, unknown>)[field]),
  );
};
