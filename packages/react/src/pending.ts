"use client";
// The client's calls the service still answers PROCESSING for (docs/protocol.md §2.5), from core's
// tracker through useSyncExternalStore: those this page started and those it resumed after a
// reload or from another tab, which no mutation hook of this page holds.
import type { PendingCall } from "@signet/core";
import { useMemo, useSyncExternalStore } from "react";
import { useSignetContext } from "./context.js";

const NONE: readonly PendingCall[] = [];

/** Parameters of {@link usePendingCalls}. */
export type UsePendingCallsParameters = {
  /** Only the calls of this action (`signOut`, `revokeCredential`…). */
  action?: string | undefined;
};

/**
 * The calls still processing on this client: each with its action, request id, `since`, the
 * PROCESSING answers so far, and `resumed` for one carried on from a kept copy (a reload, another
 * tab). Render "still removing…" from it; the call's end comes as a `pending` event (`settled`,
 * `failed`) and the list no longer holds it. Empty during server rendering.
 *
 * @example
 * ```tsx
 * const removing = usePendingCalls({ action: "revokeCredential" });
 * if (removing.length > 0) return <p>Still removing…</p>;
 * ```
 */
export function usePendingCalls(
  parameters: UsePendingCallsParameters = {},
): readonly PendingCall[] {
  const { client } = useSignetContext("usePendingCalls");
  const calls = useSyncExternalStore(
    client.pending.subscribe,
    client.pending.getSnapshot,
    () => NONE,
  );
  const { action } = parameters;
  return useMemo(
    () => (action === undefined ? calls : calls.filter((call) => call.action === action)),
    [calls, action],
  );
}
