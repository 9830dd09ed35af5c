// docs/protocol.md §9 (Strong Customer Authentication): a quote that execute left in
// PENDING_AUTHORIZATION is released by authorizing each challenge it carries, in turn, with an SMS
// code or a passkey assertion, until it leaves that status. Authorize never executes the quote.

import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import { base64UrlDecode, utf8Decode } from "../crypto/encoding.js";
import {
  assertArgument,
  type RequestErrorCode,
  SignetError,
  type WebAuthnErrorCode,
} from "../errors.js";
import type { CallOptions } from "../events.js";
import { abortedError } from "../transport/http.js";
import { payloadMismatch } from "../transport/payloadCheck.js";
import { toWebAuthnError } from "../webauthn/errors.js";
import type { AuthenticationOptionsJSON } from "../webauthn/types.js";
import type {
  ExecutedQuoteJson,
  PendingAuthorizationQuoteJson,
  ScaChallengeJson,
} from "../wire.js";
import { parseExecutedQuote } from "./executeQuote.js";
import { resendQuoteAuthorization } from "./resendQuoteAuthorization.js";

/** How to answer one challenge: the code the customer typed, or a passkey ceremony. */
export type ScaProof = { code: string } | { passkey: true };

/** What `onChallenge` learns besides the challenge itself. */
export type ScaChallengeContext = {
  /** 1 for the payment's first challenge, 2 for the next (a cross-currency send has two). */
  step: number;
  /**
   * Set when the previous answer to this same challenge was refused (400: a wrong or lapsed
   * code, a passkey assertion the service did not accept): show it and ask again.
   */
  error?: SignetError | undefined;
  /** Sends the SMS code of this challenge again (`SMS_OTP` only; the expiry is not extended). */
  resend: () => Promise<void>;
};

export type AuthorizeQuoteParameters = CallOptions & {
  /** The quote in `PENDING_AUTHORIZATION`, as `executeQuote` or `getQuote` returned it. */
  quote: PendingAuthorizationQuoteJson;
  /**
   * Called once per challenge, in order, and again for the same challenge after a refused
   * answer. Return `{ code }` for `SMS_OTP` and `TOTP`, `{ passkey: true }` for `PASSKEY` (resolve
   * it from the customer's tap: the passkey prompt opens right after). Show `challenge.purpose`
   * as the step's title; never branch on it. Throw to give up: the error is passed on as thrown.
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
};

/** The quote once no authorization is pending: its transfer has started. */
export type AuthorizeQuoteReturnType = ExecutedQuoteJson;

export type AuthorizeQuoteErrorType = SignetError<
  | RequestErrorCode
  | WebAuthnErrorCode
  | "SCA_SESSION_REQUIRED"
  | "ACCOUNT_LOCKED"
  | "CHALLENGE_EXPIRED"
  | "PAYLOAD_MISMATCH"
>;

/**
 * Authorizes a quote that waits for Strong Customer Authentication (customers in the EU and
 * EEA): answers each `scaChallenge` with what `onChallenge` returns, an SMS code or a passkey
 * assertion made through the client's WebAuthn provider from the challenge's
 * `passkeyAssertionOptions` (sent with its origin), and repeats while the quote stays
 * `PENDING_AUTHORIZATION` (a cross-currency send asks twice: the conversion, then the payout).
 * Each answer is sent once, never retried on its own, and the quote is never executed again.
 * Follow with `waitForTransaction`.
 *
 * A refused answer (400) asks `onChallenge` again with `context.error`. Other refusals end the
 * call: `SCA_SESSION_REQUIRED` (409: the customer's SCA login lapsed; sign them in again, then
 * call again with `getQuote`'s quote), `CONFLICT` (409: nothing to authorize, or not an SCA
 * region), `ACCOUNT_LOCKED` (423: `details.lockedUntil`, `details.failedAttempts`,
 * `details.suspended`), `RATE_LIMITED` (429: `details.retryAfterMs`).
 *
 * @throws {SignetError} the codes above, `CHALLENGE_EXPIRED`, `WEBAUTHN_*`, `QUOTE_NOT_FOUND`, `NETWORK`, `INVALID_ARGUMENT`.
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
  let current = parseExecutedQuote(quote);
  for (let step = 1; current.status === "PENDING_AUTHORIZATION"; step++) {
    const challenge: ScaChallengeJson = current.scaChallenge;
    const resend = () => resendQuoteAuthorization(client, { quoteId, signal: parameters.signal });
    let error: SignetError | undefined;
    for (;;) {
      if (parameters.signal?.aborted) throw abortedError(parameters.signal);
      const proof = await parameters.onChallenge(challenge, { step, error, resend });
      const body = await proofBody(client, parameters, challenge, proof, step);
      if (Date.parse(challenge.expiresAt) <= client.clock.now()) {
        throw new SignetError("CHALLENGE_EXPIRED", "The SCA challenge expired");
      }
      try {
        current = parseExecutedQuote(
          await client.request(
            {
              method: "POST",
              path: `/quotes/${quoteId}/authorize`,
              body: JSON.stringify(body),
              expectedStatus: 200,
            },
            parameters,
          ),
        );
        break;
      } catch (cause) {
        // A 400 is a refused proof: ask again, until the service limits (429) or locks (423).
        if ((cause as SignetError).status !== 400) throw cause;
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

/** The `ScaAuthorization` body for `proof`, running the passkey ceremony for a PASSKEY challenge. */
async function proofBody(
  client: SignetClient,
  parameters: AuthorizeQuoteParameters,
  challenge: ScaChallengeJson,
  proof: ScaProof,
  step: number,
): Promise<Record<string, unknown>> {
  const { endUserIpAddress } = parameters;
  const body: Record<string, unknown> = endUserIpAddress ? { endUserIpAddress } : {};
  const given = proof as Partial<{ code: unknown; passkey: unknown }> | undefined;
  if (challenge.factor === "PASSKEY") {
    assertArgument(given?.passkey === true, "onChallenge", "{ passkey: true }", "another proof");
    const options = challenge.passkeyAssertionOptions;
    if (typeof options?.challenge !== "string") {
      throw new SignetError("MALFORMED_RESPONSE", "The PASSKEY challenge has no options");
    }
    // docs/protocol.md §11: the customer's passkey signs nothing shaped like a wallet sign-in
    // challenge (the UTF-8 bytes of 64 hex digits, §5): a backend could otherwise pass off the
    // challenge of a session for its own key as a payment's, and have the tap authorise it.
    if (isWalletSessionChallenge(options.challenge)) {
      const refusal = payloadMismatch(
        { operation: "authorizeQuote", signature: step },
        "passkeyAssertionOptions.challenge",
        "has the shape of a wallet sign-in challenge",
      );
      client.emit(
        {
          type: "payload",
          action: "refused",
          operation: "authorizeQuote",
          signature: step,
          field: "passkeyAssertionOptions.challenge",
        },
        parameters.onEvent,
      );
      throw refusal;
    }
    // The service's options go to the authenticator as they are; only a missing timeout is added.
    const assertion = await client
      .webauthn()
      .authenticate({
        timeout: parameters.timeoutMs ?? 60_000,
        ...options,
      } as AuthenticationOptionsJSON)
      .catch((error: unknown) => {
        throw toWebAuthnError(error);
      });
    const origin = parameters.origin ?? originOf(assertion.response.clientDataJSON);
    assertArgument(typeof origin === "string" && origin !== "", "origin", "a string", "none");
    body.passkeyAssertion = assertion;
    body.origin = origin;
  } else {
    const code = given?.code;
    // The code itself is never echoed in an error.
    assertArgument(
      typeof code === "string" && /^\S{1,64}$/.test(code.trim()),
      "onChallenge",
      "{ code } with the code the customer received",
      "something else",
    );
    body.code = code.trim();
  }
  return body;
}

/** Whether a WebAuthn challenge is the UTF-8 bytes of 64 hex digits (a wallet session's, §5). */
function isWalletSessionChallenge(challenge: string): boolean {
  try {
    return /^[0-9a-f]{64}$/i.test(utf8Decode(base64UrlDecode(challenge)));
  } catch {
    return false;
  }
}

/** The origin the authenticator signed over (WebAuthn §5.8.1 `CollectedClientData.origin`). */
function originOf(clientDataJSON: string): unknown {
  try {
    return JSON.parse(utf8Decode(base64UrlDecode(clientDataJSON))).origin;
  } catch {
    return undefined;
  }
}
