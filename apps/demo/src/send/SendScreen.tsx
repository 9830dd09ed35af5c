// Send money: add test funds, get a quote, sign and execute it once (an EU customer confirms it
// is them first, then each step of the payment), follow settlement, show the receipt. The steps
// are components of their own; the state is ./usePayment.ts.
import { isSignetError, type ScaLoginFactor } from "@signet/core";
import { useState } from "react";
import type { DemoProfile } from "../demoApi.js";
import { ErrorNote, formatMoney, parseAmount, Steps, useSecondsLeft } from "../ui.js";
import { AmountForm, FactorChoice, useChosenFactor } from "./AmountForm.js";
import { Confirm } from "./Confirm.js";
import { FoundPayment } from "./FoundPayment.js";
import { Outcome } from "./Outcome.js";
import { QuoteActions, QuoteDetails } from "./QuoteCard.js";
import { paymentSteps } from "./steps.js";
import { TrustPayee } from "./TrustPayee.js";
import { type Payment, usePayment } from "./usePayment.js";

export function SendScreen({ profile }: { profile: DemoProfile }) {
  const p = usePayment(profile);
  const [amount, setAmount] = useState("25.00");
  const [factor, setFactor] = useState<ScaLoginFactor>("SMS_OTP");
  const chosen = useChosenFactor(factor, p.needsSca);
  const quote = p.draft?.quote;
  const quoteLeft = useSecondsLeft(quote?.expiresAt);
  const expired = quoteLeft === 0;
  const stale = quote !== undefined && p.draft?.units !== parseAmount(amount, p.decimals);
  const overBalance =
    quote !== undefined &&
    p.balance !== undefined &&
    !p.execute.isSuccess &&
    (quote.totalSendingAmount ?? 0) > p.balance;
  const inFlight = p.executed !== undefined && !p.ended && !p.sca.isError && !p.execute.isError;
  const prompt = scaPrompt(p);

  return (
    <section className="card" aria-labelledby="send-title">
      <h1 id="send-title">Send money</h1>
      <div className="panel">
        <div>
          <div className="muted small">Wallet balance</div>
          <div className="big" data-testid="balance">
            {p.accounts.isPending ? "…" : formatMoney(p.balance, p.currency)}
          </div>
        </div>
        <button
          type="button"
          className="secondary"
          // Funds are counted in the currency's smallest unit: until the wallet's currency is
          // known, 500.00 cannot be converted (a guess of 2 decimals funded 0.05 of a 6-decimal one).
          disabled={p.busy !== undefined || p.currency === undefined}
          onClick={p.fund}
        >
          {p.busy === "fund" ? "Adding…" : "Add 500.00 test funds"}
        </button>
      </div>
      <ErrorNote error={p.accounts.error} title="Could not load the balance" />
      <Steps steps={paymentSteps(p, { overBalance, expired })} label="Payment progress" />
      <FoundPayment payment={p} />
      <AmountForm
        amount={amount}
        onAmount={(typed) => {
          setAmount(typed);
          // Changing what the quote was for discards it (unless it is already on its way).
          p.discard();
        }}
        onQuote={() => p.requestQuote(amount)}
        currencyCode={p.currency?.code ?? ""}
        quoting={p.busy !== undefined || p.execute.isPending}
        locked={inFlight}
        lockedHint={undefined}
      />
      {p.needsSca && (
        <FactorChoice
          factor={chosen}
          onFactor={setFactor}
          disabled={p.execute.isPending || inFlight}
        />
      )}
      <ErrorNote error={p.error} title="Could not prepare the payment" />
      {quote && !p.execute.isSuccess && (
        <section className="quote" aria-label="Quote">
          <QuoteDetails quote={quote} secondsLeft={quoteLeft} />
          <QuoteActions
            quote={quote}
            problems={{ stale, expired, overBalance }}
            balanceText={formatMoney(p.balance, p.currency)}
            scaHint={
              p.needsSca
                ? `EU customer: after you press it, confirm it is you and then the payment with ${chosen === "PASSKEY" ? "your passkey" : "a code sent by SMS"} (strong customer authentication).`
                : undefined
            }
            sending={p.execute.isPending || p.busy === "login"}
            stage={p.execute.stage}
            failed={p.execute.isError}
            onSend={() => void p.send(quote, chosen)}
            onRequote={() => p.requestQuote(amount)}
            requoting={p.busy !== undefined}
          />
        </section>
      )}
      {p.execute.isSuccess && quote && (
        <section className="quote" aria-label="Quote">
          <QuoteDetails quote={quote} secondsLeft={undefined} />
        </section>
      )}
      <SendErrors
        payment={p}
        onRequote={() => p.requestQuote(amount)}
        onLogin={() => (quote ? void p.send(quote, chosen, true) : undefined)}
      />
      <Confirm waiting={prompt.waiting} answer={prompt.answer} resend={prompt.resend} />
      {p.transactionId && (
        <Outcome
          transaction={p.transaction.data}
          error={p.transaction.error}
          quote={quote ?? p.resumed}
          onAnother={p.startOver}
        />
      )}
      {profile.region !== "US" &&
        p.transaction.data?.status === "COMPLETED" &&
        (quote ?? p.resumed)?.destination?.accountId?.startsWith("ExternalAccount:") && (
          <TrustPayee externalAccountId={(quote ?? p.resumed)!.destination!.accountId!} />
        )}
    </section>
  );
}

/**
 * The step waiting for the customer, whichever call asks: the SCA login the demo runs first, the
 * one the service asked for at execute (409 SCA_SESSION_REQUIRED), or the payment's own steps.
 */
function scaPrompt(p: Payment): Pick<PaymentPrompt, "waiting" | "answer" | "resend"> {
  if (p.login.waiting)
    return { waiting: p.login.waiting, answer: p.login.answer, resend: p.login.waiting.resend };
  if (p.execute.pendingChallenge)
    return {
      waiting: p.execute.pendingChallenge,
      answer: p.execute.answer,
      resend: p.execute.resend,
    };
  return { waiting: p.sca.pendingChallenge, answer: p.sca.answer, resend: p.sca.resend };
}
type PaymentPrompt = Parameters<typeof Confirm>[0];

/** The service still wants the SCA login (409 SCA_SESSION_REQUIRED): nothing moved. */
const wantsLogin = (error: unknown) =>
  isSignetError(error) && error.code === "SCA_SESSION_REQUIRED";

function SendErrors({
  payment: p,
  onRequote,
  onLogin,
}: {
  payment: Payment;
  onRequote: () => void;
  /** Logs in to SCA (whatever this browser noted) and sends the same quote again. */
  onLogin: () => void;
}) {
  return (
    <>
      <ErrorNote error={p.login.error} title="Confirming it is you did not finish" />
      <ErrorNote
        error={p.execute.error}
        title={
          p.signed
            ? "The device signed, but the service did not send it"
            : "The payment was not sent"
        }
      />
      {p.execute.isError && (
        <div className="row wrap">
          {wantsLogin(p.execute.error) && (
            <button type="button" className="primary" onClick={onLogin}>
              Confirm it is you
            </button>
          )}
          <button type="button" className="secondary" onClick={onRequote}>
            Get a new quote
          </button>
        </div>
      )}
      <ErrorNote error={p.sca.error} title="The payment was not confirmed" />
      {p.sca.isError && p.awaitingSca && (
        <div className="row wrap">
          <button
            type="button"
            className="secondary"
            onClick={() => void p.confirmFound(wantsLogin(p.sca.error))}
          >
            {wantsLogin(p.sca.error) ? "Confirm it is you" : "Try confirming again"}
          </button>
        </div>
      )}
      <ErrorNote error={p.resumeError} title="Could not find your payment in progress" />
    </>
  );
}
