// The Strong Customer Authentication actions are chunks of their own: the login with the
// authorization that runs it (one chunk), and the factors, kept out of what a page loads before its first stamp (docs/architecture.md "Size"); the
// rarer account and wallet actions are one chunk (`lazyWallet.ts`). All of them start loading when
// a client is made (`preloadActions`), so no call waits for its code. Each public function is
// here, with its documentation; its module holds the code.

import type { SignetClient } from "../client.js";
import { loadChunk } from "../crypto/chunk.js";
import type { AuthorizeQuoteParameters, AuthorizeQuoteReturnType } from "./authorizeQuote.js";
import { loadWalletActions } from "./lazyWallet.js";
import type {
  DeleteScaFactorParameters,
  DeleteScaFactorReturnType,
  EnrollScaPasskeyParameters,
  EnrollScaPasskeyReturnType,
  ListScaFactorsParameters,
  ListScaFactorsReturnType,
  RecordSecurityEventParameters,
  RecordSecurityEventReturnType,
} from "./scaFactors.js";
import type { ScaLoginParameters, ScaLoginReturnType } from "./scaLogin.js";

const loadScaActions = () => loadChunk(() => import("./scaActions.js"));
const loadScaFactors = () => loadChunk(() => import("./scaFactorActions.js"));

/**
 * Starts loading the actions' chunks (these and `lazyWallet.ts`'s) when a client is made, so a
 * first call does not wait for one. A load that fails is left to that call, which reports it as a
 * retryable `NETWORK` error and tries again.
 */
export function preloadActions(): void {
  for (const load of [loadScaActions, loadScaFactors, loadWalletActions])
    load().catch(() => undefined);
}

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
  return (await loadScaActions()).authorizeQuote(client, parameters);
}

/**
 * Opens the customer's Strong Customer Authentication session: starts a login with `factor`,
 * asks `onChallenge` for the proof (an SMS or TOTP code, or a passkey tap on the passkey enrolled
 * for SCA), and completes it. `authorizeQuote` calls it by itself when the service answers
 * `SCA_SESSION_REQUIRED`; call it directly to log in ahead of a payment. A completion left
 * unanswered (a relay restart) or answered 5xx starts the login over with a fresh challenge (at
 * least once, as often as the retry policy's `retryCount` allows),
 * and `onChallenge` is asked again with that error: a proof is never sent twice.
 *
 * @throws {SignetError} `ACCOUNT_LOCKED` (423: `details.lockedUntil`), `CONFLICT` (409: not an SCA
 *   region), `SCA_LOGIN_FAILED` (the service reported another status, in `details.status`),
 *   `CHALLENGE_EXPIRED`, `WEBAUTHN_*`, `RATE_LIMITED`, `NETWORK`, `INVALID_ARGUMENT`.
 * @example
 * ```ts
 * const { sessionExpiresAt } = await scaLogin(client, {
 *   onChallenge: (_challenge, { error }) => ui.askCode("Confirm it is you", error),
 * });
 * ```
 */
export async function scaLogin(
  client: SignetClient,
  parameters: ScaLoginParameters,
): Promise<ScaLoginReturnType> {
  return (await loadScaActions()).scaLogin(client, parameters);
}

/**
 * Lists the customer's enrolled SCA factors (`GET /sca/factors`): `SMS_OTP` always (the verified
 * phone), a `PASSKEY` once one is enrolled for SCA, `TOTP` when set up.
 *
 * @throws {SignetError} `CONFLICT` (409: the customer is not in an SCA region), `NETWORK`.
 * @example
 * ```ts
 * const canUsePasskey = (await listScaFactors(client)).some((f) => f.factor === "PASSKEY");
 * ```
 */
export async function listScaFactors(
  client: SignetClient,
  parameters: ListScaFactorsParameters = {},
): Promise<ListScaFactorsReturnType> {
  return (await loadScaFactors()).listScaFactors(client, parameters);
}

/**
 * Enrolls a passkey as the customer's SCA factor: `POST /sca/factors` `{ type: "PASSKEY" }`, the
 * registration ceremony on the service's opaque options (as they are, a missing timeout added),
 * then `POST /sca/factors/confirm` with the credential and its origin. Distinct from `addPasskey`,
 * which adds a way to sign in to the wallet; a customer has at most one SCA passkey.
 *
 * @throws {SignetError} `PASSKEY_ALREADY_ENROLLED` (409: delete the old one first),
 *   `SCA_ORIGIN_NOT_ALLOWED` (the ceremony ran on an origin the service does not list; nothing was
 *   sent), `CONFLICT` (not an SCA region), `WEBAUTHN_*`, `NETWORK`.
 * @example
 * ```ts
 * const factor = await enrollScaPasskey(client);
 * ```
 */
export async function enrollScaPasskey(
  client: SignetClient,
  parameters: EnrollScaPasskeyParameters = {},
): Promise<EnrollScaPasskeyReturnType> {
  return (await loadScaFactors()).enrollScaPasskey(client, parameters);
}

/**
 * Deletes an enrolled SCA factor by its `credentialId` (`DELETE /sca/factors/{credentialId}`).
 * Only passkeys have one.
 *
 * @throws {SignetError} `REFERENCE_NOT_FOUND`/404 (no such factor), `CONFLICT` (not an SCA region), `NETWORK`.
 * @example
 * ```ts
 * await deleteScaFactor(client, { credentialId: factor.credentialId! });
 * ```
 */
export async function deleteScaFactor(
  client: SignetClient,
  parameters: DeleteScaFactorParameters,
): Promise<DeleteScaFactorReturnType> {
  return (await loadScaFactors()).deleteScaFactor(client, parameters);
}

/**
 * Tells the service about a security event of the app's own login (`POST /sca/record-event`):
 * `FAILED_LOGIN_ATTEMPT` counts toward the customer's lockout, `RESET_PASSWORD_COMPLETED` ends
 * every SCA session and clears the count. Returns the customer's login-security state.
 *
 * @throws {SignetError} `ACCOUNT_LOCKED` (423), `CONFLICT` (not an SCA region), `NETWORK`.
 * @example
 * ```ts
 * const { suspended, lockedUntil } = await recordSecurityEvent(client, { eventType: "FAILED_LOGIN_ATTEMPT" });
 * ```
 */
export async function recordSecurityEvent(
  client: SignetClient,
  parameters: RecordSecurityEventParameters,
): Promise<RecordSecurityEventReturnType> {
  return (await loadScaFactors()).recordSecurityEvent(client, parameters);
}
