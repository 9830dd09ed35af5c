// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
// The hooks over the real core, relay and emulator on 127.0.0.1 (no mocked fetch): status
// transitions and stages, typed errors, refetch after mutations, unmount, and two providers of
// one origin in step.

import { executeQuote } from "@signet/core";
import { act, cleanup, render, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "../../../test/support/signIn.js";
import { type Stack, startStack } from "../../../test/support/stack.js";
import {
  SignetProvider,
  useAuthorizeQuote,
  useClient,
  useCredentials,
  useExecuteQuote,
  useExportWallet,
  useInternalAccounts,
  useQuote,
  useRequestOtp,
  useRevokeSession,
  useSession,
  useSessions,
  useSignOut,
  useTransaction,
  useVerifyOtp,
} from "../src/index.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ settlementDelayMs: 50 });
});
afterAll(() => stack?.close());
afterEach(cleanup);

const wrapperFor =
  (client: ReturnType<Stack["client"]>["client"]) =>
  ({ children }: { children: ReactNode }) => (
    <SignetProvider client={client}>{children}</SignetProvider>
  );

/** A signed-in customer of an EU `region` with a funded wallet and a quote to pay. */
async function euPayer(region: string) {
  const user = await stack.signUp(undefined, { region });
  const { quoteId } = await stack.walletQuote(user, 250_000);
  const { client } = stack.client(user.customerId);
  await signInWithEmail(client, user.emailCredentialId);
  return { client, quoteId };
}

function Status({ accountId }: { accountId: string }) {
  const { status } = useSession({ accountId });
  return <p>{status}</p>;
}

describe("@signet/react over the real stack", () => {
  it("a hook outside the provider throws a typed error that says what to do", () => {
    const error = (() => {
      try {
        renderHook(() => useClient());
      } catch (e) {
        return e as { code?: string; message: string };
      }
    })();
    expect(error?.code).toBe("PROVIDER_MISSING");
    expect(error?.message).toMatch(/<SignetProvider client=/);
  });

  it("OTP sign-in: idle → pending → success with the signed request's stages; session and lists follow", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const wrapper = wrapperFor(client);
    const { result } = renderHook(
      () => ({
        request: useRequestOtp(),
        verify: useVerifyOtp(),
        session: useSession({ accountId: user.accountId }),
        sessions: useSessions({ accountId: user.accountId }),
        credentials: useCredentials({ accountId: user.accountId }),
      }),
      { wrapper },
    );
    expect(result.current.verify.status).toBe("idle");
    await waitFor(() => expect(result.current.session.status).toBe("signedOut"));
    await waitFor(() => expect(result.current.credentials.status).toBe("success"));
    expect(result.current.credentials.data?.map((c) => c.type)).toEqual(["EMAIL_OTP"]);
    await waitFor(() => expect(result.current.sessions.data).toEqual([]));

    const otp = await act(() =>
      result.current.request.mutateAsync({ credentialId: user.emailCredentialId }),
    );
    const stages: (string | undefined)[] = [];
    let pending = false;
    await act(async () => {
      const call = result.current.verify.mutateAsync({ ...otp, otpCode: "000000" });
      pending = true;
      await call;
    });
    stages.push(result.current.verify.stage);
    expect(pending).toBe(true);
    expect(result.current.verify.status).toBe("success");
    expect(result.current.verify.stage).toBe("done");
    expect(result.current.verify.variables?.otpCode).toBe("000000");
    expect(result.current.verify.data?.id).toMatch(/^Session:/);
    await waitFor(() => expect(result.current.session.status).toBe("signedIn"));
    expect(result.current.session.session?.id).toBe(result.current.verify.data?.id);
    expect(result.current.session.persistence).toBe("memory");
    // The session list refetched after the sign-in, without being asked.
    await waitFor(() => expect(result.current.sessions.data).toHaveLength(1));
  });

  it("a failure is a typed error in `error`, `mutate` never throws, `reset` goes back to idle", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const { result } = renderHook(() => ({ request: useRequestOtp(), verify: useVerifyOtp() }), {
      wrapper: wrapperFor(client),
    });
    const otp = await act(() =>
      result.current.request.mutateAsync({ credentialId: user.emailCredentialId }),
    );
    act(() => result.current.verify.mutate({ ...otp, otpCode: "111111" }));
    await waitFor(() => expect(result.current.verify.status).toBe("error"));
    expect(result.current.verify.error?.code).toBe("UNAUTHORIZED");
    expect(result.current.verify.error?.message).not.toContain("111111");
    act(() => result.current.verify.reset());
    expect(result.current.verify.status).toBe("idle");
    expect(result.current.verify.error).toBeNull();
  });

  it("export, a payment followed to settlement, and the balance refetched after the execute", async () => {
    const user = await stack.signUp();
    const { quoteId } = await stack.walletQuote(user, 250_000);
    const { client } = stack.client(user.customerId);
    await signInWithEmail(client, user.emailCredentialId);
    const { result } = renderHook(
      () => {
        const execute = useExecuteQuote();
        return {
          exported: useExportWallet(),
          quote: useQuote({ quoteId }),
          accounts: useInternalAccounts({ customerId: user.customerId }),
          execute,
          transaction: useTransaction({
            transactionId: execute.data?.transactionId ?? "",
            enabled: execute.data?.transactionId !== undefined,
          }),
        };
      },
      { wrapper: wrapperFor(client) },
    );
    const mnemonic = await act(() =>
      result.current.exported.mutateAsync({ accountId: user.accountId }),
    );
    expect(mnemonic.split(" ")).toHaveLength(12);
    await waitFor(() => expect(result.current.quote.status).toBe("success"));
    await waitFor(() => expect(result.current.accounts.status).toBe("success"));
    const before = result.current.accounts.data?.[0]?.balance?.amount;
    expect(result.current.transaction.isFetching).toBe(false); // not enabled yet
    await act(() => result.current.execute.mutateAsync({ quote: result.current.quote.data! }));
    expect(result.current.execute.stage).toBe("done");
    await waitFor(() => expect(result.current.transaction.data?.status).toBe("COMPLETED"), {
      timeout: 10_000,
    });
    await waitFor(() =>
      expect(result.current.accounts.data?.[0]?.balance?.amount).toBeLessThan(before!),
    );
    await waitFor(() => expect(result.current.quote.data?.status).not.toBe("PENDING"));
  });

  it("SCA: an EU payment's challenges show as state, a wrong code comes back with its error, the right ones release it", async () => {
    const { client, quoteId } = await euPayer("DE");
    const { result } = renderHook(
      () => {
        const execute = useExecuteQuote();
        const sca = useAuthorizeQuote();
        const transactionId = sca.data?.transactionId;
        return {
          quote: useQuote({ quoteId }),
          execute,
          sca,
          transaction: useTransaction({
            transactionId: transactionId ?? "",
            enabled: transactionId !== undefined,
          }),
        };
      },
      { wrapper: wrapperFor(client) },
    );
    await waitFor(() => expect(result.current.quote.status).toBe("success"));
    const executed = await act(() =>
      result.current.execute.mutateAsync({ quote: result.current.quote.data! }),
    );
    expect(executed.status).toBe("PENDING_AUTHORIZATION");
    if (executed.status !== "PENDING_AUTHORIZATION") return;
    expect(result.current.sca.pendingChallenge).toBeUndefined();
    act(() => result.current.sca.mutate({ quote: executed }));
    await waitFor(() => expect(result.current.sca.pendingChallenge?.step).toBe(1));
    expect(result.current.sca.status).toBe("pending");
    const first = result.current.sca.pendingChallenge!;
    expect(first.challenge).toMatchObject({ factor: "SMS_OTP", purpose: "CURRENCY_CONVERSION" });
    expect(first.error).toBeUndefined();
    await act(() => result.current.sca.resend());

    act(() => result.current.sca.answer({ code: "000000" }));
    await waitFor(() => expect(result.current.sca.pendingChallenge?.error).toBeDefined());
    expect(result.current.sca.pendingChallenge?.step).toBe(1);
    expect(result.current.sca.pendingChallenge?.error?.status).toBe(400);
    expect(result.current.sca.pendingChallenge?.error?.message).not.toContain("000000");

    act(() => result.current.sca.answer({ code: "123456" }));
    await waitFor(() => expect(result.current.sca.pendingChallenge?.step).toBe(2));
    expect(result.current.sca.pendingChallenge?.challenge.purpose).toBe("PAYOUT");
    act(() => result.current.sca.answer({ code: "123456" }));
    await waitFor(() => expect(result.current.sca.status).toBe("success"));
    expect(result.current.sca.pendingChallenge).toBeUndefined();
    expect(result.current.sca.data?.transactionId).toBe(executed.transactionId);
    await waitFor(() => expect(result.current.transaction.data?.status).toBe("COMPLETED"), {
      timeout: 10_000,
    });
  });

  it("SCA: reset while a challenge waits ends the call as ABORTED and clears the challenge", async () => {
    const { client, quoteId } = await euPayer("FR");
    const { result } = renderHook(
      () => ({ quote: useQuote({ quoteId }), sca: useAuthorizeQuote() }),
      {
        wrapper: wrapperFor(client),
      },
    );
    await waitFor(() => expect(result.current.quote.status).toBe("success"));
    const executed = await executeQuote(client, { quote: result.current.quote.data! });
    if (executed.status !== "PENDING_AUTHORIZATION") throw new Error(executed.status);
    let outcome: unknown;
    act(() => {
      result.current.sca.mutateAsync({ quote: executed }).catch((e) => {
        outcome = e;
      });
    });
    await waitFor(() => expect(result.current.sca.pendingChallenge).toBeDefined());
    act(() => result.current.sca.reset());
    await waitFor(() => expect(outcome).toMatchObject({ code: "ABORTED" }));
    expect(result.current.sca.status).toBe("idle");
    expect(result.current.sca.pendingChallenge).toBeUndefined();
    // Answering now does nothing, and resend says no challenge waits.
    act(() => result.current.sca.answer({ code: "123456" }));
    await expect(result.current.sca.resend()).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("an unmount stops waiting (the call is aborted) and drops the result", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    await signInWithEmail(client, user.emailCredentialId);
    await stack.fault({
      match: { path: `/internal-accounts/${user.accountId}/export` },
      kind: "processing",
      count: 50,
    });
    const { result, unmount } = renderHook(() => useExportWallet(), {
      wrapper: wrapperFor(client),
    });
    let outcome: unknown;
    act(() => {
      result.current.mutateAsync({ accountId: user.accountId }).then(
        () => (outcome = "resolved"),
        (error: { code?: string }) => (outcome = error.code),
      );
    });
    await waitFor(() => expect(result.current.stage).toBe("processing"));
    unmount();
    await waitFor(() => expect(outcome).toBe("ABORTED"));
    await fetch(`${stack.emulator.url}/_emulator/faults`, { method: "DELETE" });
  });

  it("two providers on one client stay in step: a sign-out in one shows in the other", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    await signInWithEmail(client, user.emailCredentialId);
    const wrapper = wrapperFor(client);
    const first = renderHook(() => ({ session: useSession(), signOut: useSignOut() }), { wrapper });
    const second = renderHook(() => useSession({ accountId: user.accountId }), { wrapper });
    await waitFor(() => expect(second.result.current.status).toBe("signedIn"));
    await act(() => first.result.current.signOut.mutateAsync({ accountId: user.accountId }));
    await waitFor(() => expect(second.result.current.status).toBe("signedOut"));
    expect(first.result.current.session.status).toBe("signedOut");
  });

  it("revoking a session refetches the session list that shows it", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const first = await signInWithEmail(client, user.emailCredentialId);
    await signInWithEmail(client, user.emailCredentialId);
    const { result } = renderHook(
      () => ({ sessions: useSessions({ accountId: user.accountId }), revoke: useRevokeSession() }),
      { wrapper: wrapperFor(client) },
    );
    await waitFor(() => expect(result.current.sessions.data).toHaveLength(2));
    await act(() =>
      result.current.revoke.mutateAsync({ accountId: user.accountId, sessionId: first.id }),
    );
    await waitFor(() => expect(result.current.sessions.data).toHaveLength(1));
  });

  it("components render from the shared state", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const view = render(
      <SignetProvider client={client}>
        <Status accountId={user.accountId} />
      </SignetProvider>,
    );
    await waitFor(() => expect(view.container.textContent).toBe("signedOut"));
    await act(() => signInWithEmail(client, user.emailCredentialId));
    await waitFor(() => expect(view.container.textContent).toBe("signedIn"));
  });
});
