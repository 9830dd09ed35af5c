// Send money: add test funds, get a quote, sign and execute it once, follow settlement to the end.
import {
  enrollScaPasskey,
  getQuote,
  listScaFactors,
  type PendingAuthorizationQuoteJson,
  type QuoteJson,
  type QuotePayloadSummary,
  readQuotePayload,
} from "@signet/core";
import {
  useAuthorizeQuote,
  useClient,
  useExecuteQuote,
  useInternalAccounts,
  useTransaction,
} from "@signet/react";
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { Authorize } from "./Authorize.js";
import { demoApi } from "./demoApi.js";
import { ErrorNote, formatMoney, parseAmount, type Step, Steps, useSecondsLeft } from "./ui.js";

/**
 * The payment this tab is sending, kept across a reload: only the quote's id (no amount, code or
 * key), in sessionStorage, so the tracker can find it again and resume it (SCA included).
 */
const pendingKey = (customerId: string) => `signet-demo:payment:${customerId}`;
const readPending = (customerId: string): string | undefined => {
  try {
    const id = sessionStorage.getItem(pendingKey(customerId));
    return id && /^[A-Za-z]+:[A-Za-z0-9_-]{1,100}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
};
const writePending = (customerId: string, quoteId: string | undefined) => {
  try {
    if (quoteId) sessionStorage.setItem(pendingKey(customerId), quoteId);
    else sessionStorage.removeItem(pendingKey(customerId));
  } catch {}
};

/** Quote statuses after execute: the payment left this device. */
const SENT = new Set(["PENDING_AUTHORIZATION", "PROCESSING", "COMPLETED", "FAILED"]);

export function Send({ customerId, region }: { customerId: string; region: string }) {
  const client = useClient();
  const accounts = useInternalAccounts({ customerId });
  const execute = useExecuteQuote();
  const sca = useAuthorizeQuote();
  const needsSca = region !== "US";
  const [factor, setFactor] = useState<"SMS_OTP" | "PASSKEY">("SMS_OTP");
  // The customer's enrolled SCA factors, from the service: a passkey can confirm payments only
  // once it is enrolled for that (a sign-in passkey is not).
  const [scaFactors, setScaFactors] = useState<string[]>();
  const [enrolling, setEnrolling] = useState(false);
  const [factorError, setFactorError] = useState<unknown>(null);
  const loadFactors = useCallback(() => {
    if (!needsSca) return;
    listScaFactors(client).then(
      (list) => setScaFactors(list.map((f) => f.factor)),
      (e) => setFactorError(e),
    );
  }, [client, needsSca]);
  useEffect(() => loadFactors(), [loadFactors]);
  const hasScaPasskey = scaFactors?.includes("PASSKEY") === true;
  // The choice can never promise a passkey the customer does not have.
  const chosen = factor === "PASSKEY" && hasScaPasskey ? "PASSKEY" : "SMS_OTP";
  const enrollPasskey = () => {
    setEnrolling(true);
    setFactorError(null);
    // Straight from the tap: the passkey prompt opens at once.
    enrollScaPasskey(client)
      .then(
        () => {
          setFactor("PASSKEY");
          loadFactors();
        },
        (e) => setFactorError(e),
      )
      .finally(() => setEnrolling(false));
  };
  const [amount, setAmount] = useState("25.00");
  const [quote, setQuote] = useState<QuoteJson>();
  // What the quote was asked for: a quote that no longer matches the inputs is never signed.
  const [quotedFor, setQuotedFor] = useState<{ units: number }>();
  const [busy, setBusy] = useState<"fund" | "quote">();
  const [error, setError] = useState<unknown>(null);
  // The device signed the execute (its stamp went out), whatever the service then answered.
  const [signed, setSigned] = useState(false);
  // A payment found again after a reload: the quote as the service has it now.
  const [resumed, setResumed] = useState<QuoteJson>();
  const [resumeError, setResumeError] = useState<unknown>(null);
  const amountId = useId();
  const wallet = accounts.data?.[0];
  const balance = wallet?.balance?.amount;
  const currency = wallet?.balance?.currency;
  const decimals = currency?.decimals ?? 2;

  // After a reload: the payment this tab was sending, from the service, resumed where it stood.
  const looked = useRef(false);
  useEffect(() => {
    if (looked.current) return;
    looked.current = true;
    const quoteId = readPending(customerId);
    if (!quoteId) return;
    getQuote(client, { quoteId }).then(
      (found) => {
        if (found.status === "PENDING") {
          // Never executed: nothing left the wallet. It can be signed again while it is valid.
          writePending(customerId, undefined);
          const units = found.totalSendingAmount;
          if (Date.parse(found.expiresAt ?? "") > Date.now() && units !== undefined) {
            setQuote(found);
            setQuotedFor({ units });
            setAmount((units / 10 ** decimals).toFixed(decimals));
          }
          return;
        }
        setResumed(found);
      },
      (e) => {
        writePending(customerId, undefined);
        setResumeError(e);
      },
    );
  }, [client, customerId, decimals]);

  const executed: QuoteJson | undefined =
    execute.data ?? (resumed && SENT.has(resumed.status) ? resumed : undefined);
  const awaitingSca =
    executed?.status === "PENDING_AUTHORIZATION" && executed.scaChallenge
      ? (executed as PendingAuthorizationQuoteJson)
      : undefined;
  // An EU payment waits for its confirmation (SCA) after execute: start it as soon as it does.
  const { mutate: authorize, reset: resetSca } = sca;
  useEffect(() => {
    if (awaitingSca) authorize({ quote: awaitingSca });
  }, [awaitingSca, authorize]);
  useEffect(() => {
    const stage = execute.stage;
    if (stage === "submitting" || stage === "processing" || stage === "done") setSigned(true);
  }, [execute.stage]);
  // The transfer starts once no confirmation is pending: follow it from then on.
  const released = executed?.status === "PENDING_AUTHORIZATION" ? sca.data : executed;
  const transactionId = released?.transactionId;
  const transaction = useTransaction({
    transactionId: transactionId ?? "",
    enabled: transactionId !== undefined,
  });
  const status = transaction.data?.status;
  const settled = status === "COMPLETED";
  // Once the payment has ended either way, a reload has nothing to resume.
  const ended =
    settled || (status !== undefined && status !== "PROCESSING" && status !== "PENDING");
  useEffect(() => {
    if (ended) writePending(customerId, undefined);
  }, [ended, customerId]);
  // Settling moves money: the balance shown follows.
  const { refetch: refetchAccounts } = accounts;
  useEffect(() => {
    if (ended || executed) void refetchAccounts();
  }, [ended, executed, refetchAccounts]);

  const quoteLeft = useSecondsLeft(quote?.expiresAt);

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
      await demoApi.fund(500 * 10 ** decimals);
      await accounts.refetch();
    });
  const typedUnits = parseAmount(amount, decimals);
  // Changing what the quote was for discards it (unless it is already on its way).
  const discardQuote = () => {
    if (quote !== undefined && !execute.isPending && execute.data === undefined) {
      setQuote(undefined);
      setQuotedFor(undefined);
      execute.reset();
    }
  };
  const inFlight = executed !== undefined && !ended && !sca.isError && !execute.isError;
  const requestQuote = () => {
    const units = typedUnits;
    if (units === undefined || units <= 0) {
      setError(
        Object.assign(
          new Error(
            `"${amount}" is not an amount above zero with at most ${decimals} decimals, like 25.00 or 25,00.`,
          ),
          { code: "INVALID_AMOUNT" },
        ),
      );
      return;
    }
    execute.reset();
    resetSca();
    setSigned(false);
    setResumed(undefined);
    setResumeError(null);
    setQuote(undefined);
    writePending(customerId, undefined);
    void run("quote", async () => {
      setQuote(await demoApi.quote(units));
      setQuotedFor({ units });
    });
  };
  const getQuoteNow = (event: FormEvent) => {
    event.preventDefault();
    requestQuote();
  };
  const send = (q: QuoteJson) => {
    setSigned(false);
    // Kept before anything is signed: a reload from here on finds the payment again.
    writePending(customerId, q.id);
    // An EU customer's choice of how to confirm goes with the execute.
    execute.mutate(needsSca ? { quote: q, scaFactor: chosen } : { quote: q });
  };
  const signing = quote ? summarise(quote) : undefined;
  const stale = quote !== undefined && quotedFor?.units !== typedUnits;
  const expired = quoteLeft === 0;
  // More than the wallet holds: the service would refuse it at execute, after the device signed.
  const overBalance =
    quote !== undefined &&
    balance !== undefined &&
    !execute.isSuccess &&
    (quote.totalSendingAmount ?? 0) > balance;
  // The screen's own rule, beside the one core runs before it signs: the payload must carry the
  // amount shown, and the quote must still be the one the inputs asked for.
  // An opaque transaction (the service's chain bytes) is left to core's check of the quote.
  const payloadMatches =
    signing !== undefined &&
    (!signing.readable ||
      ((signing.amount === undefined || signing.amount === String(quote?.totalSendingAmount)) &&
        (signing.quoteId === undefined || signing.quoteId === quote?.id)));
  const failed =
    execute.isError ||
    sca.isError ||
    transaction.isError ||
    (status !== undefined && !settled && ended);
  const stageDone = (done: boolean, active: boolean): Step["state"] =>
    done ? "done" : active ? (failed ? "failed" : "active") : "todo";
  const wasResumed = resumed !== undefined && execute.data === undefined;
  const signedNow = signed || wasResumed || execute.isSuccess;
  const steps: Step[] = [
    {
      label: "Funds in the wallet",
      state: stageDone((balance ?? 0) > 0 || wasResumed, busy === "fund"),
    },
    { label: "Quote", state: stageDone(quote !== undefined || wasResumed, busy === "quote") },
    {
      label: "Sign on this device",
      state: stageDone(
        signedNow,
        execute.stage === "challenge" ||
          execute.stage === "signing" ||
          (execute.isError && !signed),
      ),
    },
    {
      label: "Execute",
      state: stageDone(
        execute.isSuccess || wasResumed,
        execute.isPending || (execute.isError && signed),
      ),
    },
    ...(needsSca
      ? [
          {
            label: "Confirm (SCA)",
            state: stageDone(
              released !== undefined,
              executed?.status === "PENDING_AUTHORIZATION" || sca.isPending || sca.isError,
            ),
          },
        ]
      : []),
    { label: "Settle", state: stageDone(settled, transactionId !== undefined) },
  ];
  const shown = quote ?? (wasResumed ? resumed : undefined);

  return (
    <section className="card" aria-labelledby="send-title">
      <h1 id="send-title">Send money</h1>
      <div className="panel">
        <div>
          <div className="muted small">Wallet balance</div>
          <div className="big" data-testid="balance">
            {accounts.isPending ? "…" : formatMoney(balance, currency)}
          </div>
        </div>
        <button type="button" className="secondary" disabled={busy !== undefined} onClick={fund}>
          {busy === "fund" ? "Adding…" : "Add 500.00 test funds"}
        </button>
      </div>
      <ErrorNote error={accounts.error} title="Could not load the balance" />

      <Steps steps={steps} label="Payment progress" />

      {wasResumed && (
        <div className="note" role="status" data-testid="resumed">
          <strong>
            Your payment of {formatMoney(resumed.totalSendingAmount, resumed.sendingCurrency)} was
            found again.
          </strong>
          <p>
            {resumed.status === "PENDING_AUTHORIZATION"
              ? "It was sent and waits for your confirmation: confirm it below to release it."
              : "It was sent before the page reloaded; its progress is below."}
          </p>
        </div>
      )}
      <ErrorNote error={resumeError} title="Could not find the payment from before the reload" />

      <form onSubmit={getQuoteNow} className="stack">
        <label htmlFor={amountId}>
          Amount to send to Demo Payee (bank account ••6789), {currency?.code ?? ""}
        </label>
        <div className="row">
          <input
            id={amountId}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              discardQuote();
            }}
            required
            aria-describedby={`${amountId}-hint`}
          />
          <button
            type="submit"
            className="secondary"
            disabled={busy !== undefined || execute.isPending || inFlight}
          >
            {busy === "quote" ? "Quoting…" : "Get quote"}
          </button>
        </div>
        <p id={`${amountId}-hint`} className="hint">
          {inFlight
            ? "A payment is on its way: finish it before starting another."
            : "A decimal point or comma both work: 12.50 or 12,50."}
        </p>
        {needsSca && (
          <fieldset disabled={execute.isPending || inFlight}>
            <legend>Confirm EU payments with</legend>
            <label className="radio">
              <input
                type="radio"
                name="sca-factor"
                checked={chosen === "SMS_OTP"}
                onChange={() => setFactor("SMS_OTP")}
              />
              SMS code
            </label>
            <label className="radio">
              <input
                type="radio"
                name="sca-factor"
                checked={chosen === "PASSKEY"}
                disabled={!hasScaPasskey}
                aria-describedby={`${amountId}-factor`}
                onChange={() => setFactor("PASSKEY")}
              />
              Passkey{hasScaPasskey ? "" : " (set one up first)"}
            </label>
            {!hasScaPasskey && scaFactors !== undefined && (
              <p id={`${amountId}-factor`} className="hint">
                A passkey confirms payments once it is set up for that (a sign-in passkey is not
                enough).{" "}
                <button type="button" className="link" disabled={enrolling} onClick={enrollPasskey}>
                  {enrolling ? "Waiting for your device…" : "Set up a passkey for payments"}
                </button>
              </p>
            )}
          </fieldset>
        )}
      </form>
      <ErrorNote error={error} title="Could not prepare the payment" />
      <ErrorNote error={factorError} title="Could not set up the passkey for payments" />

      {shown && (
        <section className="quote" aria-label="Quote">
          <dl>
            <dt>You send</dt>
            <dd>{formatMoney(shown.totalSendingAmount, shown.sendingCurrency)}</dd>
            <dt>Fees</dt>
            <dd>{formatMoney(shown.feesIncluded ?? 0, shown.sendingCurrency)}</dd>
            <dt>They receive</dt>
            <dd>{formatMoney(shown.totalReceivingAmount, shown.receivingCurrency)}</dd>
            {quote && !execute.isSuccess && (
              <>
                <dt>Quote valid for</dt>
                <dd>{quoteLeft !== undefined ? (expired ? "expired" : `${quoteLeft} s`) : "—"}</dd>
              </>
            )}
          </dl>
          {quote && !execute.isSuccess && (
            <>
              <SigningSummary summary={signing} quote={quote} />
              {signing !== undefined && !payloadMatches && (
                <p className="note note-error" role="alert" data-testid="payload-differs">
                  What this device would sign does not match the quote shown, so it will not sign
                  it. Get a new quote.
                </p>
              )}
              {stale && !execute.isPending && execute.data === undefined && (
                <p className="note note-error" role="alert">
                  This quote is for a different amount than you typed. Get a new quote.
                </p>
              )}
              {overBalance && !expired && (
                <div className="note note-error" role="alert" data-testid="over-balance">
                  <strong>More than the wallet holds.</strong>
                  <p>
                    This quote needs {formatMoney(quote.totalSendingAmount, quote.sendingCurrency)},
                    and the wallet has {formatMoney(balance, currency)}. Add test funds or lower the
                    amount, then get a new quote. Nothing was signed.
                  </p>
                </div>
              )}
              {needsSca && (
                <p className="hint">
                  EU customer: after you send, confirm the payment with{" "}
                  {chosen === "PASSKEY" ? "your passkey" : "a code sent by SMS"} (strong customer
                  authentication).
                </p>
              )}
              {expired && !execute.isPending ? (
                <>
                  <p className="note" role="status">
                    This quote expired before it was sent. Nothing was signed.
                  </p>
                  <button
                    type="button"
                    className="primary"
                    disabled={busy !== undefined}
                    onClick={requestQuote}
                  >
                    Get a new quote
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  className="primary"
                  disabled={
                    execute.isPending ||
                    execute.isError ||
                    expired ||
                    stale ||
                    overBalance ||
                    !payloadMatches
                  }
                  onClick={() => send(quote)}
                >
                  {execute.isPending
                    ? `Sending… (${execute.stage ?? "starting"})`
                    : "Sign and send"}
                </button>
              )}
            </>
          )}
        </section>
      )}
      <ErrorNote
        error={execute.error}
        title={
          signed ? "The device signed, but the service did not send it" : "The payment was not sent"
        }
      />
      {execute.isError && (
        <button type="button" className="secondary" onClick={requestQuote}>
          Get a new quote
        </button>
      )}
      <Authorize sca={sca} />
      <ErrorNote error={sca.error} title="The payment was not confirmed" />
      {sca.isError && awaitingSca && (
        <div className="row wrap">
          <button
            type="button"
            className="secondary"
            onClick={() => authorize({ quote: awaitingSca })}
          >
            Try confirming again
          </button>
        </div>
      )}

      {transactionId && (
        <div className="settle" aria-live="polite">
          {!transaction.data && !transaction.error && (
            <>
              <label htmlFor="settle-progress">Settling with the bank…</label>
              <progress id="settle-progress" />
            </>
          )}
          {status && !ended && transaction.data && (
            <>
              <label htmlFor="settle-progress">Settling with the bank…</label>
              <progress id="settle-progress" />
            </>
          )}
          {settled && (
            <p role="status" className="note note-ok">
              <span aria-hidden="true">✓ </span>Payment{" "}
              <strong data-testid="tx-status">COMPLETED</strong>. Transaction{" "}
              <code>{transactionId}</code>
            </p>
          )}
          {status && ended && !settled && (
            <p role="alert" className="note note-error">
              The payment ended as <strong data-testid="tx-status">{status}</strong>. No money left
              the wallet twice; get a new quote to try again.
            </p>
          )}
          <ErrorNote error={transaction.error} title="Could not follow the payment" />
        </div>
      )}
    </section>
  );
}

/** What the quote's payload would have the device sign; undefined when it names no wallet step. */
function summarise(quote: QuoteJson): QuotePayloadSummary | undefined {
  try {
    return readQuotePayload(quote);
  } catch {
    return undefined;
  }
}

const ACTIVITY_NAMES: Record<string, string> = {
  ACTIVITY_TYPE_SIGN_TRANSACTION_V2: "Sign a transfer",
  ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2: "Sign a transfer (raw payload)",
};

/** "About to sign": read from the payload itself, not from the quote beside it. */
function SigningSummary({
  summary,
  quote,
}: {
  summary: QuotePayloadSummary | undefined;
  quote: QuoteJson;
}) {
  if (summary === undefined) return null;
  const amount = summary.amount !== undefined ? Number(summary.amount) : undefined;
  const currency =
    summary.currency === quote.sendingCurrency?.code
      ? quote.sendingCurrency
      : { code: summary.currency ?? "", decimals: quote.sendingCurrency?.decimals ?? 2 };
  return (
    <section className="signing" aria-label="What this device will sign" data-testid="signing">
      <h2 className="small">This device will sign</h2>
      <dl>
        <dt>Action</dt>
        <dd>{ACTIVITY_NAMES[summary.activityType ?? ""] ?? summary.activityType ?? "unknown"}</dd>
        <dt>From wallet</dt>
        <dd>
          <code>{summary.wallet ?? "—"}</code>
        </dd>
        {summary.readable ? (
          <>
            <dt>Amount</dt>
            <dd data-testid="signing-amount">
              {amount !== undefined && Number.isSafeInteger(amount)
                ? formatMoney(amount, currency)
                : "—"}
            </dd>
            <dt>To</dt>
            <dd>
              <code>{summary.destination ?? "—"}</code>
            </dd>
            <dt>Quote</dt>
            <dd>
              <code>{summary.quoteId ?? "—"}</code>
            </dd>
          </>
        ) : (
          <>
            <dt>Details</dt>
            <dd>Not readable on this device; the quote above is what the service will execute.</dd>
          </>
        )}
      </dl>
    </section>
  );
}
