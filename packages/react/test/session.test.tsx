// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
// useSession's expiry state over the real core, relay and emulator: `expiresIn`, `expiring` within
// the client's warning margin (its default, its option, and off), the countdown, and a session
// the service rejected turning the hook to signedOut.
import { revokeSession, type SignetClient, updateWalletPrivacy } from "@signet/core";
import { cleanup, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "../../../test/support/signIn.js";
import { type Stack, startStack } from "../../../test/support/stack.js";
import { SignetProvider, useSession } from "../src/index.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());
afterEach(cleanup);

const wrapper =
  (client: SignetClient) =>
  ({ children }: { children: ReactNode }) => (
    <SignetProvider client={client}>{children}</SignetProvider>
  );

/** A signed-in client whose clock can be moved, and the hook over it. */
async function signedIn(sessionWarning?: { marginMs: number } | false) {
  const user = await stack.signUp();
  let offset = 0;
  const { client } = stack.client(user.customerId, {
    clock: { now: () => Date.now() + offset },
    ...(sessionWarning === undefined ? {} : { sessionWarning }),
  });
  const held = await signInWithEmail(client, user.emailCredentialId);
  const end = Date.parse(held.expiresAt);
  const view = (remainingMs: number) => {
    offset = end - remainingMs - Date.now();
    return renderHook(() => useSession({ accountId: user.accountId }), {
      wrapper: wrapper(client),
    });
  };
  return { user, client, view };
}

describe("useSession before expiry", () => {
  it("five minutes before the end: signed in, not expiring, expiresIn in ms", async () => {
    const { view } = await signedIn();
    const { result } = view(5 * 60_000);
    await waitFor(() => expect(result.current.status).toBe("signedIn"));
    expect(result.current.expiring).toBe(false);
    expect(result.current.expiresIn).toBeGreaterThan(5 * 60_000 - 2_000);
    expect(result.current.expiresIn).toBeLessThanOrEqual(5 * 60_000);
  });

  it("within the default minute: expiring, and expiresIn counts down each second", async () => {
    const { view } = await signedIn();
    const { result } = view(40_000);
    await waitFor(() => expect(result.current.status).toBe("signedIn"));
    expect(result.current.expiring).toBe(true);
    const first = result.current.expiresIn ?? 0;
    expect(first).toBeLessThanOrEqual(40_000);
    await waitFor(() => expect(result.current.expiresIn).toBeLessThan(first - 500), {
      timeout: 2_500,
    });
    expect(result.current.expiring).toBe(true);
  });

  it("turns expiring on time, with the client's own margin", async () => {
    const { view } = await signedIn({ marginMs: 5 * 60_000 + 600 });
    const { result } = view(5 * 60_000 + 1_000);
    await waitFor(() => expect(result.current.status).toBe("signedIn"));
    expect(result.current.expiring).toBe(false);
    await waitFor(() => expect(result.current.expiring).toBe(true), { timeout: 2_000 });
  });

  it("sessionWarning: false never says expiring", async () => {
    const { view } = await signedIn(false);
    const { result } = view(20_000);
    await waitFor(() => expect(result.current.status).toBe("signedIn"));
    expect(result.current.expiring).toBe(false);
    expect(result.current.expiresIn).toBeLessThanOrEqual(20_000);
  });

  it("signed out: no expiresIn, not expiring", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const { result } = renderHook(() => useSession({ accountId: user.accountId }), {
      wrapper: wrapper(client),
    });
    await waitFor(() => expect(result.current.status).toBe("signedOut"));
    expect(result.current.expiresIn).toBeUndefined();
    expect(result.current.expiring).toBe(false);
  });

  it("a session the service rejected (revoked on another device) turns the hook to signedOut", async () => {
    const { user, client, view } = await signedIn();
    const { result } = view(10 * 60_000);
    await waitFor(() => expect(result.current.status).toBe("signedIn"));
    const laptop = stack.client(user.customerId).client;
    await signInWithEmail(laptop, user.emailCredentialId);
    const revoked = result.current.session?.id ?? "";
    await revokeSession(laptop, { accountId: user.accountId, sessionId: revoked });
    await expect(
      updateWalletPrivacy(client, { accountId: user.accountId, privateEnabled: true }),
    ).rejects.toMatchObject({ status: 401 });
    await waitFor(() => expect(result.current.status).toBe("signedOut"));
  });
});
