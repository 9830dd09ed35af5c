// The envelope of the service's list answers, and the paging by `limit` and `cursor` its paged
// lists share (customers, internal accounts, transactions).

import { string } from "../validation.js";
import { queryParam, type RequestContext } from "./context.js";
import { invalidInput } from "./errors.js";

/** The list envelope (the emulator's lists fit on one page). */
export function listEnvelope(data: unknown[]): Record<string, unknown> {
  return { data, hasMore: false, totalCount: data.length };
}

/**
 * One page of a list by the spec's `limit` (1–100, default 20) and `cursor` (the opaque
 * `nextCursor` of the page before): `{ data, hasMore, nextCursor?, totalCount }`.
 */
export function pagedEnvelope<T>(
  ctx: RequestContext,
  all: readonly T[],
  toJson: (item: T) => unknown,
): Record<string, unknown> {
  const limitText = queryParam(
    ctx,
    "limit",
    string({ pattern: /^[0-9]{1,3}$/, patternMessage: "must be an integer 1–100" }),
  );
  const cursorText = queryParam(
    ctx,
    "cursor",
    string({ pattern: /^[0-9]{1,9}$/, patternMessage: "is not a cursor from this list" }),
  );
  const limit = limitText === undefined ? 20 : Number(limitText);
  if (limit < 1 || limit > 100) {
    throw invalidInput([{ field: "limit", message: "must be between 1 and 100" }]);
  }
  const start = cursorText === undefined ? 0 : Number(cursorText);
  const hasMore = start + limit < all.length;
  return {
    data: all.slice(start, start + limit).map(toJson),
    hasMore,
    ...(hasMore ? { nextCursor: String(start + limit) } : {}),
    totalCount: all.length,
  };
}
