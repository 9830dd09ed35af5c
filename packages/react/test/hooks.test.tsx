// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"fetch":{"disableSameOriginPolicy":true}}}
// The hooks over the real core, relay and emulator on 127.0.0.1 (no mocked fetch): status
// transitions and stages, typed errors, refetch after mutations, unmount, and two providers of
// one origin in step. Every test runs twice: as is, and inside <StrictMode> (double render,
// double mount, double effect).

import {
  type ExecuteQuoteReturnType,
  executeQuote,
  getQuote,
  SESSION_EXPIRY_MARGIN_MS,
  scaLogin,
} from "@signet/core";
import {
  act,
  cleanup,
  fireEvent,
  render,
  renderHook,
  screen,
  waitFor,
} from "@testing-library/react";
import { type ReactNode, useEffect, useState } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { signInWithEmail } from "../../../test/support/signIn.js";
import { type Stack, startStack } from "../../../test/support/stack.js";
import {
  SignetProvider,
  sessionsQueryKey,
  sessionsQueryOptions,
  skipToken,
  useAuthorizeQuote,
  useClient,
  useCredentials,
  useExecuteQuote,
  useExportWallet,
  useInternalAccounts,
  useInvalidateQueries,
  useQuote,
  useRequestOtp,
  useRevokeSession,
  useSession,
  useSessions,
  useSignOut,
  useTransaction,
  useUpdateCustomerContact,
  useVerifyOtp,
} from "../src/index.js";

const ATTACKER_EMAIL = "attacker@example.net";

/** A compromised backend: the relay's upstream fetch puts its own email into contact updates. */
const rewriteContactEmail =
  (upstream: typeof fetch): typeof fetch =>
  (input, init = {}) => {
    const url = new URL(String(input));
    if (init.method !== "PATCH" || !url.pathname.startsWith("/customers/") || !init.body)
      return upstream(input, init);
    const body = JSON.parse(new TextDecoder().decode(init.body as Uint8Array));
    const headers = new Headers(init.headers);
    headers.delete("content-length");
    return upstream(input, {
      ...init,
      headers,
      body: new TextEncoder().encode(JSON.stringify({ ...body, email: ATTACKER_EMAIL })),
    });
  };

let stack: Stack;
let rewriting: Stack;
beforeAll(async () => {
  [stack, rewriting] = await Promise.all([
    startStack({ settlementDelayMs: 50 }),
    startStack({ relayUpstream: rewriteContactEmail }),
  ]);
});
afterAll(() => Promise.all([stack?.close(), rewriting?.close()]));
afterEach(cleanup);

type Client = ReturnType<Stack["client"]>["client"];

/**
 * The tests' render options: a provider around the hook or component and, with `strict`,
 * <StrictMode> around the whole tree (at the root: React 19 double-invokes effects only for a
 * StrictMode there, not for one a wrapper component renders).
 */
const renderOptions = (client: Client, { strict = false }: { strict?: boolean } = {}) => ({
  wrapper: ({ children }: { children: ReactNode }) => (
    <SignetProvider client={client}>{children}</SignetProvider>
  ),
  reactStrictMode: strict,
});

/** README, "Strong Customer Authentication": the confirmation screen, as the README shows it. */
function Confirm({ executed }: { executed: ExecuteQuoteReturnType }) {
  const sca = useAuthorizeQuote();
  const { mutate } = sca;
  useEffect(() => {
    if (executed.status === "PENDING_AUTHORIZATION") mutate({ quote: executed });
  }, [executed, mutate]);
  const [code, setCode] = useState("");
  const waiting = sca.pendingChallenge;
  if (!waiting) return sca.isSuccess ? <p>Confirmed</p> : null;
  if (waiting.challenge.factor === "PASSKEY")
    return (
      <button type="button" onClick={() => sca.answer({ passkey: true })}>
        Confirm with your passkey
      </button>
    );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        sca.answer({ code });
      }}
    >
      <h2>{waiting.challenge.purpose ?? "Confirm the payment"}</h2>
      {waiting.error && <p role="alert">{waiting.error.message}</p>}
      <input value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" />
      <button type="submit">Confirm</button>
      <button type="button" onClick={() => void sca.resend()}>
        Send a new code
      </button>
    </form>
  );
}

/** A signed-in customer of an EU `region` with a funded wallet and a quote to pay. */
let phones = 0;
/**
 * An EU customer (with the verified phone SCA needs) and a quote to pay; logged in to SCA ahead
 * unless `scaLoggedIn` is false, when the payment's authorization asks for the login itself.
 */
async function euPayer(region: string, scaLoggedIn = true, on: Stack = stack) {
  const phoneNumber = `+3361${String(Date.now() % 1e5).padStart(5, "0")}${String(++phones).padStart(3, "0")}`;
  const user = await on.signUp(undefined, { region, phoneNumber });
  const { quoteId } = await on.walletQuote(user, 250_000);
  const { client } = on.client(user.customerId);
  await signInWithEmail(client, user.emailCredentialId);
  if (scaLoggedIn) await scaLogin(client, { onChallenge: () => ({ code: "123456" }) });
  return { client, quoteId };
}

function Status({ accountId }: { accountId: string }) {
  const { status } = useSession({ accountId });
  return <p>{status}</p>;
}

describe.each([
  ["", false],
  [" (StrictMode)", true],
])("@signet/react over the real stack%s", (_mode, strict) => {
  const wrap = (client: Client) => renderOptions(client, { strict });

  it("a hook outside the provider throws a typed error that says what to do", () => {
    const error = (() => {
      try {
        renderHook(() => useClient(), { reactStrictMode: strict });
      } catch (e) {
        return e as { code?: string; message: string };
      }
    })();
    expect(error?.code).toBe("PROVIDER_MISSING");
    expect(error?.message).toMatch(/<SignetProvider client=/);
  });

  it("useSession judges expiry by core's one rule: within SESSION_EXPIRY_MARGIN_MS of its end a session is not signed in", async () => {
    const user = await stack.signUp();
    let offset = 0;
    const { client } = stack.client(user.customerId, {
      clock: { now: () => Date.now() + offset },
    });
    const held = await signInWithEmail(client, user.emailCredentialId);
    const expiresAt = Date.parse(held.expiresAt);
    const view = () =>
      renderHook(() => useSession({ accountId: user.accountId }), { ...wrap(client) });
    // Ten seconds before the end: still signed in.
    offset = expiresAt - 10_000 - Date.now();
    const early = view();
    await waitFor(() => expect(early.result.current.status).toBe("signedIn"));
    early.unmount();
    // Inside the margin core would refuse to sign with it: the hook says so too.
    offset = expiresAt - (SESSION_EXPIRY_MARGIN_MS - 2_000) - Date.now();
    const late = view();
    await waitFor(() => expect(late.result.current.status).toBe("signedOut"));
    late.unmount();
  });

  it("OTP sign-in: idle → pending → success with the signed request's stages; session and lists follow", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const options = wrap(client);
    const { result } = renderHook(
      () => ({
        request: useRequestOtp(),
        verify: useVerifyOtp(),
        session: useSession({ accountId: user.accountId }),
        sessions: useSessions({ accountId: user.accountId }),
        credentials: useCredentials({ accountId: user.accountId }),
      }),
      options,
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
      ...wrap(client),
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
    const { result } = renderHook(() => {
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
    }, wrap(client));
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
    const { client, quoteId } = await euPayer("DE", false);
    const { result } = renderHook(() => {
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
    }, wrap(client));
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
    // The payment as the user confirmed it rides with every prompt, to show beside it.
    expect(first.quote).toMatchObject({
      id: quoteId,
      totalSendingAmount: 250_000,
      destination: { accountId: result.current.quote.data!.destination!.accountId },
    });
    await act(() => result.current.sca.resend());

    // No SCA session yet: the service asks for the customer's SCA login before it judges the
    // code; the same hook asks for the login, then sends the payment's code again.
    act(() => result.current.sca.answer({ code: "000000" }));
    await waitFor(() => expect(result.current.sca.pendingChallenge?.login).toBe(true));
    expect(result.current.sca.pendingChallenge?.challenge).toMatchObject({
      factor: "SMS_OTP",
      purpose: "SCA_LOGIN",
    });
    expect(result.current.sca.pendingChallenge?.quote?.id).toBe(quoteId);
    act(() => result.current.sca.answer({ code: "123456" }));
    // Now the wrong payment code is judged: it comes back with its error.
    await waitFor(() => expect(result.current.sca.pendingChallenge?.error).toBeDefined());
    expect(result.current.sca.pendingChallenge?.login).toBe(false);
    expect(result.current.sca.pendingChallenge?.step).toBe(1);
    expect(result.current.sca.pendingChallenge?.error?.status).toBe(400);
    expect(result.current.sca.pendingChallenge?.error?.message).not.toContain("000000");

    act(() => result.current.sca.answer({ code: "123456" }));
    await waitFor(() => expect(result.current.sca.pendingChallenge?.step).toBe(2));
    expect(result.current.sca.pendingChallenge?.login).toBe(false);
    expect(result.current.sca.pendingChallenge?.challenge.purpose).toBe("PAYOUT");
    act(() => result.current.sca.answer({ code: "123456" }));
    await waitFor(() => expect(result.current.sca.status).toBe("success"));
    expect(result.current.sca.pendingChallenge).toBeUndefined();
    expect(result.current.sca.data?.transactionId).toBe(executed.transactionId);
    await waitFor(() => expect(result.current.transaction.data?.status).toBe("COMPLETED"), {
      timeout: 10_000,
    });
  });

  it("SCA: a service that asks for the SCA login at execute: the login shows in useExecuteQuote's state, then the execute goes once", async () => {
    const atExecute = await startStack({ settlementDelayMs: 50, requireScaSessionAtExecute: true });
    try {
      const { client, quoteId } = await euPayer("NL", false, atExecute);
      const { result } = renderHook(
        () => ({ quote: useQuote({ quoteId }), execute: useExecuteQuote() }),
        wrap(client),
      );
      await waitFor(() => expect(result.current.quote.status).toBe("success"));
      let executed: unknown;
      act(() => {
        result.current.execute.mutateAsync({ quote: result.current.quote.data! }).then((quote) => {
          executed = quote;
        });
      });
      await waitFor(() => expect(result.current.execute.pendingChallenge?.login).toBe(true));
      const prompt = result.current.execute.pendingChallenge!;
      expect(prompt.challenge).toMatchObject({ factor: "SMS_OTP", purpose: "SCA_LOGIN" });
      expect(prompt.quote).toMatchObject({ id: quoteId, totalSendingAmount: 250_000 });
      expect(result.current.execute.status).toBe("pending");
      act(() => result.current.execute.answer({ code: "123456" }));
      await waitFor(() => expect(result.current.execute.status).toBe("success"));
      expect(result.current.execute.pendingChallenge).toBeUndefined();
      expect(executed).toMatchObject({ id: quoteId, status: "PENDING_AUTHORIZATION" });
      const executes = (await atExecute.requests()).filter((r) => r.path.endsWith("/execute"));
      expect(executes.map((r) => r.status)).toEqual([409, 200]);
    } finally {
      await atExecute.close();
    }
  });

  it("SCA: reset while a challenge waits ends the call as ABORTED and clears the challenge", async () => {
    const { client, quoteId } = await euPayer("FR");
    const { result } = renderHook(
      () => ({ quote: useQuote({ quoteId }), sca: useAuthorizeQuote() }),
      {
        ...wrap(client),
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
      ...wrap(client),
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
    const options = wrap(client);
    const first = renderHook(() => ({ session: useSession(), signOut: useSignOut() }), options);
    const second = renderHook(() => useSession({ accountId: user.accountId }), options);
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
      wrap(client),
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
    const view = render(<Status accountId={user.accountId} />, wrap(client));
    await waitFor(() => expect(view.container.textContent).toBe("signedOut"));
    await act(() => signInWithEmail(client, user.emailCredentialId));
    await waitFor(() => expect(view.container.textContent).toBe("signedIn"));
  });

  it("SCA as the README shows it (mutate in an effect) reaches the customer and releases the payment", async () => {
    const { client, quoteId } = await euPayer("IT");
    const executed = await executeQuote(client, { quote: await getQuote(client, { quoteId }) });
    expect(executed.status).toBe("PENDING_AUTHORIZATION");
    render(<Confirm executed={executed} />, wrap(client));
    // Under Strict Mode the first call is aborted by the simulated unmount; the second one's
    // challenge must stay on screen (the first call's end must not clear it).
    await screen.findByRole("heading", { name: "CURRENCY_CONVERSION" });
    const answer = async (code: string) => {
      fireEvent.change(screen.getByRole("textbox"), { target: { value: code } });
      fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    };
    await answer("000000");
    await screen.findByRole("alert");
    await answer("123456");
    await screen.findByRole("heading", { name: "PAYOUT" });
    await answer("123456");
    await screen.findByText("Confirmed", undefined, { timeout: 10_000 });
  });

  it("SCA: a second mutate ends the first call's wait, whose end then leaves the second call's challenge alone", async () => {
    const { client, quoteId } = await euPayer("ES");
    const executed = await executeQuote(client, { quote: await getQuote(client, { quoteId }) });
    if (executed.status !== "PENDING_AUTHORIZATION") throw new Error(executed.status);
    const { result } = renderHook(() => useAuthorizeQuote(), wrap(client));
    const outcomes: unknown[] = [];
    act(() => {
      result.current.mutateAsync({ quote: executed }).catch((e) => outcomes.push(e));
    });
    await waitFor(() => expect(result.current.pendingChallenge?.step).toBe(1));
    act(() => result.current.mutate({ quote: executed }));
    await waitFor(() => expect(outcomes).toMatchObject([{ code: "ABORTED" }]));
    // The first call has ended; the second one's challenge is still there, and answers it.
    expect(result.current.pendingChallenge?.step).toBe(1);
    expect(result.current.status).toBe("pending");
    act(() => result.current.answer({ code: "123456" }));
    await waitFor(() => expect(result.current.pendingChallenge?.step).toBe(2));
    act(() => result.current.answer({ code: "123456" }));
    await waitFor(() => expect(result.current.status).toBe("success"));
    expect(result.current.isSuccess && result.current.data.transactionId).toBe(
      executed.transactionId,
    );
  });

  it("a contact update refetches the credential list: the service renamed the tied OTP credential", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    await signInWithEmail(client, user.emailCredentialId);
    const { result } = renderHook(
      () => ({
        credentials: useCredentials({ accountId: user.accountId }),
        update: useUpdateCustomerContact(),
      }),
      wrap(client),
    );
    await waitFor(() => expect(result.current.credentials.status).toBe("success"));
    const email = `moved-${Date.now()}@example.com`;
    await act(() =>
      result.current.update.mutateAsync({
        customerId: user.customerId,
        accountId: user.accountId,
        email,
      }),
    );
    await waitFor(() =>
      expect(result.current.credentials.data?.find((c) => c.type === "EMAIL_OTP")?.nickname).toBe(
        email,
      ),
    );
  });

  it("PAYLOAD_MISMATCH: a relay that rewrites the contact update gets nothing signed; the hook ends in its typed error", async () => {
    const user = await rewriting.signUp();
    const { client } = rewriting.client(user.customerId);
    await signInWithEmail(client, user.emailCredentialId);
    const { result } = renderHook(() => useUpdateCustomerContact(), wrap(client));
    act(() =>
      result.current.mutate({
        customerId: user.customerId,
        accountId: user.accountId,
        email: `mine-${Date.now()}@example.com`,
      }),
    );
    await waitFor(() => expect(result.current.status).toBe("error"));
    const update = result.current;
    if (!update.isError) throw new Error(update.status);
    // Narrowed: `error` is the action's union, which names PAYLOAD_MISMATCH.
    expectTypeOf(update.error.code).toExtend<string>();
    expectTypeOf<"PAYLOAD_MISMATCH">().toExtend<typeof update.error.code>();
    expect(update.error.code).toBe("PAYLOAD_MISMATCH");
    expect(update.error.retryable).toBe(false);
    expect(update.stage).toBe("failed");
    expect(JSON.stringify(update.error)).not.toContain(ATTACKER_EMAIL);
    // Nothing changed on the service: the credential keeps the old address.
    const credentials = await rewriting.platform<{ data: { type: string; nickname: string }[] }>(
      "GET",
      `/auth/credentials?accountId=${encodeURIComponent(user.accountId)}`,
    );
    expect(JSON.stringify(credentials.body)).not.toContain(ATTACKER_EMAIL);
  });

  it("skipToken waits without a request, and the query runs once its parameters are given", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const { result, rerender } = renderHook(
      ({ accountId }: { accountId: string | undefined }) =>
        useCredentials(accountId ? { accountId } : skipToken),
      { ...wrap(client), initialProps: { accountId: undefined as string | undefined } },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(result.current.status).toBe("pending");
    expect(result.current.isFetching).toBe(false);
    rerender({ accountId: user.accountId });
    await waitFor(() => expect(result.current.status).toBe("success"));
    expect(result.current.data?.map((c) => c.id)).toEqual([user.emailCredentialId]);
  });

  it("select derives `data`; two selects over one key share one request", async () => {
    const user = await stack.signUp();
    const { client, events } = stack.client(user.customerId);
    const { result } = renderHook(
      () => ({
        types: useCredentials({
          accountId: user.accountId,
          select: (list) => list.map((c) => c.type),
        }),
        count: useCredentials({ accountId: user.accountId }, { select: (list) => list.length }),
      }),
      wrap(client),
    );
    await waitFor(() => expect(result.current.types.status).toBe("success"));
    await waitFor(() => expect(result.current.count.status).toBe("success"));
    expect(result.current.types.data).toEqual(["EMAIL_OTP"]);
    expect(result.current.count.data).toBe(1);
    const lists = events.filter(
      (e) => e.type === "request" && e.path.startsWith("/auth/credentials"),
    );
    expect(lists).toHaveLength(1);
  });

  it("retry tries a failed fetch again; without it the typed error shows at once", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const fail = (count: number) =>
      stack.fault({
        match: { method: "GET", path: "/auth/sessions" },
        kind: "error",
        status: 404,
        code: "NOT_FOUND",
        count,
      });
    await fail(1);
    const first = renderHook(() => useSessions({ accountId: user.accountId }), {
      ...wrap(client),
    });
    await waitFor(() => expect(first.result.current.status).toBe("error"));
    const failed = first.result.current;
    if (!failed.isError) throw new Error(failed.status);
    expect(failed.error).toMatchObject({ code: "NOT_FOUND", status: 404 });
    first.unmount();
    await fail(2);
    const failures: number[] = [];
    const { result } = renderHook(
      () =>
        useSessions({
          accountId: user.accountId,
          staleTime: 0,
          retry: (failureCount, error) => {
            failures.push(failureCount);
            return error.status === 404 && failureCount < 2;
          },
          retryDelay: 10,
        }),
      wrap(client),
    );
    await waitFor(() => expect(result.current.status).toBe("success"));
    expect(result.current.data).toEqual([]);
    expect(failures).toEqual([0, 1]);
  });

  it("staleTime: a component that mounts with an older answer fetches it again; by default it does not", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const parameters = { accountId: user.accountId };
    const { result } = renderHook(() => {
      const [mounted, setMounted] = useState(false);
      return {
        list: useSessions(parameters),
        show: () => setMounted(true),
        late: useSessions(mounted ? parameters : skipToken, { staleTime: 0 }),
        lateDefault: useSessions(mounted ? parameters : skipToken),
      };
    }, wrap(client));
    await waitFor(() => expect(result.current.list.data).toEqual([]));
    await signInWithEmail(client, user.emailCredentialId); // not through a hook: nothing refetches
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(result.current.list.data).toEqual([]);
    act(() => result.current.show());
    await waitFor(() => expect(result.current.late.data).toHaveLength(1));
    // One cache entry: every observer of the key sees the new answer.
    expect(result.current.lateDefault.data).toHaveLength(1);
    expect(result.current.list.data).toHaveLength(1);
  });

  it("refetchOnWindowFocus: by default a shown query refetches when the window regains focus, as TanStack Query's", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const parameters = { accountId: user.accountId };
    const { result } = renderHook(
      () => ({
        byDefault: useSessions(parameters),
        off: useSessions({ ...parameters, refetchOnWindowFocus: false }),
        young: useSessions(parameters, { staleTime: 60_000 }),
        always: useSessions(parameters, { staleTime: 60_000, refetchOnWindowFocus: "always" }),
      }),
      wrap(client),
    );
    await waitFor(() => expect(result.current.byDefault.data).toEqual([]));
    // Another device signs in: nothing here knows until the window comes back into focus.
    await signInWithEmail(client, user.emailCredentialId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(result.current.byDefault.data).toEqual([]);
    act(() => {
      window.dispatchEvent(new Event("focus"));
    });
    await waitFor(() => expect(result.current.byDefault.data).toHaveLength(1));
    // One key, one cache entry: all four show the answer the default's refetch brought.
    expect(result.current.off.data).toHaveLength(1);
  });

  it("refetchOnWindowFocus: false and a young answer under a given staleTime do not refetch; 'always' does", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const parameters = { accountId: user.accountId };
    const fetched: string[] = [];
    const spy = (name: string) => ({
      onEvent: (event: { type: string; path?: string }) => {
        if (event.type === "request" && event.path?.startsWith("/auth/sessions"))
          fetched.push(name);
      },
    });
    const mount = (options: object, name: string) =>
      renderHook(() => useSessions({ ...parameters, ...spy(name) }, options), wrap(client));
    const off = mount({ refetchOnWindowFocus: false }, "off");
    await waitFor(() => expect(off.result.current.data).toEqual([]));
    off.unmount();
    const young = mount({ staleTime: 60_000 }, "young");
    await waitFor(() => expect(young.result.current.data).toEqual([]));
    young.unmount();
    const always = mount({ staleTime: 60_000, refetchOnWindowFocus: "always" }, "always");
    await waitFor(() => expect(always.result.current.data).toEqual([]));
    fetched.length = 0;
    act(() => {
      window.dispatchEvent(new Event("focus"));
    });
    await waitFor(() => expect(fetched).toEqual(["always"]));
    always.unmount();
    // The others, each alone: focus brings no request.
    for (const [options, name] of [
      [{ refetchOnWindowFocus: false }, "off"],
      [{ staleTime: 60_000 }, "young"],
    ] as const) {
      const view = mount(options, name);
      await waitFor(() => expect(view.result.current.isFetching).toBe(false));
      fetched.length = 0;
      act(() => {
        window.dispatchEvent(new Event("focus"));
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(fetched).toEqual([]);
      view.unmount();
    }
  });

  it("query options per action: the app invalidates a list itself with its key", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    const { result } = renderHook(
      () => ({
        sessions: useSessions({ accountId: user.accountId }),
        invalidate: useInvalidateQueries(),
      }),
      wrap(client),
    );
    await waitFor(() => expect(result.current.sessions.data).toEqual([]));
    // A sign-in the hooks did not see (core called directly, or another device).
    await signInWithEmail(client, user.emailCredentialId);
    const options = sessionsQueryOptions(client, { accountId: user.accountId });
    expect(options.queryKey).toEqual(["listSessions", { accountId: user.accountId }]);
    expect(await options.queryFn({ signal: new AbortController().signal })).toHaveLength(1);
    act(() => result.current.invalidate(sessionsQueryKey({ accountId: user.accountId })));
    await waitFor(() => expect(result.current.sessions.data).toHaveLength(1));
  });
});
