// docs/protocol.md §11 ("What an SCA proof is bound to"): what this client has seen of Strong
// Customer Authentication, kept per client in memory: the quote the user confirmed at execute,
// which quote (or SCA login) each challenge came with, and which passkeys are the wallet's sign-in
// ones or enrolled for SCA. The checks that read it before a proof are in ./scaBinding.ts, loaded
// with the SCA actions; what every payment needs (noting, reading the quote execute or authorize
// answered, comparing a quote) stays small here.

import { decodeBase64Url } from "#codec";
import type { SignetClient } from "../client.js";
import { base64UrlDecode } from "../crypto/base64url-decode.js";
import { base64UrlEncode, utf8Decode } from "../crypto/encoding.js";
import { SignetError } from "../errors/errors.js";
import { expectShape, readPasskeyOptions } from "../transport/responseShape.js";
import type {
  ExecutedQuoteJson,
  PendingAuthorizationQuoteJson,
  QuoteJson,
  ScaChallengeJson,
} from "../transport/wire.js";

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

/** @internal What one client has seen. */
export type Ledger = {
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

/** @internal The client's ledger, made on first use. */
export function ledgerOf(client: SignetClient): Ledger {
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

/**
 * The WebAuthn challenge of opaque passkey options, in either shape, as the bytes a browser hands
 * the authenticator, in canonical base64url, or undefined. A browser decodes padding, the standard
 * alphabet, whitespace and a last character's spare bits to the same bytes, so a challenge written
 * any of those ways is the same challenge here.
 */
export function webAuthnChallengeOf(options: unknown): string | undefined {
  let text: string;
  try {
    text = readPasskeyOptions(options).challenge.replace(/[\s=]/g, "");
  } catch {
    return undefined;
  }
  const url = text.replace(/\+/g, "-").replace(/\//g, "_");
  // Bits past the last whole byte are dropped in decoding; what no browser decodes stays as is.
  return /^[\w-]*$/.test(url) && url.length % 4 !== 1
    ? base64UrlEncode(decodeBase64Url(url))
    : text;
}

/** Notes the quote the user confirmed, as `executeQuote` was given it, before it is executed. */
export function confirmQuote(client: SignetClient, quote: QuoteJson): void {
  remember(ledgerOf(client).confirmed, quote.id, quote);
}

/** The quote as the user confirmed it on this client, else as `quote` states it. */
export function confirmedQuote(client: SignetClient, quote: QuoteJson): ConfirmedQuote {
  return ledgerOf(client).confirmed.get(quote.id) ?? quote;
}

/**
 * Refuses an answer about another quote than `expected`: another id, or, where both state them,
 * another amount, currency or payee (a quote's terms never change once it is made).
 *
 * @throws {SignetError} `MALFORMED_RESPONSE` with `details.quoteId` (the one asked for) and
 *   `details.field` (the first that differs).
 */
export function assertSameQuote(answer: QuoteJson, expected: ConfirmedQuote): void {
  const at = (quote: object, path: string): unknown =>
    path
      .split(".")
      .reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], quote);
  // Numbers compared by value, whether written as a number or a string; absent fields pass.
  const field = QUOTE_TERMS.find((path) => {
    const [given, wanted] = [at(answer, path), at(expected, path)];
    return given != null && wanted != null && String(given) !== String(wanted);
  });
  if (field !== undefined) {
    throw new SignetError("MALFORMED_RESPONSE", "The answer is about another quote", {
      details: { quoteId: expected.id, field },
    });
  }
}

/**
 * Reads a quote answer of execute or authorize: one that is `PENDING_AUTHORIZATION` must carry
 * the challenge to satisfy (docs/protocol.md §9), and one that is not must not.
 * @throws {SignetError} `MALFORMED_RESPONSE`.
 */
export function parseExecutedQuote(
  answer: unknown,
): ExecutedQuoteJson | PendingAuthorizationQuoteJson {
  const quote = expectShape<QuoteJson>(answer, ["id", "status"], "Quote");
  if (quote.status !== "PENDING_AUTHORIZATION") return quote as ExecutedQuoteJson;
  expectShape(quote.scaChallenge, ["id", "expiresAt", "factor"], "scaChallenge");
  return quote as PendingAuthorizationQuoteJson;
}

/** What makes a quote the one the user confirmed: its id, amounts, currencies and payee. */
const QUOTE_TERMS = [
  "id",
  "totalSendingAmount",
  "totalReceivingAmount",
  "sendingCurrency.code",
  "receivingCurrency.code",
  "destination.accountId",
  "destination.umaAddress",
];

/**
 * @internal
 * The ledger keys of a challenge: its id (when it has one of the service's) and its WebAuthn
 * challenge.
 */
export function keysOf(challenge: Pick<ScaChallengeJson, "id" | "passkeyAssertionOptions">): {
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
  // A login's challenges have no id of the service's here (its SMS one comes without options).
  if (keys.id && webauthn && !ledger.options.has(keys.id)) {
    remember(ledger.options, keys.id, webauthn);
  }
}

/**
 * Notes passkey credential ids: the wallet's sign-in passkeys, or passkeys enrolled for SCA. (A
 * customer has a handful; the same id noted again is one entry.)
 */
export function notePasskeys(
  client: SignetClient,
  kind: "signIn" | "sca",
  ids: readonly unknown[],
): void {
  const set = ledgerOf(client)[kind];
  for (const id of ids) if (typeof id === "string" && id !== "") set.add(id);
}

/** The origin the authenticator signed over (WebAuthn §5.8.1 `CollectedClientData.origin`). */
export function originOf(clientDataJSON: string): unknown {
  try {
    return JSON.parse(utf8Decode(base64UrlDecode(clientDataJSON))).origin;
  } catch {
    return undefined;
  }
}
