// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
// useStepUp over the real core, relay and emulator on 127.0.0.1: the status it reads from the
// held sessions (fresh, stale, off), `verify()` by code turning `required` false with the new
// session's time, a refused action's typed error then the same action passing, and `required`
// turning true when the verification lapses, without any other render. Each test runs as is and
// inside <StrictMode>. The device's time moves through the client's clock, never by sleeping,
// but for the lapse, which the hook times on the page's own timer.
import { type createClient, exportWallet, isSignetError, type SignetClient } from "@signet/core";
import { act, renderHook, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { signInWithEmail } from "../../../test/support/signIn.js";
import { useStepUp } from "../src/index.js";
import { hookOptions, liveStack } from "./liveStack.js";

const stack = liveStack();
const MAX_AGE_MS = 60_000;

/** A signed-in client whose clock can be moved past the maximum age. */
async function signedIn(stepUp: Parameters<typeof createClient>[0]["stepUp"] | null) {
  const user = await stack().signUp();
  const clock = { ahead: 0 };
  const { client } = stack().client(user.customerId, {
    clock: { now: () => Date.now() + clock.ahead },
    ...(stepUp ? { stepUp } : {}),
  });
  const session = await signInWithEmail(client, user.emailCredentialId);
  return {
    ...user,
    client,
    session,
    age: () => {
      clock.ahead += (stepUp?.maxAgeMs ?? MAX_AGE_MS) + 5_000;
    },
  };
}

const view = (client: SignetClient, accountId: string, strict: boolean) =>
  renderHook(() => useStepUp({ accountId, action: "exportWallet" }), hookOptions(client, strict));

describe.each([false, true])("useStepUp (strict: %s)", (strict) => {
  it("a fresh sign-in: not required, with its verification and how long it counts", async () => {
    const u = await signedIn({ actions: "sensitive", maxAgeMs: MAX_AGE_MS });
    const { result } = view(u.client, u.accountId, strict);
    await waitFor(() => expect(result.current.verifiedAt).toBe(u.session.verifiedAt));
    expect(result.current.required).toBe(false);
    expect(result.current.maxAgeMs).toBe(MAX_AGE_MS);
    const until = Date.parse(result.current.validUntil!);
    expect(until).toBeLessThanOrEqual(Date.parse(u.session.verifiedAt!) + MAX_AGE_MS);
    expect(until).toBeGreaterThan(Date.now());
    expect(result.current.status).toBe("idle");
  });

  it("a stale session: required; verify() by code makes it not required, with the new time", async () => {
    const u = await signedIn({ actions: "sensitive", maxAgeMs: MAX_AGE_MS });
    u.age();
    const { result } = view(u.client, u.accountId, strict);
    await waitFor(() => expect(result.current.required).toBe(true));
    expect(result.current.verifiedAt).toBe(u.session.verifiedAt);
    const refused = await exportWallet(u.client, { accountId: u.accountId }).catch((e) => e);
    expect(isSignetError(refused, "STEP_UP_REQUIRED")).toBe(true);
    let verified: Awaited<ReturnType<typeof result.current.verify>> | undefined;
    await act(async () => {
      verified = await result.current.verify({ onCode: () => "000000" });
    });
    expect(verified?.accountId).toBe(u.accountId);
    await waitFor(() => expect(result.current.required).toBe(false));
    expect(result.current.verifiedAt).toBe(verified?.verifiedAt);
    expect(result.current.status).toBe("success");
    expect(await exportWallet(u.client, { accountId: u.accountId })).toMatch(
      /^[a-z]+( [a-z]+){11}$/,
    );
  });

  it("a wrong code: the mutation's typed error, and still required", async () => {
    const u = await signedIn({ actions: "sensitive", maxAgeMs: MAX_AGE_MS });
    u.age();
    const { result } = view(u.client, u.accountId, strict);
    await waitFor(() => expect(result.current.required).toBe(true));
    await act(async () => {
      await result.current.verify({ onCode: () => "999999" }).catch(() => undefined);
    });
    await waitFor(() => expect(result.current.status).toBe("error"));
    expect(result.current.error?.code).toBe("UNAUTHORIZED");
    expect(result.current.required).toBe(true);
  });

  it("off: never required, and no maximum age", async () => {
    const u = await signedIn(null);
    u.age();
    const { result } = view(u.client, u.accountId, strict);
    await waitFor(() => expect(result.current.verifiedAt).toBe(u.session.verifiedAt));
    expect(result.current.required).toBe(false);
    expect(result.current.maxAgeMs).toBeUndefined();
    expect(result.current.validUntil).toBeUndefined();
  });

  it("turns required when the verification lapses, with no other render", async () => {
    const u = await signedIn({ actions: ["exportWallet"], maxAgeMs: 1_500 });
    const { result } = view(u.client, u.accountId, strict);
    await waitFor(() => expect(result.current.verifiedAt).toBe(u.session.verifiedAt));
    expect(result.current.required).toBe(false);
    await waitFor(() => expect(result.current.required).toBe(true), { timeout: 5_000 });
  });
});
