// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
// `retrying` of the hooks over the real core, relay and emulator on 127.0.0.1 (no mocked fetch):
// the retry wait core announces (its `retry` event) shows while the call waits, is gone once the
// next send starts or the retried request answers, and is gone when the call settles; a query's
// wait shows in every component that shows the query. Each test runs as is and under
// <StrictMode>.
import type { RetryEvent } from "@signet/core";
import { renderHook, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { signInWithEmail } from "../../../test/support/signIn.js";
import { useExportWallet, useInternalAccounts } from "../src/index.js";
import { hookOptions, liveStack } from "./liveStack.js";

const stack = liveStack();

/** A signed-in user whose client waits 200 ms at most between transient retries. */
async function signedIn() {
  const user = await stack().signUp();
  const { client } = stack().client(user.customerId, {
    retry: { backoff: { baseMs: 200, maxMs: 200 } },
  });
  await signInWithEmail(client, user.emailCredentialId);
  return { user, client };
}

describe.each([
  ["as is", false],
  ["under StrictMode", true],
])("retrying (%s)", (_, strict) => {
  it("a mutation shows a 429's Retry-After wait, then clears it when the next send starts", async () => {
    const { user, client } = await signedIn();
    const path = `/internal-accounts/${user.accountId}/export`;
    await stack().fault({ match: { path }, kind: "rate_limit", retryAfter: 1 });
    // Every render's view: what an app would show.
    const seen: { retrying: RetryEvent | undefined; status: string; stage: unknown }[] = [];
    const { result } = renderHook(
      () => {
        const exported = useExportWallet();
        seen.push({ retrying: exported.retrying, status: exported.status, stage: exported.stage });
        return exported;
      },
      hookOptions(client, strict),
    );
    expect(result.current.retrying).toBeUndefined();
    const before = Date.now();
    const done = result.current.mutateAsync({ accountId: user.accountId });
    await waitFor(() => expect(result.current.retrying).toBeDefined());
    const retrying = result.current.retrying as RetryEvent;
    expect(retrying).toMatchObject({
      type: "retry",
      operation: "exportWallet",
      method: "POST",
      path,
      reason: "rate-limited",
      attempt: 1,
      delayMs: 1_000,
      status: 429,
      code: "RATE_LIMITED",
    });
    expect(retrying.retryAt).toBeGreaterThanOrEqual(before + 1_000);
    expect(retrying.retryAt).toBeLessThanOrEqual(Date.now() + 1_000);
    // Nothing secret rides on it: the event's own fields, no body, payload or stamp.
    expect(Object.keys(retrying).sort()).toEqual([
      "attempt",
      "code",
      "delayMs",
      "method",
      "operation",
      "path",
      "reason",
      "retryAt",
      "status",
      "type",
    ]);
    expect(result.current.status).toBe("pending");
    expect(typeof (await done)).toBe("string");
    await waitFor(() => expect(result.current.status).toBe("success"));
    expect(result.current.retrying).toBeUndefined();
    // The wait ended while the call was still pending: when the re-sent first leg started.
    const shown = seen.findIndex((view) => view.retrying !== undefined);
    const cleared = seen.findIndex((view, i) => i > shown && view.retrying === undefined);
    expect(shown).toBeGreaterThan(-1);
    expect(seen[cleared]).toMatchObject({ status: "pending", stage: "challenge" });
  });

  it("a mutation whose retries run out settles in error with no wait left", async () => {
    const { user, client } = await signedIn();
    const path = `/internal-accounts/${user.accountId}/export`;
    await stack().fault({ match: { path }, kind: "error", status: 500, count: 2 });
    const reasons: string[] = [];
    const { result } = renderHook(
      () => {
        const exported = useExportWallet();
        if (exported.retrying)
          reasons.push(`${exported.retrying.reason} ${exported.retrying.status}`);
        return exported;
      },
      hookOptions(client, strict),
    );
    await expect(
      result.current.mutateAsync({ accountId: user.accountId, retry: { retryCount: 1 } }),
    ).rejects.toMatchObject({ status: 500 });
    await waitFor(() => expect(result.current.status).toBe("error"));
    expect(result.current.retrying).toBeUndefined();
    // One retry (this call's `retryCount: 1`), after the first 500.
    expect([...new Set(reasons)]).toEqual(["transient 500"]);
  });

  it("a query's retry wait shows in every component showing it, and clears with the answer", async () => {
    const { user, client } = await signedIn();
    await stack().fault({
      match: { method: "GET", path: "/customers/internal-accounts" },
      kind: "error",
      status: 503,
      code: "SERVICE_UNAVAILABLE",
    });
    const first: (RetryEvent | undefined)[] = [];
    const second: (RetryEvent | undefined)[] = [];
    const { result } = renderHook(
      () => {
        const a = useInternalAccounts({ customerId: user.customerId });
        const b = useInternalAccounts({ customerId: user.customerId });
        first.push(a.retrying);
        second.push(b.retrying);
        return { a, b };
      },
      hookOptions(client, strict),
    );
    await waitFor(() => expect(result.current.a.isSuccess).toBe(true));
    expect(result.current.b.isSuccess).toBe(true);
    expect(result.current.a.retrying).toBeUndefined();
    expect(result.current.b.retrying).toBeUndefined();
    const waits = [first, second].map((views) => views.find((view) => view !== undefined));
    for (const wait of waits)
      expect(wait).toMatchObject({
        type: "retry",
        method: "GET",
        reason: "transient",
        attempt: 1,
        status: 503,
        code: "SERVICE_UNAVAILABLE",
      });
    // One fetch for both: the same wait, from the cache.
    expect(waits[0]).toBe(waits[1]);
    expect(waits[0]?.delayMs).toBeLessThanOrEqual(200);
  });
});
