// docs/protocol.md §2 (quote execute): one signed request, signature header only, with an
// Idempotency-Key generated once per execute and reused on every retry of it. §9: a 200 whose
// quote is PENDING_AUTHORIZATION has moved nothing yet; it is returned for authorizeQuote.

import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import { assertArgument, SignetError, type SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import { signWithSession } from "../session/sessionSigner.js";
import { expectShape } from "../transport/responseShape.js";
import type { ExecutedQuoteJson, PendingAuthorizationQuoteJson, QuoteJson } from "../wire.js";
import type { ActionErrorCode } from "./errorCodes.js";
import { executeQuotePayload, quotePayloadToSign } from "./quotePayload.js";
import { expiredSessionError, requireLiveSession } from "./sessionExpiry.js";

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
 * The session is judged first, as the service authenticates before it looks at the quote: a held
 * session that has expired on the service's clock (a device that slept) ends the call in
 * `SESSION_EXPIRED` (sign in again), whatever the quote's state but executed; with a live
 * session, a quote past its `expiresAt` ends it in `QUOTE_EXPIRED` before anything is signed.
 *
 * @throws {SignetError} `NO_SESSION`, `SESSION_EXPIRED`, `QUOTE_EXPIRED`, `CONFLICT`-class 409s (already executed, expired), `WALLET_SIGNATURE_INVALID`, `NETWORK`, `MALFORMED_RESPONSE` (a pending quote without its challenge).
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
  const { body } = await client
    .signed(
      {
        operation: "executeQuote",
        mode: "direct",
        method: "POST",
        path: `/quotes/${quote.id}/execute`,
        payloadToSign,
        ...(scaFactor ? { body: JSON.stringify({ scaFactor }) } : {}),
        ...(idempotencyKey ? { idempotencyKey } : {}),
        expectedStatus: 200,
        sign: signWithSession(client, session),
        checkPayload: executeQuotePayload(client, quote),
        parseBody: (answer) => {
          const executed = parseExecutedQuote(answer);
          if (executed.id !== quote.id) {
            throw new SignetError("MALFORMED_RESPONSE", "The answer is about another quote", {
              details: { quoteId: quote.id },
            });
          }
          return executed;
        },
      },
      parameters,
    )
    .catch(async (error: unknown) => {
      throw await expiredSessionError(client, error, session, parameters.signal);
    });
  return body;
}

/**
 * Reads a quote answer of execute or authorize: one that is `PENDING_AUTHORIZATION` must carry
 * the challenge to satisfy (docs/protocol.md §9), and one that is not must not.
 * @throws {SignetError} `MALFORMED_RESPONSE`.
 */
export function parseExecutedQuote(answer: unknown): ExecuteQuoteReturnType {
  const quote = expectShape<QuoteJson>(answer, ["id", "status"], "Quote");
  if (quote.status !== "PENDING_AUTHORIZATION") return quote as ExecutedQuoteJson;
  expectShape(quote.scaChallenge, ["id", "expiresAt", "factor"], "scaChallenge");
  return quote as PendingAuthorizationQuoteJson;
}
