// The payment's state, as in the web demo: a quote (the app funds nothing by itself), the SCA
// login asked first, execute, each SCA step, the transfer followed to its end. A payment that
// waits or moves is found again in the service's own list of transactions, so it resumes after
// the app was killed.
import {
  getQuote,
  type PendingAuthorizationQuoteJson,
  type QuoteJson,
  type ScaLoginFactor,
} from "@signet/core";
import {
  useAuthorizeQuote,
  useClient,
  useExecuteQuote,
  useInternalAccounts,
  useSession,
  useTransaction,
  useTransactions,
} from "@signet/react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { DemoProfile } from "../demoApi";
import { fundWallet, JourneyError, paymentUnits, quotePayment } from "../journeys";
import { scaSessionLive, useScaLoginFirst } from "./scaLogin";

const SENT = new Set(["PENDING_AUTHORIZATION", "PROCESSING", "COMPLETED", "FAILED"]);

export function usePayment(profile: DemoProfile) {
  const client = useClient();
  const { customerId } = profile;
  const accounts = useInternalAccounts({ customerId });
  const activity = useTransactions({});
  const { session } = useSession({ accountId: profile.accountId });
  const execute = useExecuteQuote();
  const sca = useAuthorizeQuote();
  const login = useScaLoginFirst(customerId);
  const [quote, setQuote] = useState<{ quote: QuoteJson; units: number }>();
  const [busy, setBusy] = useState<"fund" | "quote" | "login">();
  const [error, setError] = useState<unknown>(null);
  const [resumed, setResumed] = useState<QuoteJson>();
  const wallet = accounts.data?.[0];
  const balance = wallet?.balance?.amount;
  const currency = wallet?.balance?.currency;
  const decimals = currency?.decimals ?? 2;

  // The newest payment that waits for confirmation or is on its way, from the service's list.
  const open = useMemo(
    () =>
      (activity.data?.transactions ?? [])
        .filter(
          (t) =>
            t.direction === "DEBIT" &&
            typeof t.quoteId === "string" &&
            (t.status === "PENDING_AUTHORIZATION" || t.status === "PROCESSING"),
        )
        .sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)))[0],
    [activity.data],
  );
  const looked = useRef(new Set<string>());
  const own = execute.data?.id ?? quote?.quote.id;
  useEffect(() => {
    const quoteId = open?.quoteId as string | undefined;
    if (!quoteId || quoteId === own || looked.current.has(quoteId)) return;
    looked.current.add(quoteId);
    getQuote(client, { quoteId }).then(
      (found) => (SENT.has(found.status) ? setResumed(found) : undefined),
      setError,
    );
  }, [client, open, own]);

  const executed = execute.data ?? resumed;
  const awaitingSca =
    executed?.status === "PENDING_AUTHORIZATION" && executed.scaChallenge && sca.data === undefined
      ? (executed as PendingAuthorizationQuoteJson)
      : undefined;
  const fresh = awaitingSca !== undefined && execute.data?.id === awaitingSca.id;
  const { mutate: authorize, reset: resetSca } = sca;
  useEffect(() => {
    if (awaitingSca && (fresh || scaSessionLive(customerId))) authorize({ quote: awaitingSca });
  }, [awaitingSca, fresh, customerId, authorize]);

  const released = executed?.status === "PENDING_AUTHORIZATION" ? sca.data : executed;
  const transactionId = released?.transactionId;
  const transaction = useTransaction(
    transactionId ? { transactionId } : { transactionId: "", enabled: false },
  );
  const status = transaction.data?.status;
  const settled = status === "COMPLETED";
  const ended =
    settled || (status !== undefined && status !== "PROCESSING" && status !== "PENDING");
  const { refetch: refetchAccounts } = accounts;
  useEffect(() => {
    if (ended || executed) void refetchAccounts();
  }, [ended, executed, refetchAccounts]);

  const run = async (kind: "fund" | "quote", work: () => Promise<void>) => {
    setBusy(kind);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };
  const fund = () =>
    run("fund", async () => {
      await fundWallet(500 * 10 ** decimals, session?.id);
      await accounts.refetch();
    });
  const requestQuote = (typed: string) => {
    const units = paymentUnits(typed, decimals);
    if (Number.isNaN(units)) {
      setError(new JourneyError("INVALID_AMOUNT", `“${typed.slice(0, 40)}” is not an amount.`));
      return;
    }
    execute.reset();
    resetSca();
    setResumed(undefined);
    setQuote(undefined);
    void run("quote", async () => {
      setQuote({ quote: await quotePayment(units, session?.id), units });
    });
  };
  const send = async (q: QuoteJson, factor: ScaLoginFactor) => {
    setError(null);
    if (profile.sca) {
      setBusy("login");
      try {
        await login.ensure(factor);
      } catch {
        return;
      } finally {
        setBusy(undefined);
      }
    }
    execute.mutate(
      profile.sca
        ? { quote: q, scaFactor: factor === "PASSKEY" ? "PASSKEY" : "SMS_OTP" }
        : { quote: q },
    );
  };
  const confirmFound = async () => {
    if (!awaitingSca) return;
    try {
      await login.ensure(awaitingSca.scaChallenge.factor === "PASSKEY" ? "PASSKEY" : "SMS_OTP");
      authorize({ quote: awaitingSca });
    } catch {}
  };
  const startOver = () => {
    execute.reset();
    resetSca();
    login.reset();
    setQuote(undefined);
    setResumed(undefined);
    setError(null);
  };
  return {
    balance,
    currency,
    decimals,
    accounts,
    quote,
    discard: () =>
      execute.data === undefined && !execute.isPending ? setQuote(undefined) : undefined,
    busy,
    error,
    resumed,
    execute,
    sca,
    login,
    awaitingSca,
    fresh,
    transactionId,
    transaction,
    settled,
    ended,
    fund,
    requestQuote,
    send,
    confirmFound,
    startOver,
  };
}

export type Payment = ReturnType<typeof usePayment>;
