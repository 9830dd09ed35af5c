// Pay: the balance and test funds, an amount, a quote with its fees, countdown and what this
// phone will sign, the reasons it cannot be sent (more than the balance, expired), the factor
// that confirms an EU payment (SMS or a passkey set up for payments), each SCA step, settlement
// and a receipt; a payment found again (the app was killed) with "Confirm the payment".

import {
  type ConfirmedQuote,
  isSignetError,
  type QuoteJson,
  type QuotePayloadSummary,
  readQuotePayload,
  type ScaLoginFactor,
  type ScaProof,
} from "@signet/core";
import {
  type PendingScaChallenge,
  skipToken,
  useEnrollScaPasskey,
  useScaFactors,
} from "@signet/react";
import { useEffect, useState } from "react";
import { Text, View } from "react-native";
import type { DemoProfile } from "../demoApi";
import { formatMoney, stateInWords, useSecondsLeft } from "../format";
import { Button, Choice, CodeField, ErrorNote, Field, styles } from "../ui";
import { type Payment, usePayment } from "./usePayment";

const PURPOSES: Record<string, string> = {
  CURRENCY_CONVERSION: "Confirm the currency conversion",
  PAYOUT: "Confirm the payout",
  TRANSFER: "Confirm the transfer",
};

/** The one activity a payment signs: a transaction signature (as the service's Quote shows). */
const TRANSFER_ACTIVITY = "ACTIVITY_TYPE_SIGN_TRANSACTION_V2";

/** What the quote's payload would have this phone sign; undefined when it names no wallet step. */
function signingOf(quote: QuoteJson): QuotePayloadSummary | undefined {
  try {
    return readQuotePayload(quote);
  } catch {
    return undefined;
  }
}

/**
 * "Sign and send" only for a payload this phone reads as a transfer (never a raw payload, which
 * is what a privacy change signs) and, where readable, one naming this quote and its amount.
 */
function offersSend(quote: QuoteJson): boolean {
  const signing = signingOf(quote);
  if (signing?.activityType !== TRANSFER_ACTIVITY) return false;
  if (!signing.readable) return true;
  return (
    signing.quoteId === quote.id &&
    (signing.amount === undefined || Number(signing.amount) === quote.totalSendingAmount)
  );
}

/** The service still wants the SCA login (409 SCA_SESSION_REQUIRED): nothing moved. */
const wantsLogin = (error: unknown) =>
  isSignetError(error) && error.code === "SCA_SESSION_REQUIRED";

/** The step's title, in words: the login, then each step of the payment. */
export function scaStepTitle(waiting: PendingScaChallenge): string {
  if (waiting.login) return "Confirm it is you";
  const purpose = waiting.challenge.purpose;
  return `Step ${waiting.step}: ${(purpose && PURPOSES[purpose]) ?? "Confirm the payment"}`;
}

export function Pay({
  profile,
  onSessionEnded,
}: {
  profile: DemoProfile;
  onSessionEnded: () => void;
}) {
  const p = usePayment(profile);
  const [amount, setAmount] = useState("25.00");
  const [factor, setFactor] = useState<ScaLoginFactor>("SMS_OTP");
  const factors = useScaFactors(profile.sca ? {} : skipToken);
  const enroll = useEnrollScaPasskey();
  const hasPasskey = factors.data?.some((f) => f.factor === "PASSKEY") === true;
  const chosen: ScaLoginFactor = factor === "PASSKEY" && hasPasskey ? "PASSKEY" : "SMS_OTP";
  const ended = (p.error as { code?: string } | null)?.code === "WALLET_SESSION_ENDED";
  useEffect(() => {
    if (ended) onSessionEnded();
  }, [ended, onSessionEnded]);
  const quote = p.quote?.quote;
  const left = useSecondsLeft(quote && !p.execute.isSuccess ? quote.expiresAt : undefined);
  const expired = left === 0;
  const over =
    quote !== undefined && p.balance !== undefined && (quote.totalSendingAmount ?? 0) > p.balance;
  // The login the app runs first, the one the service asked for at execute (409
  // SCA_SESSION_REQUIRED), or the payment's own steps: one prompt for all of them.
  const prompt = p.login.waiting
    ? { waiting: p.login.waiting, answer: p.login.answer }
    : p.execute.pendingChallenge
      ? { waiting: p.execute.pendingChallenge, answer: p.execute.answer }
      : { waiting: p.sca.pendingChallenge, answer: p.sca.answer };
  const readable = quote ? offersSend(quote) : false;
  return (
    <View style={{ gap: 10 }}>
      <Text style={styles.muted}>Wallet balance</Text>
      <Text style={styles.big} testID="balance">
        {p.accounts.isPending ? "…" : formatMoney(p.balance, p.currency)}
      </Text>
      <Button
        title={p.busy === "fund" ? "Adding…" : "Add 500.00 test funds"}
        kind="secondary"
        // Funds are counted in the currency's smallest unit: until the wallet's currency is
        // known, 500.00 cannot be converted (a guess of 2 decimals funded 0.05 of a 6-decimal one).
        disabled={p.busy !== undefined || p.currency === undefined}
        onPress={() => void p.fund()}
      />
      <Found payment={p} />
      <Field
        label={`Amount to send to Demo Payee (${p.currency?.code ?? "USD"})`}
        value={amount}
        onChangeText={(typed) => {
          setAmount(typed);
          p.discard();
        }}
        keyboardType="decimal-pad"
      />
      {profile.sca ? (
        <>
          <Choice
            label="Confirm EU payments with"
            value={chosen}
            onChange={setFactor}
            options={[
              { value: "SMS_OTP", title: "SMS code" },
              {
                value: "PASSKEY",
                title: hasPasskey ? "Passkey" : "Passkey (set one up first)",
                disabled: !hasPasskey,
              },
            ]}
          />
          {!hasPasskey && factors.isSuccess ? (
            <Button
              title={enroll.isPending ? "Waiting for your phone…" : "Set up a passkey for payments"}
              kind="secondary"
              disabled={enroll.isPending}
              onPress={() =>
                enroll.mutateAsync({}).then(
                  () => setFactor("PASSKEY"),
                  () => undefined,
                )
              }
            />
          ) : null}
          <ErrorNote error={enroll.error} title="Could not set up the passkey for payments" />
        </>
      ) : null}
      <Button
        title={p.busy === "quote" ? "Quoting…" : "Get a quote"}
        disabled={p.busy !== undefined || p.accounts.isPending}
        onPress={() => p.requestQuote(amount)}
      />
      <ErrorNote error={p.error} title="Could not prepare the payment" />
      {quote ? <Quote quote={quote} left={p.execute.isSuccess ? undefined : left} /> : null}
      {quote && !p.execute.isSuccess ? (
        <>
          {over ? (
            <Text accessibilityRole="alert" style={styles.error} testID="over-balance">
              More than the wallet holds ({formatMoney(p.balance, p.currency)}). Add test funds or
              lower the amount, then get a new quote. Nothing was signed.
            </Text>
          ) : null}
          {expired ? (
            <Text accessibilityRole="alert" style={styles.error}>
              This quote expired before it was sent. Nothing was signed. Get a new quote.
            </Text>
          ) : null}
          {!readable ? (
            <Text accessibilityRole="alert" style={styles.error} testID="payload-differs">
              What this phone would be asked to sign is not a transfer of this quote, so it will not
              sign it. Get a new quote.
            </Text>
          ) : null}
          <Button
            title={p.execute.isPending || p.busy === "login" ? "Sending…" : "Sign and send"}
            disabled={p.execute.isPending || p.busy !== undefined || over || expired || !readable}
            onPress={() => void p.send(quote, chosen)}
          />
        </>
      ) : null}
      <ErrorNote error={p.login.error} title="Confirming it is you did not finish" />
      <ErrorNote error={p.execute.error} title="The payment was not sent" />
      {quote && wantsLogin(p.execute.error) ? (
        <Button title="Confirm it is you" onPress={() => void p.send(quote, chosen, true)} />
      ) : null}
      <ErrorNote error={p.sca.error} title="The payment was not confirmed" />
      {p.awaitingSca && wantsLogin(p.sca.error) ? (
        <Button title="Confirm it is you" onPress={() => void p.confirmFound(true)} />
      ) : null}
      {prompt.waiting ? <Step waiting={prompt.waiting} answer={prompt.answer} /> : null}
      {p.transactionId ? <Outcome payment={p} quote={quote ?? p.resumed} /> : null}
    </View>
  );
}

function Quote({ quote, left }: { quote: QuoteJson; left: number | undefined }) {
  const signing = signingOf(quote);
  return (
    <View style={styles.note} testID="quote">
      <Text>You send {formatMoney(quote.totalSendingAmount, quote.sendingCurrency)}</Text>
      <Text>Fees {formatMoney(quote.feesIncluded ?? 0, quote.sendingCurrency)}</Text>
      <Text>They receive {formatMoney(quote.totalReceivingAmount, quote.receivingCurrency)}</Text>
      {left !== undefined ? (
        <Text testID="quote-left">
          {left === 0 ? "Quote expired" : `Quote valid for ${left} s`}
        </Text>
      ) : null}
      {signing ? (
        <Text testID="signing">
          {signing.activityType === TRANSFER_ACTIVITY
            ? `This phone will sign: a transfer${
                signing.readable && signing.amount !== undefined
                  ? ` of ${formatMoney(Number(signing.amount), quote.sendingCurrency)}`
                  : ""
              } from wallet ${signing.wallet ?? "—"}`
            : "This phone would be asked to sign something that is not a transfer."}
        </Text>
      ) : null}
    </View>
  );
}

function Step({
  waiting,
  answer,
}: {
  waiting: PendingScaChallenge;
  answer: (proof: ScaProof) => void;
}) {
  const [code, setCode] = useState("");
  const send = (digits: string) => {
    answer({ code: digits });
    setCode("");
  };
  return (
    <View style={styles.section}>
      <Text accessibilityRole="header" style={styles.heading} testID="sca-step">
        {scaStepTitle(waiting)}
      </Text>
      <PromptPayment quote={waiting.quote} />
      <ErrorNote error={waiting.error} title="That confirmation was not accepted" />
      {waiting.challenge.factor === "PASSKEY" ? (
        <Button title="Confirm with your passkey" onPress={() => answer({ passkey: true })} />
      ) : (
        <CodeField
          label="SMS code (sandbox: 123456)"
          value={code}
          onChange={setCode}
          onComplete={send}
        />
      )}
    </View>
  );
}

/**
 * The payment a prompt confirms: its amount and payee as the customer confirmed them (the
 * prompt's own quote), beside every code field and passkey button, the login's too.
 */
function PromptPayment({ quote }: { quote: ConfirmedQuote | undefined }) {
  if (!quote)
    return (
      <Text accessibilityRole="alert" style={styles.error} testID="sca-payment">
        This confirmation names no payment you confirmed. Do not answer it unless you are paying
        now.
      </Text>
    );
  const converts = quote.receivingCurrency?.code !== quote.sendingCurrency?.code;
  return (
    <View testID="sca-payment" accessibilityLabel="The payment you confirm">
      <Text>Amount {formatMoney(quote.totalSendingAmount, quote.sendingCurrency)}</Text>
      {converts ? (
        <Text>They receive {formatMoney(quote.totalReceivingAmount, quote.receivingCurrency)}</Text>
      ) : null}
      <Text selectable>To {quote.destination?.accountId ?? "—"}</Text>
    </View>
  );
}

function Found({ payment: p }: { payment: Payment }) {
  if (!p.resumed || p.execute.data !== undefined || p.settled) return null;
  const amount = formatMoney(p.resumed.totalSendingAmount, p.resumed.sendingCurrency);
  const asking =
    p.sca.pendingChallenge !== undefined ||
    p.login.waiting !== undefined ||
    p.execute.pendingChallenge !== undefined;
  return (
    <View style={styles.note} testID="resumed">
      <Text>
        {p.awaitingSca
          ? `Your payment of ${amount} to Demo Payee waits for your confirmation. The amount is held until you confirm it; the service offers no way to cancel it.`
          : `Your payment of ${amount} to Demo Payee is on its way.`}
      </Text>
      {p.awaitingSca && !asking && !p.sca.isPending ? (
        <Button title="Confirm the payment" onPress={() => void p.confirmFound()} />
      ) : null}
    </View>
  );
}

function Outcome({ payment: p, quote }: { payment: Payment; quote: QuoteJson | undefined }) {
  const tx = p.transaction.data;
  if (!tx)
    return (
      <>
        <Text accessibilityRole="text">Settling with the bank…</Text>
        <ErrorNote error={p.transaction.error} title="Could not follow the payment" />
      </>
    );
  return (
    <View style={styles.note} testID="receipt">
      <Text accessibilityRole="header" style={styles.heading}>
        {p.settled ? "Payment sent" : `The payment ended: ${stateInWords(tx.status)}`}
      </Text>
      <Text testID="payment-settled">{stateInWords(tx.status)}</Text>
      <Text>
        You sent {formatMoney(quote?.totalSendingAmount, quote?.sendingCurrency)} to Demo Payee
      </Text>
      <Text>Fees {formatMoney(quote?.feesIncluded ?? 0, quote?.sendingCurrency)}</Text>
      <Text>
        {typeof tx.settledAt === "string"
          ? `Settled ${new Date(tx.settledAt).toLocaleString()}`
          : ""}
      </Text>
      <Text selectable>Transaction {tx.id}</Text>
      <Button title="Send another payment" kind="secondary" onPress={p.startOver} />
    </View>
  );
}
