"use client";
// The wallet screens, on @signet/react's hooks: the demo login, OTP and passkey sign-in,
// passkeys, sessions, export, and a payment with its EU confirmation (SCA).
import type { QuoteJson } from "@signet/core";
import {
  skipToken,
  useAddPasskey,
  useAuthorizeQuote,
  useCredentials,
  useExecuteQuote,
  useExportWallet,
  useInternalAccounts,
  usePreparePasskeySignIn,
  useRequestOtp,
  useRevokeSession,
  useSession,
  useSessions,
  useSignInWithPasskey,
  useSignOut,
  useTransaction,
  useVerifyOtp,
} from "@signet/react";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useState } from "react";
import type { DemoUser } from "../lib/server/session";

async function demo<T>(action: string, body: unknown = {}): Promise<T> {
  const response = await fetch(`/api/demo/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as T & { message?: string };
  if (!response.ok)
    throw new Error(answer.message ?? `The demo backend answered ${response.status}.`);
  return answer;
}

function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const { code, message } = error as { code?: string; message?: string };
  return <p role="alert">{code ? `${code}: ${message}` : String(message ?? error)}</p>;
}

/** The app's own login (sandbox only): any email, and where the customer lives. */
export function SignInToDemo() {
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [region, setRegion] = useState("US");
  const [phoneNumber, setPhoneNumber] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await demo("signin", { email, region, ...(region !== "US" ? { phoneNumber } : {}) });
      router.refresh(); // the server component reads the new cookie
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="login-title">
      <h2 id="login-title">Sign in to the demo</h2>
      <form onSubmit={submit}>
        <label>
          Email{" "}
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </label>
        <label>
          Where you live{" "}
          <select value={region} onChange={(e) => setRegion(e.target.value)}>
            <option value="US">United States</option>
            <option value="DE">Germany (EU: payments need SCA)</option>
            <option value="FR">France (EU: payments need SCA)</option>
          </select>
        </label>
        {region !== "US" && (
          <label>
            Mobile number (SCA codes by SMS){" "}
            <input
              type="tel"
              value={phoneNumber}
              onChange={(e) => setPhoneNumber(e.target.value)}
              placeholder="+4915112345678"
              required
            />
          </label>
        )}
        <button type="submit" disabled={busy}>
          Continue
        </button>
      </form>
      <ErrorNote error={error} />
    </section>
  );
}

export function Wallet({ user, relayUrl }: { user: DemoUser; relayUrl: string }) {
  const router = useRouter();
  const { accountId } = user;
  const session = useSession({ accountId });
  const signOut = useSignOut();
  const leave = async () => {
    if (session.status === "signedIn") await signOut.mutateAsync({ accountId }).catch(() => {});
    await demo("signout");
    router.refresh();
  };
  return (
    <>
      <p>
        Demo user <strong data-testid="email">{user.email}</strong> ({user.region}) · relay{" "}
        <code data-testid="relay">{relayUrl}</code>{" "}
        <button type="button" onClick={() => void leave()}>
          Leave the demo
        </button>
      </p>
      {session.status === "loading" && <p>Loading…</p>}
      {session.status === "signedOut" && <WalletSignIn accountId={accountId} />}
      {session.status === "signedIn" && (
        <>
          <p data-testid="wallet-session">Wallet signed in until {session.expiresAt}</p>
          <Pay user={user} />
          <Passkeys accountId={accountId} />
          <Sessions accountId={accountId} />
          <Export accountId={accountId} />
          <button type="button" onClick={() => signOut.mutate({ accountId })}>
            Sign out of the wallet
          </button>
        </>
      )}
    </>
  );
}

function WalletSignIn({ accountId }: { accountId: string }) {
  const credentials = useCredentials({ accountId });
  const email = credentials.data?.find((c) => c.type === "EMAIL_OTP");
  const passkey = credentials.data?.find((c) => c.type === "PASSKEY");
  const requestOtp = useRequestOtp();
  const verifyOtp = useVerifyOtp();
  const [code, setCode] = useState("");
  // The passkey's challenge is fetched when the screen opens: the tap then opens the prompt at once.
  const prepare = usePreparePasskeySignIn();
  const signIn = useSignInWithPasskey();
  const { mutate: prepareSignIn } = prepare;
  const passkeyId = passkey?.id;
  useEffect(() => {
    if (passkeyId) prepareSignIn({ credentialId: passkeyId });
  }, [passkeyId, prepareSignIn]);
  if (credentials.isError) return <ErrorNote error={credentials.error} />;
  if (!credentials.isSuccess) return <p>Loading…</p>;
  return (
    <section aria-labelledby="wallet-signin-title">
      <h2 id="wallet-signin-title">Sign in to your wallet</h2>
      {passkey && (
        <p>
          <button
            type="button"
            disabled={!prepare.isSuccess || signIn.isPending}
            onClick={() => prepare.isSuccess && signIn.mutate({ prepared: prepare.data })}
          >
            Sign in with your passkey
          </button>
          <ErrorNote error={signIn.error ?? prepare.error} />
        </p>
      )}
      {email && !requestOtp.isSuccess && (
        <button
          type="button"
          disabled={requestOtp.isPending}
          onClick={() => requestOtp.mutate({ credentialId: email.id })}
        >
          Email me a code
        </button>
      )}
      {requestOtp.isSuccess && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            verifyOtp.mutate({ ...requestOtp.data, otpCode: code });
          }}
        >
          <label>
            Code from the email (sandbox: 000000){" "}
            <input
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code"
              inputMode="numeric"
            />
          </label>
          <button type="submit" disabled={verifyOtp.isPending}>
            {verifyOtp.isPending ? `Signing in (${verifyOtp.stage})…` : "Sign in"}
          </button>
        </form>
      )}
      <ErrorNote error={requestOtp.error ?? verifyOtp.error} />
    </section>
  );
}

function Passkeys({ accountId }: { accountId: string }) {
  const credentials = useCredentials({ accountId });
  const addPasskey = useAddPasskey();
  const [error, setError] = useState<unknown>(null);
  const add = async () => {
    setError(null);
    try {
      // The backend issues the registration: challenge, rp and user (app/api/demo/[action]).
      const registration = await demo<{
        challenge: string;
        rp: { id: string; name: string };
        user: { id: string; name: string; displayName: string };
      }>("passkey-challenge");
      addPasskey.mutate({ accountId, nickname: "This browser", ...registration });
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Sign-in methods</h2>
      <ul aria-label="Sign-in methods">
        {credentials.data?.map((c) => (
          <li key={c.id}>
            {c.type}
            {c.nickname ? ` · ${c.nickname}` : ""}
          </li>
        ))}
      </ul>
      <button type="button" disabled={addPasskey.isPending} onClick={() => void add()}>
        Add a passkey
      </button>
      {addPasskey.isSuccess && <p role="status">Passkey added.</p>}
      <ErrorNote error={error ?? addPasskey.error} />
    </section>
  );
}

function Sessions({ accountId }: { accountId: string }) {
  const session = useSession({ accountId });
  const sessions = useSessions({ accountId });
  const revoke = useRevokeSession();
  const mine = session.status === "signedIn" ? session.session.id : undefined;
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <ul aria-label="Sessions">
        {sessions.data?.map((s) => (
          <li key={s.id}>
            {s.id === mine ? "This device" : "Another session"}{" "}
            {s.id !== mine && (
              <button
                type="button"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate({ accountId, sessionId: s.id })}
              >
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
      <ErrorNote error={sessions.error ?? revoke.error} />
    </section>
  );
}

function Export({ accountId }: { accountId: string }) {
  const exportWallet = useExportWallet();
  return (
    <section aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      {exportWallet.isSuccess ? (
        // Shown to the user only: never logged, stored or sent.
        <p data-testid="mnemonic">{exportWallet.data}</p>
      ) : (
        <button
          type="button"
          disabled={exportWallet.isPending}
          onClick={() => exportWallet.mutate({ accountId })}
        >
          Reveal the recovery phrase
        </button>
      )}
      <ErrorNote error={exportWallet.error} />
    </section>
  );
}

function Pay({ user }: { user: DemoUser }) {
  const accounts = useInternalAccounts({ customerId: user.customerId });
  const execute = useExecuteQuote();
  const sca = useAuthorizeQuote();
  const [quote, setQuote] = useState<QuoteJson>();
  const [error, setError] = useState<unknown>(null);
  const wallet = accounts.data?.[0];
  // Amounts travel in the currency's smallest unit (the buttons wait for the wallet to load).
  const decimals = wallet?.balance?.currency?.decimals ?? 2;
  const run = async (work: () => Promise<void>) => {
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e);
    }
  };
  // An EU payment waits for its confirmation (SCA) after execute: start it as soon as it does.
  // Under Strict Mode the effect runs twice: the first call is aborted, the second one stays.
  const executed = execute.data;
  const { mutate: authorize } = sca;
  useEffect(() => {
    if (executed?.status === "PENDING_AUTHORIZATION") authorize({ quote: executed });
  }, [executed, authorize]);
  const released = executed?.status === "PENDING_AUTHORIZATION" ? sca.data : executed;
  const transactionId = released?.transactionId;
  const transaction = useTransaction(transactionId ? { transactionId } : skipToken);
  const { refetch } = accounts;
  useEffect(() => {
    if (transaction.isSuccess) void refetch();
  }, [transaction.isSuccess, refetch]);
  return (
    <section aria-labelledby="pay-title">
      <h2 id="pay-title">Send money</h2>
      <p>
        Balance:{" "}
        <span data-testid="balance">
          {wallet?.balance
            ? (wallet.balance.amount / 10 ** decimals).toFixed(2)
            : accounts.isError
              ? "?"
              : "…"}
        </span>
      </p>
      <ErrorNote error={accounts.error} />
      <div className="row">
        <button
          type="button"
          disabled={!wallet}
          onClick={() =>
            void run(async () => {
              await demo("fund", { amount: 500 * 10 ** decimals });
              await refetch();
            })
          }
        >
          Add 500.00 test funds
        </button>
        <button
          type="button"
          disabled={!wallet}
          onClick={() =>
            void run(async () => {
              execute.reset();
              sca.reset();
              setQuote(await demo<QuoteJson>("quote", { amount: 25 * 10 ** decimals }));
            })
          }
        >
          Get a quote for 25.00
        </button>
        {quote && !executed && (
          <button
            type="button"
            disabled={execute.isPending}
            onClick={() => execute.mutate({ quote })}
          >
            {execute.isPending ? `Sending (${execute.stage})…` : "Sign and send"}
          </button>
        )}
      </div>
      {quote && (
        <p data-testid="quote">
          Quote {quote.id}: {quote.status}
        </p>
      )}
      <Confirm sca={sca} />
      {transaction.isSuccess && <p data-testid="tx-status">{transaction.data.status}</p>}
      {transactionId && !transaction.isSuccess && !transaction.isError && <p>Settling…</p>}
      <ErrorNote error={error ?? execute.error ?? sca.error ?? transaction.error} />
    </section>
  );
}

function Confirm({ sca }: { sca: ReturnType<typeof useAuthorizeQuote> }) {
  const [code, setCode] = useState("");
  const waiting = sca.pendingChallenge;
  if (!waiting) return sca.isSuccess ? <p role="status">Payment confirmed.</p> : null;
  const title = waiting.login
    ? "Confirm it is you"
    : `Step ${waiting.step}: confirm ${waiting.challenge.purpose ?? "the payment"}`;
  if (waiting.challenge.factor === "PASSKEY")
    return (
      <button type="button" onClick={() => sca.answer({ passkey: true })}>
        {title} with your passkey
      </button>
    );
  return (
    <form
      aria-label="Confirm the payment"
      data-challenge={waiting.challenge.id}
      onSubmit={(e) => {
        e.preventDefault();
        sca.answer({ code });
        setCode("");
      }}
    >
      <h3>{title}</h3>
      {waiting.error && <p role="alert">{waiting.error.message}</p>}
      <label>
        Code sent by SMS (sandbox: 123456){" "}
        <input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
        />
      </label>
      <button type="submit">Confirm</button>
      <button type="button" onClick={() => void sca.resend()}>
        Send a new code
      </button>
    </form>
  );
}
