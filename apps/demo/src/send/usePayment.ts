// The payment's state: the quote being prepared, the SCA login asked first, execute, each SCA
// step, and the transfer followed to its end. A payment that waits or moves is found again from
// the service's own list of transactions, so it can be confirmed from any tab or from Activity
// (nothing is kept in one tab's storage).
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
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { DemoInputError, type DemoProfile, demoApi } from "../demoApi.js";
import { newestFirst } from "../movements.js";
import { parseAmount } from "../ui.js";
import { scaSessionLive, useScaLoginFirst } from "./scaLogin.js";

/** Quote statuses after execute: the payment left this device. */
const SENT = new Set(["PENDING_AUTHORIZATION", "PROCESSING", "COMPLETED", "FAILED"]);

export type Draft = { quote: QuoteJson; units: number };

export function usePayment(profile: DemoProfile) {
  const client = useClient();
  const { customerId } = profile;
  const needsSca = profile.region !== "US";
  const accounts = useInternalAccounts({ customerId });
  const activity = useTransactions({});
  const { session } = useSession({ accountId: profile.accountId });
  const execute = useExecuteQuote();
  const sca = useAuthorizeQuote();
  const login = useScaLoginFirst(customerId);
  const [draft, setDraft] = useState<Draft>();
  const [busy, setBusy] = useState<"fund" | "quote" | "login">();
  const [error, setError] = useState<unknown>(null);
  // The device signed the execute (its stamp went out), whatever the service then answered.
  const [signed, setSigned] = useState(false);
  // A payment of the customer's that waits or moves, found in the service's list.
  const [resumed, setResumed] = useState<QuoteJson>();
  const [resumeError, setResumeError] = useState<unknown>(null);
  const wallet = accounts.data?.[0];
  const balance = wallet?.balance?.amount;
  const currency = wallet?.balance?.currency;
  const decimals = currency?.decimals ?? 2;

  // The newest payment that waits for confirmation or is on its way, from any tab or device.
  const open = useMemo(
    () =>
      newestFirst(activity.data?.transactions ?? []).find(
        (m) =>
          m.direction === "out" &&
          m.quoteId !== undefined &&
          (m.status === "PENDING_AUTHORIZATION" || m.status === "PROCESSING"),
      ),
    [activity.data],
  );
  const looked = useRef(new Set<string>());
  const ownQuoteId = execute.data?.id ?? draft?.quote.id;
  useEffect(() => {
    const quoteId = open?.quoteId;
    if (!quoteId || quoteId === ownQuoteId || looked.current.has(quoteId)) return;
    looked.current.add(quoteId);
    getQuote(client, { quoteId }).then(
      (found) => (SENT.has(found.status) ? setResumed(found) : undefined),
      setResumeError,
    );
  }, [client, open?.quoteId, ownQuoteId]);

  const executed: QuoteJson | undefined = execute.data ?? resumed;
  const awaitingSca =
    executed?.status === "PENDING_AUTHORIZATION" && executed.scaChallenge && sca.data === undefined
      ? (executed as PendingAuthorizationQuoteJson)
      : undefined;
  const { mutate: authorize, reset: resetSca } = sca;
  // A payment sent here goes on to its confirmation at once (the login came first). One found
  // again does too when this browser holds a live SCA login; otherwise it waits for a tap, since
  // the login would send a code unasked.
  const fresh = awaitingSca !== undefined && execute.data?.id === awaitingSca.id;
  useEffect(() => {
    if (awaitingSca && (fresh || scaSessionLive(customerId))) authorize({ quote: awaitingSca });
  }, [awaitingSca, fresh, customerId, authorize]);
  useEffect(() => {
    const stage = execute.stage;
    if (stage === "submitting" || stage === "processing" || stage === "done") setSigned(true);
  }, [execute.stage]);

  const factorOf = (q: QuoteJson): ScaLoginFactor =>
    q.scaChallenge?.factor === "PASSKEY" ? "PASSKEY" : "SMS_OTP";
  const confirmFound = async () => {
    if (!awaitingSca) return;
    try {
      await login.ensure(factorOf(awaitingSca));
      authorize({ quote: awaitingSca });
    } catch {}
  };

  // The transfer starts once no confirmation is pending: follow it from then on.
  const released = executed?.status === "PENDING_AUTHORIZATION" ? sca.data : executed;
  const transactionId = released?.transactionId;
  const transaction = useTransaction(
    transactionId ? { transactionId } : { transactionId: "", enabled: false },
  );
  const status = transaction.data?.status;
  const settled = status === "COMPLETED";
  const ended =
    settled || (status !== undefined && status !== "PROCESSING" && status !== "PENDING");
  // Settling moves money: the balance and the activity follow.
  const { refetch: refetchAccounts } = accounts;
  const { refetch: refetchActivity } = activity;
  useEffect(() => {
    if (ended || executed) {
      void refetchAccounts();
      void refetchActivity();
    }
  }, [ended, executed, refetchAccounts, refetchActivity]);

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
      await demoApi.fund(500 * 10 ** decimals, session?.id);
      await accounts.refetch();
    });
  const discard = useCallback(() => {
    if (!execute.isPending && execute.data === undefined) {
      setDraft(undefined);
      execute.reset();
    }
  }, [execute]);
  const requestQuote = (typed: string) => {
    const units = parseAmount(typed, decimals);
    if (units === undefined || units <= 0) {
      setError(
        new DemoInputError(
          "INVALID_AMOUNT",
          `“${typed.slice(0, 40)}” is not an amount above zero with at most ${decimals} decimals.`,
        ),
      );
      return;
    }
    execute.reset();
    resetSca();
    setSigned(false);
    setResumed(undefined);
    setResumeError(null);
    setDraft(undefined);
    void run("quote", async () => {
      setDraft({ quote: await demoApi.quote(units, { sessionId: session?.id }), units });
    });
  };
  /** Signs and sends: an EU customer logs in to SCA first, so the payment asks only its steps. */
  const send = async (quote: QuoteJson, factor: ScaLoginFactor) => {
    setSigned(false);
    setError(null);
    if (needsSca) {
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
      needsSca ? { quote, scaFactor: factor === "PASSKEY" ? "PASSKEY" : "SMS_OTP" } : { quote },
    );
  };
  const startOver = () => {
    execute.reset();
    resetSca();
    login.reset();
    setDraft(undefined);
    setResumed(undefined);
    setSigned(false);
    setError(null);
  };

  return {
    needsSca,
    accounts,
    balance,
    currency,
    decimals,
    draft,
    discard,
    busy,
    error,
    signed,
    resumed,
    resumeError,
    execute,
    sca,
    login,
    executed,
    awaitingSca,
    fresh,
    released,
    transactionId,
    transaction,
    status,
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
