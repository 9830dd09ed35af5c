// What the frame signs, by route (README "What the frame signs"): each route the frame knows, the
// check core's own action runs for it (imported from core's action files, not rewritten), the
// parameters of that check as the frame finds them (keys it made itself, the request's own path
// and body, the account its stored session belongs to), and whether the user must confirm it
// with a tap inside the frame. A route not listed here is refused (`unsupported`).

import type { AddCredentialParameters } from "../../../core/src/actions/addCredential.js";
import { exportWalletPayload, WALLET_EXPORT } from "../../../core/src/actions/exportWallet.js";
import type { RevokeCredentialParameters } from "../../../core/src/actions/revokeCredential.js";
import { revokeSessionPayload, SESSION_REVOKE } from "../../../core/src/actions/revokeSession.js";
import {
  refreshSessionPayload,
  SESSION_REFRESH,
} from "../../../core/src/actions/settleSessions.js";
import { CREDENTIAL_VERIFY } from "../../../core/src/actions/verifyOtp.js";
import type { SigningKey } from "../../../core/src/crypto/backend.js";
import { executeQuotePayload } from "../../../core/src/payloads/executeQuotePayload.js";
import { readQuotePayload } from "../../../core/src/payloads/quotePayload.js";
import {
  type CheckPayload,
  expectVerificationToken,
} from "../../../core/src/transport/payloadCheck.js";
import { readActivity } from "../../../core/src/transport/payloadParse.js";
import type { QuoteJson } from "../../../core/src/transport/wire.js";
import type { ConfirmRow } from "./confirm.js";
import { owner } from "./ruleOwner.js";
import { ACCOUNT_RULES } from "./rulesAccount.js";
import {
  type MadePasskey,
  PASSKEY_RULES,
  passkeyAddCheck,
  passkeyAddRows,
} from "./rulesPasskey.js";

/** What a rule is given to build its check. */
export type RuleInput = {
  /** The key asked to stamp. */
  key: SigningKey;
  /** The account of the stored session whose key stamps, when it is one. */
  storedAccountId: string | undefined;
  /** The path's ids, in the route's order. */
  ids: readonly string[];
  /** The request's body, parsed (an object), or undefined. */
  body: Record<string, unknown> | undefined;
  /** Whether `publicKey` is a signing key the frame made and has not stored yet. */
  isFreshKey(publicKey: string): boolean;
  /** Whether `publicKeyUncompressed` is an export key the frame made. */
  isExportKey(publicKeyUncompressed: string): boolean;
  /**
   * Whether `publicKeyUncompressed` is a decrypt-only key the frame made that no export has
   * claimed: a legacy refresh's new session is sealed to it, and only the frame opens it.
   */
  isSessionDecryptionKey(publicKeyUncompressed: string): boolean;
  /** The payload asked to be stamped (its check has not run yet). */
  payload: string;
  /** Whether the stamping key is one the frame made and has not stored (a sign-in's own key). */
  stampedByFreshKey: boolean;
  /** A passkey the frame's own ceremony made, by its credential id. */
  registration(credentialId: string): MadePasskey | undefined;
};

/**
 * Why a rule refuses before any check: `key` (a key the frame did not make), `passkey` (a passkey
 * add of an attestation the frame's own ceremony did not make), `unsupported` (a request the
 * frame does not sign), `kind` (a removal of no kind of sign-in method the frame knows).
 */
export type RuleRefusal = "key" | "passkey" | "unsupported" | "kind";

/** What a rule builds: its check, the account it concerns, and what the request adds to it. */
export type Built = {
  check: CheckPayload;
  accountId: string;
  /** The decrypt-only key an export is for. */
  exportKey?: string;
  /** The decrypt-only key a legacy refresh's session is sealed to (never an export's after). */
  sessionDecryptionKey?: string;
  /** Whether a tap must confirm this request, where it differs from the rule's `gesture`. */
  gesture?: boolean;
  /** What the confirmation shows besides the rule's rows, read from the request and payload. */
  rows?: ConfirmRow[];
  /** Told once the payload is stamped (a rule with state across its request's signatures). */
  stamped?(): void;
};

/** A route's rule: its check, the account it concerns, and whether a tap must confirm it. */
export type Rule = {
  /** For the confirmation: what the user is asked to approve. */
  title: string;
  gesture: boolean;
  /** The check's parameters, or the reason the frame refuses (`key`). */
  build(input: RuleInput): Built | RuleRefusal;
  /**
   * What the confirmation shows besides the operation, the account and the activity type, read
   * from the payload the check has passed (never from what the page says about it).
   */
  rows?(payload: string, ids: readonly string[]): ConfirmRow[];
};

const stringField = (body: Record<string, unknown> | undefined, name: string) =>
  typeof body?.[name] === "string" ? (body[name] as string) : undefined;

/**
 * Core's credential checks, loaded when a credential change is first asked for: their action
 * files bring the passkey code along, which the frame page need not load up front (the checks are
 * asynchronous already).
 */
const credentialChecks = {
  add:
    (request: AddCredentialParameters): CheckPayload =>
    async (payload, context) =>
      (await import("../../../core/src/actions/addCredential.js")).addCredentialPayload(
        owner,
        request,
      )(payload, context),
  revoke:
    (request: { accountId: string; type: RevokeCredentialParameters["type"] }): CheckPayload =>
    async (payload, context) =>
      (await import("../../../core/src/actions/revokeCredential.js")).revokeCredentialPayload(
        owner,
        request,
      )(payload, context),
};

/** The activity's parameters, as the payload writes them (for what a rule shows). */
export const parametersOf = (payload: string) =>
  (readActivity(payload)?.parameters ?? {}) as Record<string, unknown>;

/** The kind of credential a removal's activity removes, as core's revoke check knows them. */
const REMOVED_KIND: Record<string, string> = {
  ACTIVITY_TYPE_DELETE_AUTHENTICATORS: "PASSKEY",
  ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS: "OAUTH",
  ACTIVITY_TYPE_UPDATE_USER_EMAIL: "EMAIL_OTP",
  ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER: "SMS_OTP",
};

/**
 * The kind a removal's payload removes: by its activity type; a general user update by the
 * contact it clears. Unknown: "" (core's check then refuses every activity).
 */
function removedKind(payload: string): string {
  const activity = readActivity(payload);
  const type = typeof activity?.type === "string" ? activity.type : "";
  if (type !== "ACTIVITY_TYPE_UPDATE_USER") return REMOVED_KIND[type] ?? "";
  const parameters = parametersOf(payload);
  const cleared = (name: string) => parameters[name] === "" || parameters[name] === null;
  if (cleared("userEmail") && !cleared("userPhoneNumber")) return "EMAIL_OTP";
  if (cleared("userPhoneNumber") && !cleared("userEmail")) return "SMS_OTP";
  return "";
}

/**
 * `QUOTE_EXECUTE` of core's executeQuote.ts, written here because importing that file would load
 * the whole execute flow (its SCA login) into the frame page up front; the frame's test holds the
 * two equal.
 */
export const QUOTE_EXECUTE_ROUTE = { method: "POST", path: "/quotes/{Quote}/execute" } as const;
/** `CREDENTIAL_ADD` of core's addPasskey.ts (the passkey ceremony stays out of the frame page). */
export const CREDENTIAL_ADD_ROUTE = { method: "POST", path: "/auth/credentials" } as const;
/** `CREDENTIAL_REVOKE` of core's revokeCredential.ts. */
export const CREDENTIAL_REVOKE_ROUTE = {
  method: "DELETE",
  path: "/auth/credentials/{AuthMethod}",
} as const;

const RULES: ReadonlyArray<{ route: { method: string; path: string }; rule: Rule }> = [
  ...PASSKEY_RULES,
  {
    route: CREDENTIAL_VERIFY,
    rule: {
      title: "Sign in",
      gesture: false,
      // The TEK signs the service's verification token for itself (core's verifyOtp check).
      build: ({ key, storedAccountId }) => ({
        check: expectVerificationToken([key.publicKeyUncompressed, key.publicKey]),
        accountId: storedAccountId ?? "",
      }),
    },
  },
  {
    route: SESSION_REFRESH,
    rule: {
      title: "Refresh the session",
      gesture: false,
      // The new session must be for a key this frame just made: no other key gets a session.
      // Stamped by a stored session's key, or by a key the frame made and has not stored: the
      // proof of a passkey sign-in (core's proveSessionKey) and of an unanswered sign-in's
      // adoption, whose session the service accepts the stamp of only if it is that key's own.
      // A stored session's legacy refresh (`refreshSession({ legacy: true })`) names a
      // decrypt-only key the frame made instead: the service seals the new session's key to it,
      // and only the frame opens that bundle (`openSession`), keeping the key.
      build: ({
        key,
        body,
        storedAccountId,
        isFreshKey,
        isSessionDecryptionKey,
        stampedByFreshKey,
      }) => {
        const clientPublicKey = stringField(body, "clientPublicKey");
        if (!clientPublicKey) return "key";
        const legacy =
          storedAccountId !== undefined &&
          !isFreshKey(clientPublicKey) &&
          isSessionDecryptionKey(clientPublicKey);
        if (!isFreshKey(clientPublicKey) && !legacy) return "key";
        if (storedAccountId)
          return {
            check: refreshSessionPayload(owner, { accountId: storedAccountId, clientPublicKey }),
            accountId: storedAccountId,
            ...(legacy ? { sessionDecryptionKey: clientPublicKey } : {}),
          };
        // A fresh key hands its session on to another fresh key, never to itself.
        if (!stampedByFreshKey || sameKey(clientPublicKey, key)) return "key";
        // The frame is not told the account of a session it has not stored: the payload's
        // organization and user are pinned per stamping key (nothing before it to compare with).
        return {
          check: refreshSessionPayload(owner, {
            accountId: `fresh|${key.publicKey}`,
            clientPublicKey,
          }),
          accountId: "",
        };
      },
    },
  },
  {
    route: SESSION_REVOKE,
    rule: {
      title: "End a session",
      gesture: false,
      build: ({ storedAccountId }) =>
        storedAccountId
          ? {
              check: revokeSessionPayload(owner, { accountId: storedAccountId }),
              accountId: storedAccountId,
            }
          : "key",
    },
  },
  {
    route: WALLET_EXPORT,
    rule: {
      title: "Show the recovery phrase",
      gesture: true,
      // The export must be to a decrypt-only key this frame made, so only the frame can open it.
      build: ({ ids, body, isExportKey }) => {
        const clientPublicKey = stringField(body, "clientPublicKey");
        const accountId = ids[0];
        if (!clientPublicKey || !isExportKey(clientPublicKey) || !accountId) return "key";
        return {
          check: exportWalletPayload(owner, { accountId, clientPublicKey }),
          accountId,
          exportKey: clientPublicKey,
        };
      },
    },
  },
  {
    route: QUOTE_EXECUTE_ROUTE,
    rule: {
      title: "Send a payment",
      gesture: true,
      // Core's execute check, given only what the frame itself knows: the quote of the path and
      // the account of the session whose key stamps (the payment's source). The page's quote
      // object (its amount and payee) never reaches the frame, so the check binds the transfer
      // activity, this quote's id, the account's own transfer signer and, where the transaction
      // is readable, its quote and source; the amount and payee are shown as the payload states
      // them, and said to be absent where it does not.
      build: ({ ids, storedAccountId }) => {
        const quoteId = ids[0];
        if (!quoteId || !storedAccountId) return "key";
        const quote = { id: quoteId, source: { accountId: storedAccountId } } as QuoteJson;
        return { check: executeQuotePayload(owner, quote), accountId: storedAccountId };
      },
      rows: (payload, ids) => {
        const quote = {
          id: ids[0],
          paymentInstructions: [
            { accountOrWalletInfo: { accountType: "EMBEDDED_WALLET", payloadToSign: payload } },
          ],
        } as QuoteJson;
        const { amount, currency, destination } = readQuotePayload(quote);
        if (amount === undefined && destination === undefined)
          return [
            { label: "Quote", value: ids[0] ?? "" },
            { label: "Amount and payee", value: OPAQUE_PAYMENT },
          ];
        const absent = "Not in what is signed: check it in the app before you confirm";
        return [
          { label: "Quote", value: ids[0] ?? "" },
          {
            label: "Amount",
            value: amount === undefined ? absent : `${amount}${currency ? ` ${currency}` : ""}`,
          },
          { label: "To", value: destination ?? absent },
        ];
      },
    },
  },
  {
    route: CREDENTIAL_ADD_ROUTE,
    rule: {
      title: "Add a sign-in method",
      gesture: true,
      // Core's add check for the kind and account the body names (the account must be the
      // stamping session's). The body carries no email or phone number: the contact is the one
      // the payload names, shown in the confirmation, so the user's tap is what binds it; an OAuth
      // token is the body's own. A passkey's attestation must be one the frame's own ceremony
      // made (rulesPasskey.ts), so that a page cannot add an authenticator of its own.
      build: ({ body, storedAccountId, payload, registration }) => {
        const type = stringField(body, "type");
        if (!storedAccountId || stringField(body, "accountId") !== storedAccountId) return "key";
        if (type === "PASSKEY") {
          const check = body && passkeyAddCheck(owner, storedAccountId, body, registration);
          return check ? { check, accountId: storedAccountId } : "passkey";
        }
        const named = parametersOf(payload);
        const text = (value: unknown) => (typeof value === "string" ? value : "");
        const accountId = storedAccountId;
        const request: AddCredentialParameters | undefined =
          type === "OAUTH"
            ? { accountId, type, oidcToken: stringField(body, "oidcToken") ?? "" }
            : type === "EMAIL_OTP"
              ? { accountId, type, email: text(named.userEmail) }
              : type === "SMS_OTP"
                ? { accountId, type, phoneNumber: text(named.userPhoneNumber) }
                : undefined;
        if (!request) return "unsupported";
        return { check: credentialChecks.add(request), accountId };
      },
      rows: (payload) => {
        const named = parametersOf(payload);
        if (Array.isArray(named.authenticators)) return passkeyAddRows(named);
        const contact = named.userEmail ?? named.userPhoneNumber;
        if (typeof contact === "string") return [{ label: "Codes will go to", value: contact }];
        return oauthRows(named);
      },
    },
  },
  {
    route: CREDENTIAL_REVOKE_ROUTE,
    rule: {
      title: "Remove a sign-in method",
      gesture: true,
      // Core's revoke check for the kind the payload removes (the frame is not told the kind the
      // user chose in the app): it binds one removal of that kind only, never a contact set.
      // A removal of no kind the frame knows is refused (`kind`) before any check or tap.
      build: ({ storedAccountId, payload }) => {
        if (!storedAccountId) return "key";
        const kind = removedKind(payload);
        if (kind === "") return "kind";
        return {
          check: credentialChecks.revoke({
            accountId: storedAccountId,
            type: kind as RevokeCredentialParameters["type"],
          }),
          accountId: storedAccountId,
        };
      },
      rows: (payload, ids) => [
        { label: "Sign-in method", value: ids[0] ?? "" },
        { label: "Kind", value: removedKind(payload) },
        ...removedIds(payload),
      ],
    },
  },
  ...ACCOUNT_RULES,
];

/** What a payment whose signed transaction is opaque says in place of its amount and payee. */
export const OPAQUE_PAYMENT =
  "This signer cannot see the amount or payee: check them in the app before you confirm";

/** Whether `publicKey` (either encoding) is `key`'s own. */
const sameKey = (publicKey: string, key: SigningKey) =>
  [key.publicKey, key.publicKeyUncompressed].some(
    (own) => own.toLowerCase() === publicKey.toLowerCase(),
  );

/** The claims of a compact JWT, unverified (for what the confirmation shows), or undefined. */
function jwtClaims(token: string): Record<string, unknown> | undefined {
  const part = token.split(".")[1];
  if (!part) return undefined;
  try {
    const base64 = part.replaceAll("-", "+").replaceAll("_", "/");
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof claims === "object" && claims !== null
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What an OAuth add shows: the issuer and email of the token the payload carries (core's add check
 * has bound it to the body's token), as the token names them, or that it does not.
 */
function oauthRows(named: Record<string, unknown>): ConfirmRow[] {
  const providers = named.oauthProviders;
  const first = (Array.isArray(providers) ? providers[0] : undefined) as
    | { oidcToken?: unknown; providerName?: unknown }
    | undefined;
  const claims = typeof first?.oidcToken === "string" ? jwtClaims(first.oidcToken) : undefined;
  const issuer = claims?.iss;
  const email = claims?.email;
  const absent = "Not named in the provider's token";
  return [
    { label: "Provider", value: typeof issuer === "string" ? issuer : absent },
    { label: "Provider account", value: typeof email === "string" ? email : absent },
  ];
}

/** The ids a removal's payload names (passkeys, OAuth providers), one row each. */
function removedIds(payload: string): ConfirmRow[] {
  const parameters = parametersOf(payload);
  const rows: ConfirmRow[] = [];
  for (const [field, label] of [
    ["authenticatorIds", "Passkey removed"],
    ["providerIds", "Provider removed"],
  ] as const) {
    const ids = parameters[field];
    if (Array.isArray(ids))
      for (const id of ids) if (typeof id === "string") rows.push({ label, value: id });
  }
  return rows;
}

/**
 * The rows of a rule's confirmation: the operation as the frame's rule names it (never the label
 * the page sent with the request), the account, the activity type the payload names, and what
 * the rule reads from the payload.
 */
export function confirmationRows(
  rule: Rule,
  accountId: string,
  payload: string,
  ids: readonly string[],
): ConfirmRow[] {
  const type = readActivity(payload)?.type;
  return [
    { label: "Operation", value: rule.title },
    { label: "Account", value: accountId },
    { label: "Activity", value: typeof type === "string" ? type : "unknown" },
    ...(rule.rows?.(payload, ids) ?? []),
  ];
}

/** A route template as a pattern: each `{Kind}` one path segment. */
const patternOf = (path: string) => new RegExp(`^${path.replace(/\{[A-Za-z]+\}/g, "([^/?#]+)")}$`);

const COMPILED = RULES.map(({ route, rule }) => ({
  method: route.method,
  pattern: patternOf(route.path),
  rule,
}));

/** The rule of a request, with its path's ids, or undefined when the frame does not sign it. */
export function ruleFor(method: string, path: string): { rule: Rule; ids: string[] } | undefined {
  for (const entry of COMPILED) {
    if (entry.method !== method) continue;
    const match = entry.pattern.exec(path);
    if (match) return { rule: entry.rule, ids: match.slice(1).map(decodeURIComponent) };
  }
  return undefined;
}

/** The account a stored session belongs to: core's session store names it first in the id. */
export function accountOfStoreId(storeId: string | undefined): string | undefined {
  const prefix = "signet.session|";
  if (!storeId?.startsWith(prefix)) return undefined;
  return storeId.slice(prefix.length).split("|")[0] || undefined;
}
