// Send money: add test funds, get a quote, sign and execute it once, follow settlement to the end.
import { type QuoteJson, type QuotePayloadSummary, readQuotePayload } from "@signet/core";
import {
  useAuthorizeQuote,
  useExecuteQuote,
  useInternalAccounts,
  useTransaction,
} from "@signet/react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Authorize } from "./Authorize.js";
import { demoApi } from "./demoApi.js";
import { ErrorNote, formatMoney, type Step, Steps, useSecondsLeft } from "./ui.js";

/** How an EU customer can confirm a payment, as the quote asks for it. */
const FACTORS = [
  ["SMS_OTP", "SMS code"],
  ["PASSKEY", "Passkey (add one under Sign-in methods first)"],
] as const;

export function Send({ customerId, region }: { customerId: string; region: string }) {
  const accounts = useInternalAccounts({ customerId });
  const execute = useExecuteQuote();
  const sca = useAuthorizeQuote();
  const needsSca = region !== "US";
  const [factor, setFactor] = useState<"SMS_OTP" | "PASSKEY">("SMS_OTP");
  const [amount, setAmount] = useState("25.00");
  const [quote, setQuote] = useState<QuoteJson>();
  // What the quote was asked for: a quote that no longer matches the inputs is never signed.
  const [quotedFor, setQuotedFor] = useState<{ units: number; factor: string | undefined }>();
  const [busy, setBusy] = useState<"fund" | "quote">();
  const [error, setError] = useState<unknown>(null);
  const amountId = useId();
  const executed = execute.data;
  // An EU payment waits for its confirmation (SCA) after execute: start it as soon as it does.
  const { mutate: authorize, reset: resetSca } = sca;
  useEffect(() => {
    if (executed?.status === "PENDING_AUTHORIZATION") authorize({ quote: executed });
  }, [executed, authorize]);
  // The transfer starts once no confirmation is pending: follow it from then on.
  const released = executed?.status === "PENDING_AUTHORIZATION" ? sca.data : executed;
  const transactionId = released?.transactionId;
  const transaction = useTransaction({
    transactionId: transactionId ?? "",
    enabled: transactionId !== undefined,
  });
  const quoteLeft = useSecondsLeft(quote?.expiresAt);
  const wallet = accounts.data?.[0];
  const balance = wallet?.balance?.amount;
  const currency = wallet?.balance?.currency;
  const unit = 10 ** (currency?.decimals ?? 2);

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
      await demoApi.fund(500 * unit);
      await accounts.refetch();
    });
  const typedUnits = Math.round(Number(amount) * unit);
  // Changing what the quote was for discards it (unless it is already on its way).
  const discardQuote = () => {
    if (quote !== undefined && !execute.isPending && execute.data === undefined) {
      setQuote(undefined);
      setQuotedFor(undefined);
      execute.reset();
    }
  };
  const requestQuote = () => {
    const units = typedUnits;
    if (!Number.isFinite(units) || units <= 0) {
      setError(
        Object.assign(new Error("Enter an amount above zero, like 25.00."), {
          code: "INVALID_AMOUNT",
        }),
      );
      return;
    }
    execute.reset();
    resetSca();
    setQuote(undefined);
    void run("quote", async () => {
      const scaFactor = needsSca ? factor : undefined;
      setQuote(await demoApi.quote(units, scaFactor));
      setQuotedFor({ units, factor: scaFactor });
    });
  };
  const getQuote = (event: FormEvent) => {
    event.preventDefault();
    requestQuote();
  };
  const signing = quote ? summarise(quote) : undefined;
  const stale =
    quote !== undefined &&
    (quotedFor?.units !== typedUnits || quotedFor?.factor !== (needsSca ? factor : undefined));
  const expired = quoteLeft === 0;
  // The screen's own rule, beside the one core runs before it signs: the payload must carry the
  // amount shown, and the quote must still be the one the inputs asked for.
  // An opaque transaction (the service's chain bytes) is left to core's check of the quote.
  const payloadMatches =
    signing !== undefined &&
    (!signing.readable ||
      ((signing.amount === undefined || signing.amount === String(quote?.totalSendingAmount)) &&
        (signing.quoteId === undefined || signing.quoteId === quote?.id)));
  const status = transaction.data?.status;
  const settled = status === "COMPLETED";
  const failed =
    execute.isError || sca.isError || transaction.isError || (status !== undefined && !settled);
  const stageDone = (done: boolean, active: boolean): Step["state"] =>
    done ? "done" : active ? (failed ? "failed" : "active") : "todo";
  const steps: Step[] = [
    { label: "Funds in the wallet", state: stageDone((balance ?? 0) > 0, busy === "fund") },
    { label: "Quote", state: stageDone(quote !== undefined, busy === "quote") },
    {
      label: "Sign on this device",
      state: stageDone(
        execute.stage === "submitting" || execute.stage === "processing" || execute.isSuccess,
        execute.stage === "challenge" || execute.stage === "signing",
      ),
    },
    { label: "Execute", state: stageDone(execute.isSuccess, execute.isPending || execute.isError) },
    ...(needsSca
      ? [
          {
            label: "Confirm (SCA)",
            state: stageDone(released !== undefined, sca.isPending || sca.isError),
          },
        ]
      : []),
    { label: "Settle", state: stageDone(settled, transactionId !== undefined) },
  ];

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

      <form onSubmit={getQuote} className="stack">
        <label htmlFor={amountId}>
          Amount to send to Demo Payee (bank account ••6789), {currency?.code ?? ""}
        </label>
        <div className="row">
          <input
            id={amountId}
            inputMode="decimal"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              discardQuote();
            }}
            required
            pattern="[0-9]+(\.[0-9]{1,2})?"
          />
          <button
            type="submit"
            className="secondary"
            disabled={busy !== undefined || execute.isPending}
          >
            {busy === "quote" ? "Quoting…" : "Get quote"}
          </button>
        </div>
        {needsSca && (
          <fieldset>
            <legend>Confirm EU payments with</legend>
            {FACTORS.map(([value, label]) => (
              <label className="radio" key={value}>
                <input
                  type="radio"
                  name="sca-factor"
                  checked={factor === value}
                  onChange={() => {
                    setFactor(value);
                    discardQuote();
                  }}
                />
                {label}
              </label>
            ))}
          </fieldset>
        )}
      </form>
      <ErrorNote error={error} title="Could not prepare the payment" />

      {quote && (
        <section className="quote" aria-label="Quote">
          <dl>
            <dt>You send</dt>
            <dd>{formatMoney(quote.totalSendingAmount, quote.sendingCurrency)}</dd>
            <dt>Fees</dt>
            <dd>{formatMoney(quote.feesIncluded ?? 0, quote.sendingCurrency)}</dd>
            <dt>They receive</dt>
            <dd>{formatMoney(quote.totalReceivingAmount, quote.receivingCurrency)}</dd>
            <dt>Quote valid for</dt>
            <dd>{quoteLeft !== undefined ? (expired ? "expired" : `${quoteLeft} s`) : "—"}</dd>
          </dl>
          <SigningSummary summary={signing} quote={quote} />
          {signing !== undefined && !payloadMatches && (
            <p className="note note-error" role="alert" data-testid="payload-differs">
              What this device would sign does not match the quote shown, so it will not sign it.
              Get a new quote.
            </p>
          )}
          {stale && !execute.isPending && execute.data === undefined && (
            <p className="note note-error" role="alert">
              This quote is for a different amount than you typed. Get a new quote.
            </p>
          )}
          {needsSca && (
            <p className="hint">
              EU customer: after you send, confirm the payment with{" "}
              {factor === "PASSKEY" ? "your passkey" : "a code sent by SMS"} (strong customer
              authentication).
            </p>
          )}
          {expired && !execute.isPending && !execute.isSuccess ? (
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
                execute.isPending || execute.isSuccess || expired || stale || !payloadMatches
              }
              onClick={() => execute.mutate({ quote })}
            >
              {execute.isPending ? `Sending… (${execute.stage ?? "starting"})` : "Sign and send"}
            </button>
          )}
        </section>
      )}
      <ErrorNote error={execute.error} title="The payment was not sent" />
      <Authorize sca={sca} />
      <ErrorNote error={sca.error} title="The payment was not confirmed" />

      {transactionId && (
        <div className="settle" aria-live="polite">
          {!transaction.data && !transaction.error && (
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
          {status && !settled && (
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
