// docs/protocol.md §11 ("What an SCA proof is bound to"): the service calls an SCA challenge's
// passkey options opaque and resolves the active challenge from the quote in the path, so nothing
// in a challenge says which payment it releases. What the device can bind, it binds here, from
// what it has seen itself in this client: each challenge (its id, its WebAuthn challenge) belongs
// to the one quote, or the one SCA login, it first came with, and a proof is given only to that
// owner; a quote's answers are about the quote the user confirmed (its id, amount and payee); a
// passkey the device knows as a wallet sign-in passkey never answers an SCA challenge.

import type { SignetClient } from "../client.js";
import { defined } from "../defined.js";
import { SignetError } from "../errors.js";
import type { EventSink } from "../events.js";
import { payloadMismatch } from "../transport/payloadCheck.js";
import type { QuoteJson, ScaChallengeJson } from "../wire.js";

/** Where a proof is made, for the refusal's event and error. */
export type ScaProofSite = {
  operation: "authorizeQuote" | "scaLogin";
  step: number;
  origin?: string | undefined;
  timeoutMs?: number | undefined;
  onEvent?: EventSink | undefined;
};

/**
 * The payment an SCA prompt confirms, as the user confirmed it (the quote `executeQuote` was given
 * on this client, else the quote `authorizeQuote` was given): show its amount and payee beside
 * the prompt. Amounts are in the currency's smallest unit (`sendingCurrency.decimals`).
 */
export type ConfirmedQuote = Pick<
  QuoteJson,
  | "id"
  | "sendingCurrency"
  | "receivingCurrency"
  | "totalSendingAmount"
  | "totalReceivingAmount"
  | "feesIncluded"
  | "destination"
>;

/** The owner of a login's challenges: never a quote id (`Quote:…`). */
export const SCA_LOGIN_OWNER = "login";

type Ledger = {
  /** `id|<challenge id>` and `webauthn|<WebAuthn challenge>` → a quote id or SCA_LOGIN_OWNER. */
  owners: Map<string, string>;
  /** A quote challenge's id → the WebAuthn challenge it first came with. */
  options: Map<string, string>;
  confirmed: Map<string, ConfirmedQuote>;
  /** Credential ids of the wallet's sign-in passkeys, and of passkeys enrolled for SCA. */
  signIn: Set<string>;
  sca: Set<string>;
};

/** Entries a ledger keeps per map: a device meets a handful of challenges an hour. */
const LIMIT = 256;

const ledgers = new WeakMap<SignetClient, Ledger>();

function ledgerOf(client: SignetClient): Ledger {
  let ledger = ledgers.get(client);
  if (!ledger) {
    ledger = {
      owners: new Map(),
      options: new Map(),
      confirmed: new Map(),
      signIn: new Set(),
      sca: new Set(),
    };
    ledgers.set(client, ledger);
  }
  return ledger;
}

/** Adds an entry, dropping the oldest beyond LIMIT (a Map iterates in insertion order). */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.set(key, value);
  if (map.size > LIMIT) map.delete(map.keys().next().value as string);
}

/** The WebAuthn challenge of opaque passkey options, in either shape, or undefined. */
export function webAuthnChallengeOf(options: unknown): string | undefined {
  const outer = options as { publicKey?: { challenge?: unknown }; challenge?: unknown } | null;
  const challenge = outer?.publicKey?.challenge ?? outer?.challenge;
  return typeof challenge === "string" && challenge !== ""
    ? challenge.replace(/=+$/, "")
    : undefined;
}

/** The confirmed parts of a quote. */
function summary(quote: QuoteJson): ConfirmedQuote {
  const {
    id,
    sendingCurrency,
    receivingCurrency,
    totalSendingAmount,
    totalReceivingAmount,
    feesIncluded,
    destination,
  } = quote;
  return defined({
    id,
    sendingCurrency,
    receivingCurrency,
    totalSendingAmount,
    totalReceivingAmount,
    feesIncluded,
    destination,
  });
}

/** Notes the quote the user confirmed, as `executeQuote` was given it, before it is executed. */
export function confirmQuote(client: SignetClient, quote: QuoteJson): void {
  remember(ledgerOf(client).confirmed, quote.id, summary(quote));
}

/** The quote as the user confirmed it on this client, else as `quote` states it. */
export function confirmedQuote(client: SignetClient, quote: QuoteJson): ConfirmedQuote {
  return ledgerOf(client).confirmed.get(quote.id) ?? summary(quote);
}

/**
 * Refuses an answer about another quote than `expected`: another id, or, where both state them,
 * another amount, currency or payee (a quote's terms never change once it is made).
 *
 * @throws {SignetError} `MALFORMED_RESPONSE` with `details.quoteId` (the one asked for) and
 *   `details.field` (the first that differs).
 */
export function assertSameQuote(answer: QuoteJson, expected: ConfirmedQuote): void {
  const pairs: [string, unknown, unknown][] = [
    ["id", answer.id, expected.id],
    ["totalSendingAmount", answer.totalSendingAmount, expected.totalSendingAmount],
    ["totalReceivingAmount", answer.totalReceivingAmount, expected.totalReceivingAmount],
    ["sendingCurrency.code", answer.sendingCurrency?.code, expected.sendingCurrency?.code],
    ["receivingCurrency.code", answer.receivingCurrency?.code, expected.receivingCurrency?.code],
    ["destination.accountId", answer.destination?.accountId, expected.destination?.accountId],
    ["destination.umaAddress", umaOf(answer), umaOf(expected)],
  ];
  // Numbers compared by value, whether written as a number or a string.
  const field = pairs.find(([, given, wanted]) =>
    given !== undefined && given !== null && wanted !== undefined && wanted !== null
      ? String(given) !== String(wanted)
      : false,
  )?.[0];
  if (field !== undefined) {
    throw new SignetError("MALFORMED_RESPONSE", "The answer is about another quote", {
      details: { quoteId: expected.id, field },
    });
  }
}

const umaOf = (quote: Pick<QuoteJson, "destination">) =>
  (quote.destination as { umaAddress?: unknown } | undefined)?.umaAddress;

/** The ledger keys of a challenge: its id (when it has one of the service's) and WebAuthn challenge. */
function keysOf(challenge: Pick<ScaChallengeJson, "id" | "passkeyAssertionOptions">): {
  id: string | undefined;
  webauthn: string | undefined;
} {
  return {
    id: challenge.id ? `id|${challenge.id}` : undefined,
    webauthn: ((c) => (c ? `webauthn|${c}` : undefined))(
      webAuthnChallengeOf(challenge.passkeyAssertionOptions),
    ),
  };
}

/**
 * Notes a challenge the device received for `owner` (a quote id, or SCA_LOGIN_OWNER), where it
 * has no owner yet: a challenge first seen with one owner stays that owner's.
 */
export function noteChallenge(
  client: SignetClient,
  owner: string,
  challenge: Pick<ScaChallengeJson, "id" | "passkeyAssertionOptions"> | undefined,
): void {
  if (!challenge) return;
  const ledger = ledgerOf(client);
  const keys = keysOf(challenge);
  for (const key of [keys.id, keys.webauthn]) {
    if (key !== undefined && !ledger.owners.has(key)) remember(ledger.owners, key, owner);
  }
  const webauthn = webAuthnChallengeOf(challenge.passkeyAssertionOptions);
  if (owner !== SCA_LOGIN_OWNER && keys.id && webauthn && !ledger.options.has(keys.id)) {
    remember(ledger.options, keys.id, webauthn);
  }
}

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

/** Notes passkey credential ids: the wallet's sign-in passkeys, or passkeys enrolled for SCA. */
export function notePasskeys(
  client: SignetClient,
  kind: "signIn" | "sca",
  ids: readonly unknown[],
): void {
  const set = ledgerOf(client)[kind];
  for (const id of ids) if (typeof id === "string" && id !== "") set.add(id);
  if (set.size > LIMIT) set.delete(set.values().next().value as string);
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
