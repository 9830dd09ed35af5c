// docs/protocol.md §11 ("What an SCA proof is bound to"): the service calls an SCA challenge's
// passkey options opaque and resolves the active challenge from the quote in the path, so nothing
// in a challenge says which payment it releases. What the device can bind, it binds here, before
// the customer is asked, from what this client has seen itself (./scaLedger.ts): each challenge
// (its id, its WebAuthn challenge) belongs to the one quote, or the one SCA login, it first came
// with, and a proof is given only to that owner; a passkey the device knows as a wallet sign-in
// passkey never answers an SCA challenge.

import type { SignetClient } from "../client.js";
import type { SignetError } from "../errors/errors.js";
import type { EventSink } from "../session/events.js";
import { payloadMismatch } from "../transport/payloadVocabulary.js";
import type { ScaChallengeJson } from "../transport/wire.js";
import { keysOf, ledgerOf, noteChallenge, webAuthnChallengeOf } from "./scaLedger.js";

/** Where a proof is made, for the refusal's event and error. */
export type ScaProofSite = {
  operation: "authorizeQuote" | "scaLogin" | "trustBeneficiary" | "untrustBeneficiary";
  step: number;
  origin?: string | undefined;
  timeoutMs?: number | undefined;
  onEvent?: EventSink | undefined;
};

/**
 * Before any prompt: refuses a challenge that this device has seen belong to another quote or to
 * an SCA login (a payment's challenge passed off as a login's, or another payment's as this
 * one's), or a quote challenge whose passkey options are not those it first came with; then
 * notes it as `owner`'s.
 *
 * @throws {SignetError} `PAYLOAD_MISMATCH` (`details.field`: `scaChallenge.id`,
 *   `scaChallenge.passkeyAssertionOptions.challenge`), nothing asked, nothing sent.
 */
export function bindChallenge(
  client: SignetClient,
  owner: string,
  challenge: Pick<ScaChallengeJson, "id" | "passkeyAssertionOptions">,
  site: ScaProofSite,
): void {
  const ledger = ledgerOf(client);
  const keys = keysOf(challenge);
  const webauthn = webAuthnChallengeOf(challenge.passkeyAssertionOptions);
  const other = (key: string | undefined) =>
    key !== undefined && ledger.owners.has(key) && ledger.owners.get(key) !== owner;
  const first = keys.id ? ledger.options.get(keys.id) : undefined;
  if (other(keys.id)) throw refuse(client, site, "scaChallenge.id", "belongs to another payment");
  if (other(keys.webauthn) || (webauthn && first !== undefined && first !== webauthn)) {
    throw refuse(
      client,
      site,
      "scaChallenge.passkeyAssertionOptions.challenge",
      "is not this payment's",
    );
  }
  noteChallenge(client, owner, challenge);
}

/**
 * Refuses an SCA ceremony by a passkey this device knows as one of the wallet's sign-in passkeys
 * (and not as enrolled for SCA): an assertion it made could sign the wallet in for whoever asked.
 *
 * @throws {SignetError} `PAYLOAD_MISMATCH` with `details.field` as given.
 */
export function assertScaPasskeys(
  client: SignetClient,
  ids: readonly unknown[],
  site: ScaProofSite,
  field: string,
): void {
  const { signIn, sca } = ledgerOf(client);
  if (ids.some((id) => typeof id === "string" && signIn.has(id) && !sca.has(id))) {
    throw refuse(client, site, field, "names a wallet sign-in passkey");
  }
}

/** Emits the refusal event and makes the typed error. */
function refuse(
  client: SignetClient,
  site: ScaProofSite,
  field: string,
  reason: string,
): SignetError<"PAYLOAD_MISMATCH"> {
  client.emit(
    { type: "payload", action: "refused", operation: site.operation, signature: site.step, field },
    site.onEvent,
  );
  return payloadMismatch({ operation: site.operation, signature: site.step }, field, reason);
}
