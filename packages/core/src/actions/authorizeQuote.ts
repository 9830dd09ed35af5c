// docs/protocol.md §9 (Strong Customer Authentication): a quote that execute left in
// PENDING_AUTHORIZATION is released by authorizing each challenge it carries, in turn, with an SMS
// code or a passkey assertion, until it leaves that status. Authorize never executes the quote.

import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS, SCA_PROOF_ERRORS } from "../errors/errorGroups.js";
import {
  assertArgument,
  isSignetError,
  SignetError,
  type SignetErrorOf,
} from "../errors/errors.js";
import { bindChallenge, type ScaProofSite } from "../sca/scaBinding.js";
import {
  assertSameQuote,
  confirmedQuote,
  noteChallenge,
  parseExecutedQuote,
} from "../sca/scaLedger.js";
import {
  MAX_REFUSED_ANSWERS,
  type ScaChallengeContext,
  type ScaProof,
  scaProofFields,
} from "../sca/scaProof.js";
import type { CallOptions } from "../session/events.js";
import { abortedError } from "../transport/abort.js";
import { resolveRetryPolicy } from "../transport/retry.js";
import type {
  ExecutedQuoteJson,
  PendingAuthorizationQuoteJson,
  ScaChallengeJson,
} from "../transport/wire.js";
import { QUOTE_GET } from "./getQuote.js";
import { resendQuoteAuthorization } from "./resendQuoteAuthorization.js";
import { scaLogin } from "./scaLogin.js";

export type { ConfirmedQuote, ScaChallengeContext, ScaProof } from "../sca/scaProof.js";

export type AuthorizeQuoteParameters = CallOptions & {
  /** The quote in `PENDING_AUTHORIZATION`, as `executeQuote` or `getQuote` returned it. */
  quote: PendingAuthorizationQuoteJson;
  /**
   * Called once per challenge, in order, and again for the same challenge after a refused
   * answer. Return `{ code }` for `SMS_OTP` and `TOTP`, `{ passkey: true }` for `PASSKEY` (resolve
   * it from the customer's tap: the passkey prompt opens right after). Show `challenge.purpose`
   * as the step's title, and `context.quote`'s amount and payee beside it (the payment as the
   * user confirmed it); never branch on `purpose`. Throw to give up: the error is passed on as
   * thrown.
   */
  onChallenge: (
    challenge: ScaChallengeJson,
    context: ScaChallengeContext,
  ) => ScaProof | Promise<ScaProof>;
  /**
   * The origin the passkey ceremony ran on. Default: the one the authenticator wrote into its
   * `clientDataJSON`, which is the page's origin in a browser.
   */
  origin?: string | undefined;
  /**
   * The end user's IP address, for the service's risk checks. Usually left out here and filled
   * in by the relay (`createRelay({ endUserIpAddress })`), which sees the user's connection.
   */
  endUserIpAddress?: string | undefined;
  /** Passkey prompt time limit in ms, when the challenge's options give none. Default 60 000. */
  timeoutMs?: number | undefined;
  /**
   * When the service answers `SCA_SESSION_REQUIRED` (the customer's SCA login is missing or
   * lapsed), run the SCA login through `onChallenge` (its `context.login` is true, the
   * challenge's `purpose` is `"SCA_LOGIN"`), then send the same answer again, once. Default
   * true; false passes the error on.
   */
  scaLogin?: boolean | undefined;
};

/** The quote once no authorization is pending: its transfer has started. */
export type AuthorizeQuoteReturnType = ExecutedQuoteJson;

export type AuthorizeQuoteErrorType = SignetErrorOf<ActionErrorCode<"authorizeQuote">>;

/**
 * Authorizes a quote that waits for Strong Customer Authentication (customers in the EU and
 * EEA): answers each `scaChallenge` with what `onChallenge` returns, an SMS code or a passkey
 * assertion made through the client's WebAuthn provider from the challenge's
 * `passkeyAssertionOptions` (sent with its origin), and repeats while the quote stays
 * `PENDING_AUTHORIZATION` (a cross-currency send asks twice: the conversion, then the payout).
 * Each answer is sent once, never retried on its own, and the quote is never executed again.
 * Follow with `waitForTransaction`.
 *
 * An answer left unanswered, or answered 5xx (the relay's 502/504 `UPSTREAM_*` included), may
 * have been taken: the quote is read (per challenge, at least once and as often as the retry
 * policy's `retryCount` allows). Released, it is returned; at its next challenge, that
 * one is asked for; `EXPIRED` is `QUOTE_EXPIRED` and `FAILED` is `QUOTE_FAILED`; still waiting
 * for this challenge, `onChallenge` is asked again with `context.error` (the same proof is never
 * sent again by itself). A proof refused (400, 409) after that read reads the quote again, as a
 * first answer still at work may have released it meanwhile.
 *
 * Each proof is bound to this quote where anything binds it (docs/protocol.md §11): a challenge
 * this client has seen come with another quote or an SCA login, or with other passkey options,
 * is refused before the customer is asked (`PAYLOAD_MISMATCH`), as is a passkey ceremony by one of
 * the wallet's sign-in passkeys; every answer, and every re-read, must be about this quote (its
 * id, amount and payee), else `MALFORMED_RESPONSE` (`details.quoteId`, `details.field`).
 *
 * A refused answer (400) asks `onChallenge` again with `context.error`. `SCA_SESSION_REQUIRED`
 * (409: the customer's SCA login is missing or lapsed) runs the SCA login (`scaLogin`) through
 * the same `onChallenge`, with the challenge's factor (SMS unless it is a passkey's), and sends
 * the answer again, once. Other refusals end the call: `CONFLICT` (409: nothing to authorize, or not an SCA
 * region), `ACCOUNT_LOCKED` (423: `details.lockedUntil`, `details.failedAttempts`,
 * `details.suspended`), `RATE_LIMITED` (429: `details.retryAfterMs`).
 *
 * @throws {SignetError} the codes above, `QUOTE_EXPIRED`, `QUOTE_FAILED`, `CHALLENGE_EXPIRED`, `PAYLOAD_MISMATCH`, `SCA_ORIGIN_NOT_ALLOWED`, `MALFORMED_RESPONSE`, `WEBAUTHN_*`, `QUOTE_NOT_FOUND`, `NETWORK`, `INVALID_ARGUMENT`.
 * @example
 * ```ts
 * const executed = await executeQuote(client, { quote });
 * const released =
 *   executed.status === "PENDING_AUTHORIZATION"
 *     ? await authorizeQuote(client, {
 *         quote: executed,
 *         onChallenge: (challenge, { error }) =>
 *           challenge.factor === "PASSKEY" ? ui.waitForTap(challenge.purpose) : ui.askCode(challenge.purpose, error),
 *       })
 *     : executed;
 * await waitForTransaction(client, { transactionId: released.transactionId! });
 * ```
 */
export async function authorizeQuote(
  client: SignetClient,
  parameters: AuthorizeQuoteParameters,
): Promise<AuthorizeQuoteReturnType> {
  const { quote, onChallenge } = assertCall(client, parameters);
  assertServiceId("quote.id", quote?.id, "Quote");
  assertArgument(
    typeof onChallenge === "function",
    "onChallenge",
    "a function",
    typeof onChallenge,
  );
  const quoteId = quote.id;
  // The payment as the user confirmed it: every answer must be about it, every prompt shows it.
  const confirmed = confirmedQuote(client, quote);
  const ask: AuthorizeQuoteParameters["onChallenge"] = (challenge, context) =>
    onChallenge(challenge, { ...context, quote: confirmed });
  /** A quote answer, or a re-read: about this quote, and its challenge noted as this quote's. */
  const read = (answer: unknown) => {
    const parsed = parseExecutedQuote(answer);
    assertSameQuote(parsed, confirmed);
    noteChallenge(client, quoteId, parsed.scaChallenge);
    return parsed;
  };
  let current = read(quote);
  // Reads of the quote after unanswered proofs, per challenge: at least one, as many as the retry
  // policy allows (each is followed by a new proof, never the same one).
  const maxRereads = Math.max(1, resolveRetryPolicy(client.retry, parameters.retry).retryCount);
  for (let step = 1; current.status === "PENDING_AUTHORIZATION"; step++) {
    const challenge: ScaChallengeJson = current.scaChallenge;
    const site: ScaProofSite = {
      operation: "authorizeQuote",
      step,
      origin: parameters.origin,
      timeoutMs: parameters.timeoutMs,
      onEvent: parameters.onEvent,
    };
    // Before the customer is asked: a challenge of another payment or of a login is refused.
    bindChallenge(client, quoteId, challenge, site);
    const resend = () => resendQuoteAuthorization(client, { quoteId, signal: parameters.signal });
    let error: SignetError | undefined;
    let refused = 0;
    let loggedIn = false;
    let reread = false;
    let rereads = 0;
    // A code the service refused only for want of the SCA login is sent again as it was.
    let reuse: Record<string, unknown> | undefined;
    for (;;) {
      if (parameters.signal?.aborted) throw abortedError(parameters.signal);
      const body = reuse ?? {
        ...(parameters.endUserIpAddress ? { endUserIpAddress: parameters.endUserIpAddress } : {}),
        ...(await scaProofFields(
          client,
          challenge,
          await ask(challenge, { step, error, resend }),
          site,
        )),
      };
      reuse = undefined;
      if (Date.parse(challenge.expiresAt) <= client.clock.now()) {
        throw new SignetError("CHALLENGE_EXPIRED", "The SCA challenge expired");
      }
      const proofAfterReread = reread;
      try {
        current = read(
          await client.request(
            {
              ...at(QUOTE_AUTHORIZE, [quoteId]),
              body: JSON.stringify(body),
            },
            parameters,
          ),
        );
        break;
      } catch (cause) {
        // No answer, or a 5xx (the relay's 502/504 UPSTREAM_* included): the authorize may have
        // been taken. The quote says which, as often per challenge as the policy allows. A proof
        // sent after that read and refused (400, 409) may have met the first one still at work:
        // read it again.
        const unknown = isSignetError(cause) && outcomeUnknown(cause);
        const refusedAfterRead =
          proofAfterReread &&
          isSignetError(cause) &&
          (cause.status === 400 || cause.status === 409);
        if ((unknown && rereads < maxRereads) || refusedAfterRead) {
          reread = true;
          if (unknown) rereads += 1;
          // The quote asked for, and no other: a re-read about another quote is refused.
          const again = read(
            await client
              .request(at(QUOTE_GET, [quoteId]), parameters)
              // The read failing leaves the outcome as unknown as the authorize's own error.
              .catch(() => Promise.reject(cause)),
          );
          if (again.status !== "PENDING_AUTHORIZATION" || again.scaChallenge?.id !== challenge.id) {
            // Taken: released (or ended), or on to its next challenge.
            current = settled(again, quoteId);
            break;
          }
          if (unknown) {
            // Not taken (yet): never the same proof again by itself (a refused code must not
            // count twice); the customer is asked again, with the error.
            error = cause as SignetError;
            continue;
          }
        }
        if (needsLogin(cause) && parameters.scaLogin !== false && !loggedIn) {
          loggedIn = true;
          // The service judged no proof yet. A failed login ends the call as it failed.
          await scaLogin(client, {
            factor: challenge.factor === "PASSKEY" ? "PASSKEY" : "SMS_OTP",
            onChallenge: ask,
            origin: parameters.origin,
            endUserIpAddress: parameters.endUserIpAddress,
            timeoutMs: parameters.timeoutMs,
            signal: parameters.signal,
            onEvent: parameters.onEvent,
          });
          // A code goes again as it was; a passkey assertion is spent (the login's tap moved the
          // authenticator's signature counter past it), so onChallenge is asked for a fresh one.
          if (challenge.factor !== "PASSKEY") reuse = body;
          continue;
        }
        // A 400 is a refused proof: ask again, until the service limits (429) or locks (423).
        if ((cause as SignetError).status !== 400) throw cause;
        if (++refused >= MAX_REFUSED_ANSWERS) throw cause;
        error = cause as SignetError;
      }
    }
    // Each step has a challenge of its own: the same one again would ask the customer forever.
    if (current.scaChallenge?.id === challenge.id) {
      throw new SignetError("MALFORMED_RESPONSE", "The same SCA challenge came back");
    }
  }
  return current;
}

/** Whether an authorize's answer leaves open that the service took it: none, or a 5xx. */
function outcomeUnknown(cause: SignetError): boolean {
  // The relay's own configuration refusal never reached the service: nothing was taken.
  if (cause.code === "ABORTED" || cause.code === "RELAY_MISCONFIGURED") return false;
  return cause.status === undefined || cause.status >= 500;
}

/**
 * A quote read after an authorize whose outcome was unknown, once it no longer waits for that
 * challenge: released or at its next challenge (returned), or ended (thrown as it ended).
 */
function settled(
  read: ExecutedQuoteJson | PendingAuthorizationQuoteJson,
  quoteId: string,
): ExecutedQuoteJson | PendingAuthorizationQuoteJson {
  if (read.status === "EXPIRED") {
    throw new SignetError("QUOTE_EXPIRED", "The quote expired before it was authorized", {
      details: { quoteId },
    });
  }
  if (read.status === "FAILED") {
    throw new SignetError("QUOTE_FAILED", "The quote failed: nothing was sent", {
      details: { quoteId, status: read.status },
    });
  }
  return read;
}

/** Whether an authorize was refused for want of the customer's SCA login session. */
function needsLogin(cause: unknown): boolean {
  return isSignetError(cause) && cause.code === "SCA_SESSION_REQUIRED";
}

/** `POST /quotes/{Quote}/authorize`. */
export const QUOTE_AUTHORIZE = {
  method: "POST",
  path: "/quotes/{Quote}/authorize",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** authorizeQuote's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const authorizeQuoteRow = {
  chunk: "payments",
  summary:
    "Strong Customer Authentication of a pending quote: each challenge answered with an SMS code or a passkey assertion until the transfer is released (and the SCA login, when the service refuses the first answer with 409 SCA_SESSION_REQUIRED)",
  parameters:
    "`{ quote, onChallenge: (challenge, { step, error, resend, login, quote }) => { code } | { passkey: true }, origin?, endUserIpAddress?, timeoutMs?, scaLogin? }`",
  resolvesTo: "`ExecutedQuoteJson`",
  requests: [
    { route: QUOTE_AUTHORIZE },
    // The quote is read again after an authorize that went unanswered or got a 5xx.
    { route: QUOTE_GET },
  ],
  // A lapsed SMS code re-sent, and the SCA login when the service asks for one.
  runs: ["resendQuoteAuthorization", "scaLogin"],
  errors: {
    client: [REQUEST_ERRORS, SCA_PROOF_ERRORS, "QUOTE_EXPIRED", "QUOTE_FAILED"],
    passkey: true,
  },
  hook: {
    kind: "mutation",
    name: "useAuthorizeQuote",
    invalidates: ["quotes", "balances", "transactions"],
  },
} as const satisfies ActionSourceRow;
