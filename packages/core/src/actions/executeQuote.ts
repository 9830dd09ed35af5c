// docs/protocol.md §2 (quote execute): one signed request, signature header only, with an
// Idempotency-Key generated once per execute and reused on every retry of it. §9: a 200 whose
// quote is PENDING_AUTHORIZATION has moved nothing yet; it is returned for authorizeQuote.

import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import {
  assertArgument,
  isSignetError,
  SignetError,
  type SignetErrorOf,
} from "../errors/errors.js";
import { executeQuotePayload } from "../payloads/executeQuotePayload.js";
import { quotePayloadToSign } from "../payloads/quotePayload.js";
import {
  assertSameQuote,
  confirmedQuote,
  confirmQuote,
  noteChallenge,
  parseExecutedQuote,
} from "../sca/scaLedger.js";
import type { ScaChallengeContext, ScaProof } from "../sca/scaProof.js";
import type { CallOptions } from "../session/events.js";
import { expiredSessionError, requireLiveSession } from "../session/expiry/sessionExpiry.js";
import { signWithSession } from "../session/sessionSigner.js";
import { generateIdempotencyKey } from "../transport/idempotencyKey.js";
import type {
  ExecutedQuoteJson,
  PendingAuthorizationQuoteJson,
  QuoteJson,
  ScaChallengeJson,
} from "../transport/wire.js";
import { scaLogin } from "./scaLogin.js";

export type ExecuteQuoteParameters = CallOptions & {
  /** The quote as created (it carries the payload to sign). */
  quote: QuoteJson;
  /**
   * The `Idempotency-Key`. Default: generated once per call, reused on its retries and not
   * reported, so to resume an execute whose outcome stayed unknown (`NETWORK`, a timeout),
   * pass your own (`crypto.randomUUID()`) and call again with the same value.
   */
  idempotencyKey?: string | undefined;
  /**
   * For a customer in an SCA region: the factor the payment's confirmation challenge should use,
   * `"SMS_OTP"` (the service's default) or `"PASSKEY"` (a passkey enrolled with
   * `enrollScaPasskey`). Sent as the body `{ scaFactor }`; left out, no body is sent. Ignored by
   * the service for other customers.
   */
  scaFactor?: "SMS_OTP" | "PASSKEY" | undefined;
  /**
   * For a customer in an SCA region: when the service refuses the execute for want of the
   * customer's SCA login (409 `SCA_SESSION_REQUIRED`), the login runs through this callback, as
   * in `authorizeQuote` (`context.login` is true, `context.quote` the quote as given here), and
   * the execute is sent again, once, under the same `Idempotency-Key`. Left out, the 409 is
   * passed on.
   */
  onChallenge?:
    | ((challenge: ScaChallengeJson, context: ScaChallengeContext) => ScaProof | Promise<ScaProof>)
    | undefined;
  /** False passes `SCA_SESSION_REQUIRED` on even with `onChallenge`. Default true. */
  scaLogin?: boolean | undefined;
  /** The SCA login's passkey origin. Default: the one in the authenticator's `clientDataJSON`. */
  origin?: string | undefined;
  /** The SCA login's end-user address; usually the relay's to set (`createRelay`). */
  endUserIpAddress?: string | undefined;
  /** The SCA login's passkey prompt time limit in ms, when the options give none. Default 60 000. */
  timeoutMs?: number | undefined;
};
/**
 * The quote after execute: either its transfer started (`PROCESSING`, with `transactionId`), or
 * it waits for Strong Customer Authentication (`PENDING_AUTHORIZATION`, with `scaChallenge`:
 * pass it to `authorizeQuote`). Narrow on `status`.
 */
export type ExecuteQuoteReturnType = ExecutedQuoteJson | PendingAuthorizationQuoteJson;
export type ExecuteQuoteErrorType = SignetErrorOf<ActionErrorCode<"executeQuote">>;

/**
 * Executes a quote from the user's wallet: stamps its `payloadToSign` with a held session of the
 * source wallet and sends it once with an `Idempotency-Key`; network failures and 5xx are retried
 * with the same key and stamp, so it can never pay twice.
 *
 * For a customer in a region that requires Strong Customer Authentication (the EU and EEA), the
 * answer is the quote in `PENDING_AUTHORIZATION` with an `scaChallenge`: nothing has moved yet.
 * Hand it to `authorizeQuote` (never execute it again: the service refuses that with 409).
 * Otherwise the transfer has started: follow it with `waitForTransaction`.
 *
 * A service that refuses the execute itself for want of the customer's SCA login (409
 * `SCA_SESSION_REQUIRED`: the session is missing or past its `sessionExpiresAt`) has moved
 * nothing: with `onChallenge`, the SCA login runs (with the PASSKEY factor when `scaFactor` is
 * `"PASSKEY"`, else SMS) and the execute is sent again, once, under the same `Idempotency-Key`, so
 * it still pays at most once. A failed login ends the call with its own error.
 *
 * The session is judged first, as the service authenticates before it looks at the quote: a held
 * session that has expired on the service's clock (a device that slept) ends the call in
 * `SESSION_EXPIRED` (sign in again), whatever the quote's state but executed; with a live
 * session, a quote past its `expiresAt` ends it in `QUOTE_EXPIRED` before anything is signed.
 *
 * @throws {SignetError} `NO_SESSION`, `SESSION_EXPIRED`, `QUOTE_EXPIRED`, `CONFLICT`-class 409s (already executed, expired), `SCA_SESSION_REQUIRED` (without `onChallenge`), the SCA login's errors (`ACCOUNT_LOCKED`, `SCA_LOGIN_FAILED`, `WEBAUTHN_*`, …), `WALLET_SIGNATURE_INVALID`, `NETWORK`, `MALFORMED_RESPONSE` (a pending quote without its challenge, or an answer about another quote).
 * @example
 * ```ts
 * let executed = await executeQuote(client, { quote });
 * if (executed.status === "PENDING_AUTHORIZATION") {
 *   executed = await authorizeQuote(client, { quote: executed, onChallenge: askTheCustomer });
 * }
 * const transaction = await waitForTransaction(client, { transactionId: executed.transactionId! });
 * ```
 */
export async function executeQuote(
  client: SignetClient,
  parameters: ExecuteQuoteParameters,
): Promise<ExecuteQuoteReturnType> {
  const { quote, idempotencyKey, scaFactor } = assertCall(client, parameters);
  assertServiceId("quote.id", quote?.id, "Quote");
  // TOTP cannot carry the dynamic linking a payment needs (the OpenAPI's ExecuteQuoteRequest).
  assertArgument(
    scaFactor === undefined || scaFactor === "SMS_OTP" || scaFactor === "PASSKEY",
    "scaFactor",
    '"SMS_OTP" or "PASSKEY"',
    String(scaFactor),
  );
  const accountId = quote.source?.accountId;
  assertServiceId("quote.source.accountId", accountId, "InternalAccount");
  const payloadToSign = quotePayloadToSign(quote);
  const expiresAt = Date.parse(quote.expiresAt ?? "");
  assertArgument(
    Number.isFinite(expiresAt),
    "quote.expiresAt",
    "an RFC 3339 date-time",
    String(quote.expiresAt),
  );
  const session = await requireLiveSession(client, accountId);
  // docs/protocol.md §11: a quote past its expiry is never signed, whatever the service would say.
  if (expiresAt <= client.clock.now()) {
    throw new SignetError("QUOTE_EXPIRED", "The quote expired: get a new one", {
      details: { quoteId: quote.id },
    });
  }
  // The quote as the user confirmed it: its SCA prompts show it, its answers must be about it.
  confirmQuote(client, quote);
  const confirmed = confirmedQuote(client, quote);
  // One key for this call, the send after an SCA login included: it can never pay twice.
  const key = idempotencyKey ?? generateIdempotencyKey(client.crypto.backend.randomBytes);
  const send = () =>
    client
      .signed(
        {
          operation: "executeQuote",
          ...at(QUOTE_EXECUTE, [quote.id]),
          payloadToSign,
          ...(scaFactor ? { body: JSON.stringify({ scaFactor }) } : {}),
          idempotencyKey: key,
          sign: signWithSession(client, session),
          checkPayload: executeQuotePayload(client, quote),
          parseBody: (answer) => {
            const executed = parseExecutedQuote(answer);
            assertSameQuote(executed, confirmed);
            noteChallenge(client, quote.id, executed.scaChallenge);
            return executed;
          },
        },
        parameters,
      )
      .catch(async (error: unknown) => {
        throw await expiredSessionError(client, error, session, parameters.signal);
      });
  const { onChallenge } = parameters;
  const { body } = await send().catch(async (error: unknown) => {
    // docs/protocol.md §9: refused for want of the SCA login, nothing moved: log in, send again.
    const login =
      isSignetError(error) &&
      error.code === "SCA_SESSION_REQUIRED" &&
      typeof onChallenge === "function" &&
      parameters.scaLogin !== false;
    if (!login) throw error;
    // The call's origin, end-user address, time limit, signal and events go to the login as given.
    await scaLogin(client, {
      ...parameters,
      factor: scaFactor === "PASSKEY" ? "PASSKEY" : "SMS_OTP",
      onChallenge: (challenge, context) => onChallenge(challenge, { ...context, quote: confirmed }),
    });
    return send();
  });
  return body;
}

/** `POST /quotes/{Quote}/execute`. */
export const QUOTE_EXECUTE = {
  method: "POST",
  path: "/quotes/{Quote}/execute",
  expectedStatus: 200,
  mode: "direct",
} as const satisfies ActionRoute;

/** executeQuote's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const executeQuoteRow = {
  chunk: "payments",
  summary:
    "finds the `EMBEDDED_WALLET` instruction by type, stamps it, executes once with an `Idempotency-Key` reused on every retry (a quote waiting for SCA comes back `PENDING_AUTHORIZATION`, typed)",
  parameters:
    '`{ quote, idempotencyKey?, scaFactor?: "SMS_OTP" | "PASSKEY", onChallenge?, scaLogin?, origin?, endUserIpAddress?, timeoutMs? }` (the last five for an SCA login the service asks for at execute)',
  resolvesTo: "`ExecutedQuoteJson | PendingAuthorizationQuoteJson`",
  requests: [
    {
      route: QUOTE_EXECUTE,
      signed: {
        signer: "session",
        check: executeQuotePayload,
        signedBy:
          "a session of a verified credential of the source wallet; **signature only: no 202, no `Request-Id`**, optional `Idempotency-Key`",
      },
    },
  ],
  // The SCA login it runs when the service refuses the execute for want of one.
  runs: ["scaLogin"],
  errors: {
    undocumented: ["INSUFFICIENT_FUNDS"],
    client: [SESSION_SIGNED_ERRORS, "QUOTE_EXPIRED", "SCA_LOGIN_FAILED", "SCA_ORIGIN_NOT_ALLOWED"],
    passkey: true,
  },
  hook: {
    kind: "mutation",
    name: "useExecuteQuote",
    invalidates: ["quotes", "balances", "transactions"],
  },
} as const satisfies ActionSourceRow;
