// The app's sign-in by email code and its payment (quote → execute → SCA for an EU customer →
// settle), as plain functions the screens call. No React and no React Native import: the same
// module runs in Hermes in packages/core/test/hermes-mobile.test.ts, bundled with this app's
// Metro configuration, against the demo server over real HTTP.
//
// The Signet calls come in as `WalletCalls`: the screens pass their @signet/react hooks'
// `mutateAsync` (the hooks keep the call's state and show each SCA challenge), code without React
// passes `walletCalls(client, …)`, core's actions on the client: the very functions the hooks call.
import {
  type AuthorizeQuoteParameters,
  type AuthorizeQuoteReturnType,
  authorizeQuote,
  type ExecuteQuoteParameters,
  type ExecuteQuoteReturnType,
  executeQuote,
  type QuoteJson,
  type RequestOtpParameters,
  type RequestOtpReturnType,
  requestOtp,
  type SignetClient,
  type TransactionJson,
  type VerifyOtpParameters,
  type VerifyOtpReturnType,
  verifyOtp,
  type WaitForTransactionParameters,
  waitForTransaction,
} from "@signet/core";
import { type DemoConfig, type DemoProfile, demoApi } from "./demoApi";

/** The Signet calls a journey makes; `authorizeQuote` asks the customer for each answer itself. */
export type WalletCalls = {
  requestOtp(variables: RequestOtpParameters): Promise<RequestOtpReturnType>;
  verifyOtp(variables: VerifyOtpParameters): Promise<VerifyOtpReturnType>;
  executeQuote(variables: ExecuteQuoteParameters): Promise<ExecuteQuoteReturnType>;
  authorizeQuote(
    variables: Omit<AuthorizeQuoteParameters, "onChallenge">,
  ): Promise<AuthorizeQuoteReturnType>;
};

/**
 * Core's actions on `client`, with `onChallenge` as the customer's way of answering SCA (the
 * screens answer through `useAuthorizeQuote` instead).
 */
export function walletCalls(
  client: SignetClient,
  sca: Pick<AuthorizeQuoteParameters, "onChallenge">,
): WalletCalls {
  return {
    requestOtp: (variables) => requestOtp(client, variables),
    verifyOtp: (variables) => verifyOtp(client, variables),
    executeQuote: (variables) => executeQuote(client, variables),
    authorizeQuote: (variables) => authorizeQuote(client, { ...variables, ...sca }),
  };
}

/** A journey step the app refuses before any request, with words for the screen. */
export class JourneyError extends Error {
  override readonly name = "JourneyError";
  constructor(
    readonly code: "NO_EMAIL_CREDENTIAL" | "INVALID_AMOUNT" | "INVALID_EMAIL" | "NOT_SENT",
    message: string,
  ) {
    super(message);
  }
}

/**
 * What the app loads at start: the demo server's configuration (for the Signet client) and who is
 * signed in to the demo (its cookie), or null.
 */
export async function loadWallet(): Promise<{ demo: DemoConfig; profile: DemoProfile | null }> {
  const [demo, profile] = await Promise.all([demoApi.config(), demoApi.me()]);
  return { demo, profile };
}

/** The demo's own login (the integrator's, not Signet's): the email and region as typed. */
export function logIn(entry: { email: string; region: string }): Promise<DemoProfile> {
  return demoApi.signIn(entry.email.trim(), entry.region.trim().toUpperCase());
}

/** The wallet's email credential, which the code is sent to; undefined when it has none. */
export const emailCredentialOf = (profile: DemoProfile) =>
  profile.credentials.find((c) => c.type === "EMAIL_OTP");

/** Sign-in, step 1: a one-time code sent to the wallet's email. */
export function sendEmailCode(
  calls: Pick<WalletCalls, "requestOtp">,
  profile: DemoProfile,
): Promise<RequestOtpReturnType> {
  const credential = emailCredentialOf(profile);
  if (!credential)
    return Promise.reject(
      new JourneyError("NO_EMAIL_CREDENTIAL", "This wallet has no email to send a code to."),
    );
  return calls.requestOtp({ credentialId: credential.id });
}

/** Sign-in, step 2: the code the customer typed; the session key is made and kept on the phone. */
export function verifyEmailCode(
  calls: Pick<WalletCalls, "verifyOtp">,
  challenge: RequestOtpReturnType,
  code: string,
): Promise<VerifyOtpReturnType> {
  return calls.verifyOtp({ ...challenge, otpCode: code.trim() });
}

/**
 * An amount as typed ("5", "12.50", or "12,50" with a decimal comma) in the wallet currency's
 * smallest unit (`decimals` places: USDB has more than cents); NaN when it is not a positive amount.
 */
export function paymentUnits(amount: string, decimals = 2): number {
  const text = amount.trim().replace(",", ".");
  if (!/^\d+(\.\d+)?$/.test(text)) return Number.NaN;
  const units = Math.round(Number(text) * 10 ** decimals);
  return units > 0 && Number.isSafeInteger(units) ? units : Number.NaN;
}

/**
 * A quote for `units` from the demo server. It funds nothing: a wallet short of money gets a quote
 * it cannot send, which the screen says (funding is the customer's own "Add test funds").
 */
export async function quotePayment(units: number, sessionId?: string): Promise<QuoteJson> {
  if (!(units > 0))
    throw new JourneyError("INVALID_AMOUNT", "Type an amount above zero, such as 5.00.");
  return demoApi.quote(units, sessionId);
}

/** Sandbox test funds into the wallet, in its currency's smallest unit. */
export async function fundWallet(units: number, sessionId?: string): Promise<void> {
  await demoApi.fund(units, sessionId);
}

/**
 * Signs and sends the payment: execute (an EU customer names SMS as the SCA factor, the service's
 * default), then, when the service holds it for Strong Customer Authentication, its release by
 * each challenge's answer (`calls.authorizeQuote` asks the customer). Resolves with the quote
 * whose transfer has started.
 */
export async function sendPayment(
  calls: Pick<WalletCalls, "executeQuote" | "authorizeQuote">,
  payment: { quote: QuoteJson; sca: boolean },
): Promise<AuthorizeQuoteReturnType> {
  const executed = await calls.executeQuote({
    quote: payment.quote,
    ...(payment.sca ? { scaFactor: "SMS_OTP" as const } : {}),
  });
  if (executed.status !== "PENDING_AUTHORIZATION") return executed;
  return calls.authorizeQuote({ quote: executed });
}

/**
 * Waits for the started transfer to settle (`COMPLETED`, or the status it ended in).
 * @throws JourneyError `NOT_SENT` when the quote carries no transaction; core's typed errors
 * (`PROCESSING_TIMEOUT`, `ABORTED`, …) as `waitForTransaction` throws them.
 */
export function settlePayment(
  client: SignetClient,
  sent: AuthorizeQuoteReturnType,
  options: Omit<WaitForTransactionParameters, "transactionId"> = {},
): Promise<TransactionJson> {
  if (!sent.transactionId)
    return Promise.reject(new JourneyError("NOT_SENT", "The payment has no transfer to follow."));
  return waitForTransaction(client, { ...options, transactionId: sent.transactionId });
}

/** What the SCA step asks the customer, for the screen. */
export function scaPrompt(waiting: { challenge: { purpose?: string | null }; login: boolean }) {
  return `${
    waiting.login
      ? "Confirm it is you (your bank's login to payments)"
      : `Confirm the payment (${waiting.challenge.purpose ?? "SCA"})`
  }: the code sent by SMS (123456 in the sandbox).`;
}
