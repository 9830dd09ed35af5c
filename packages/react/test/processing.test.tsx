// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
// A call the service answers PROCESSING (docs/protocol.md §2.5) over the real core, relay and
// emulator on 127.0.0.1: the mutation hook shows it (`isProcessing`, `pendingSince`,
// `processingAttempt`) while the call is re-sent, `usePendingCalls` lists it, and both clear when
// it settles. Each test runs as is and under <StrictMode>.
import { addCredential } from "@signet/core";
import { act, renderHook, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { signInWithEmail } from "../../../test/support/signIn.js";
import { usePendingCalls, useRevokeCredential } from "../src/index.js";
import { hookOptions, liveStack } from "./liveStack.js";

const stack = liveStack();

describe.each([
  ["as is", false],
  ["under StrictMode", true],
])("a call still processing (%s)", (_, strict) => {
  it("shows isProcessing and pendingSince while the revoke is re-sent, and clears them when it settles", async () => {
    const user = await stack().signUp(undefined, { phoneNumber: "+14155550123" });
    const { client } = stack().client(user.customerId, {
      retry: { backoff: { baseMs: 150, maxMs: 150 } },
    });
    await signInWithEmail(client, user.emailCredentialId);
    const added = await addCredential(client, {
      accountId: user.accountId,
      type: "SMS_OTP",
      phoneNumber: "+14155550123",
    });
    const credentialId = added.id;
    await stack().fault({
      match: { method: "DELETE", path: `/auth/credentials/${credentialId}` },
      count: 3,
      kind: "processing",
    });
    const { result } = renderHook(
      () => ({
        revoke: useRevokeCredential(),
        calls: usePendingCalls({ action: "revokeCredential" }),
      }),
      hookOptions(client, strict),
    );
    expect(result.current.revoke.isProcessing).toBe(false);
    let done: Promise<unknown> = Promise.resolve();
    act(() => {
      done = result.current.revoke.mutateAsync({
        accountId: user.accountId,
        credentialId,
        type: "SMS_OTP",
      });
    });
    await waitFor(() => expect(result.current.revoke.isProcessing).toBe(true));
    expect(result.current.revoke.pendingSince).toEqual(expect.any(Number));
    expect(result.current.revoke.processingAttempt).toBeGreaterThanOrEqual(1);
    expect(result.current.revoke.status).toBe("pending");
    await waitFor(() => expect(result.current.calls).toHaveLength(1));
    expect(result.current.calls[0]).toMatchObject({
      action: "revokeCredential",
      resumed: false,
      resumable: true,
    });
    await act(async () => {
      await done;
    });
    expect(result.current.revoke.status).toBe("success");
    expect(result.current.revoke.isProcessing).toBe(false);
    expect(result.current.revoke.pendingSince).toBeUndefined();
    expect(result.current.calls).toEqual([]);
  });
});
