// The Strong Customer Authentication actions (login and factors) are chunks of their own, one
// each, kept out of what a page loads before its first stamp (docs/architecture.md "Size"); the
// rarer account and wallet actions are one chunk (`lazyWallet.ts`). All of them start loading when
// a client is made (`preloadActions`), so no call waits for its code. Each public function is
// here, with its documentation; its module holds the code.

import type { SignetClient } from "../client.js";
import { loadChunk } from "../crypto/chunk.js";
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

const loadScaLogin = () => loadChunk(() => import("./scaLogin.js"));
const loadScaFactors = () => loadChunk(() => import("./scaFactors.js"));

/**
 * Starts loading the actions' chunks (these and `lazyWallet.ts`'s) when a client is made, so a
 * first call does not wait for one. A load that fails is left to that call, which reports it as a
 * retryable `NETWORK` error and tries again.
 */
export function preloadActions(): void {
  for (const load of [loadScaLogin, loadScaFactors, loadWalletActions])
    load().catch(() => undefined);
}

/**
 * Opens the customer's Strong Customer Authentication session: starts a login with `factor`,
 * asks `onChallenge` for the proof (an SMS or TOTP code, or a passkey tap on the passkey enrolled
 * for SCA), and completes it. `authorizeQuote` calls it by itself when the service answers
 * `SCA_SESSION_REQUIRED`; call it directly to log in ahead of a payment. A completion left
 * unanswered (a relay restart) or answered 5xx starts the login over once with a fresh challenge,
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
  return (await loadScaLogin()).scaLogin(client, parameters);
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
