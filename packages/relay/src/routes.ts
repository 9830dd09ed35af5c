// The one table of device routes the relay forwards (docs/architecture.md @signet/relay; docs/protocol.md §3).

/**
 * The kinds of identifiers the relay checks for ownership, named by their id prefix
 * (`<Kind>:<uuid>`, docs/protocol.md §1).
 */
export type RelayIdKind =
  | "Customer"
  | "InternalAccount"
  | "AuthMethod"
  | "Session"
  | "DelegatedKey"
  | "Quote"
  | "Transaction"
  | "Card"
  | "CardFundingSource";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
const ID_PATTERN = new RegExp(`^([A-Za-z]+):${UUID}$`);

const ID_KINDS: ReadonlySet<string> = new Set<RelayIdKind>([
  "Customer",
  "InternalAccount",
  "AuthMethod",
  "Session",
  "DelegatedKey",
  "Quote",
  "Transaction",
  "Card",
  "CardFundingSource",
]);

/** The kind of `value` when it is exactly `<kind>:<uuid>` of a checked kind, else `undefined`. */
export function idKindOf(value: string): RelayIdKind | undefined {
  const kind = ID_PATTERN.exec(value)?.[1];
  return kind !== undefined && ID_KINDS.has(kind) ? (kind as RelayIdKind) : undefined;
}

/** Whether `value` is an identifier of `kind`: exactly `<kind>:<uuid>`. */
export function isIdOfKind(value: string, kind: RelayIdKind): boolean {
  const match = ID_PATTERN.exec(value);
  return match !== null && match[1] === kind;
}

/**
 * JSON body fields (at any depth) and query parameters that name a resource, and the kind
 * of id each must hold. `credentialId` is absent on purpose: in passkey bodies it is the
 * WebAuthn credential id, not an `AuthMethod:` id.
 */
export const ID_FIELDS: Readonly<Record<string, RelayIdKind>> = {
  accountId: "InternalAccount",
  internalAccountId: "InternalAccount",
  customerId: "Customer",
  cardId: "Card",
  fundingSourceId: "CardFundingSource",
  sessionId: "Session",
  authMethodId: "AuthMethod",
  delegatedKeyId: "DelegatedKey",
  quoteId: "Quote",
  transactionId: "Transaction",
};

/**
 * A path segment that is no service id but a WebAuthn credential id (base64url): the SCA factor
 * routes name a passkey by it. Nothing to look up; the service scopes it to the customer the relay
 * forces into the query.
 */
export const WEBAUTHN_CREDENTIAL = "WebAuthnCredential";
// WebAuthn §6.1: a credential id is at least 16 bytes, so 22 or more base64url characters; no
// literal segment of another route (`confirm`) can pass for one.
const WEBAUTHN_CREDENTIAL_ID = /^[A-Za-z0-9_-]{22,1366}$/;

/** A query parameter a route accepts. */
export interface RelayQueryParam {
  /**
   * The id kind the value must be (and be owned), `"code"` for an upper-case enum value such as
   * `EMBEDDED_WALLET` or `USDB`, `"limit"` for a page size (1–100), `"cursor"` for the opaque
   * page cursor a list answered with, `"date"` for an RFC 3339 date-time, `"sortOrder"` for
   * `asc` or `desc`.
   */
  readonly kind: RelayIdKind | "code" | "limit" | "cursor" | "date" | "sortOrder";
  /** Missing → 400, unless `forced`. */
  readonly required?: boolean;
  /** The relay fills it in with the caller's customer id when absent (only for `Customer`). */
  readonly forced?: boolean;
}

/**
 * One forwarded route. `path` is relative to the service base URL; a `{Kind}` segment matches
 * only an id `Kind:<uuid>`, which must belong to the caller.
 */
export interface RelayRoute {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  readonly path: string;
  /** Accepted query parameters; any other parameter → 400. */
  readonly query?: Readonly<Record<string, RelayQueryParam>>;
  /** At least one of these query parameters must be present. */
  readonly queryOneOf?: readonly string[];
  /** Whether the route takes a body. A body must be a JSON object; id fields in it are checked. */
  readonly body?: {
    /** Id fields that must be present at the top level. */
    readonly required?: readonly string[];
    /** When set, the only top-level fields allowed, and exactly one of them must be present. */
    readonly exactlyOneOf?: readonly string[];
    /** With `exactlyOneOf`: the JSON type of the one field. Default `"string"`. */
    readonly valueType?: "string" | "boolean";
    /** With `exactlyOneOf`: other top-level fields allowed beside it, each with its allowed values. */
    readonly alsoAllowed?: Readonly<Record<string, readonly string[]>>;
    /**
     * The body's `endUserIpAddress` is the relay's to set when `createRelay`'s
     * `endUserIpAddress` option is given (docs/protocol.md §9). `"required"`: the service
     * refuses the request without one (`ScaLoginCompleteRequest`), so the relay refuses it first
     * with `RELAY_MISCONFIGURED` when it has no address to write and the device sent none.
     */
    readonly endUserIpAddress?: "optional" | "required";
  };
  /** What the route is for, shown in the README table. */
  readonly summary: string;
}

/**
 * Every route the relay forwards. Everything else is refused: 404 for an unknown path,
 * 405 (with `Allow`) for a known path with another method. The README shows the same table.
 * Exactly the routes of core's table of actions (`packages/core/src/actions/actionTable.ts`):
 * `test/routes.table.test.ts` fails while an action's route is missing here, or a route here is
 * no action's.
 */
export const RELAY_ROUTES: readonly RelayRoute[] = [
  {
    method: "POST",
    path: "/auth/credentials",
    body: { required: ["accountId"] },
    summary: "add a credential (signed retry)",
  },
  {
    method: "GET",
    path: "/auth/credentials",
    query: { accountId: { kind: "InternalAccount", required: true } },
    summary: "list an account's credentials",
  },
  {
    method: "POST",
    path: "/auth/credentials/{AuthMethod}/challenge",
    body: {},
    summary: "re-issue an OTP or passkey challenge",
  },
  {
    method: "POST",
    path: "/auth/credentials/{AuthMethod}/verify",
    body: {},
    summary: "verify a credential, issue a session",
  },
  {
    method: "DELETE",
    path: "/auth/credentials/{AuthMethod}",
    body: {},
    summary: "revoke a credential (signed retry)",
  },
  {
    method: "GET",
    path: "/auth/sessions",
    query: { accountId: { kind: "InternalAccount", required: true } },
    summary: "list an account's active sessions",
  },
  {
    method: "POST",
    path: "/auth/sessions/{Session}/refresh",
    body: {},
    summary: "refresh a session (signed retry)",
  },
  {
    method: "DELETE",
    path: "/auth/sessions/{Session}",
    body: {},
    summary: "revoke a session (signed retry)",
  },
  {
    method: "POST",
    path: "/auth/delegated-keys",
    body: { required: ["cardId", "internalAccountId"] },
    summary: "create a delegated key (three legs)",
  },
  {
    method: "GET",
    path: "/auth/delegated-keys",
    query: {
      accountId: { kind: "InternalAccount" },
      fundingSourceId: { kind: "CardFundingSource" },
    },
    queryOneOf: ["accountId", "fundingSourceId"],
    summary: "list delegated keys",
  },
  {
    method: "GET",
    path: "/auth/delegated-keys/{DelegatedKey}",
    summary: "get a delegated key",
  },
  {
    method: "DELETE",
    path: "/auth/delegated-keys/{DelegatedKey}",
    body: {},
    summary: "revoke a delegated key",
  },
  {
    method: "POST",
    path: "/internal-accounts/{InternalAccount}/export",
    body: {},
    summary: "export the wallet (signed retry)",
  },
  {
    method: "GET",
    path: "/customers/internal-accounts",
    query: {
      customerId: { kind: "Customer", forced: true },
      type: { kind: "code" },
      currency: { kind: "code" },
      limit: { kind: "limit" },
      cursor: { kind: "cursor" },
    },
    summary: "list the caller's internal accounts",
  },
  {
    method: "PATCH",
    path: "/customers/{Customer}",
    // The OpenAPI's update body is a oneOf keyed on customerType (docs/protocol.md §3): the
    // device names INDIVIDUAL, the customers Embedded Wallets are for, and can change nothing else.
    body: {
      exactlyOneOf: ["email", "phoneNumber"],
      alsoAllowed: { customerType: ["INDIVIDUAL"] },
    },
    summary: "change the caller's email or phone number (signed retry)",
  },
  { method: "GET", path: "/quotes/{Quote}", summary: "get a quote" },
  {
    method: "POST",
    path: "/quotes/{Quote}/execute",
    body: {},
    summary: "execute a quote (stamp header, Idempotency-Key)",
  },
  {
    method: "POST",
    path: "/quotes/{Quote}/authorize",
    body: { endUserIpAddress: "optional" },
    summary: "authorize a quote's SCA challenge (SMS code or passkey assertion)",
  },
  {
    method: "POST",
    path: "/quotes/{Quote}/authorize/resend",
    summary: "re-send the SMS code of a quote's SCA challenge",
  },
  { method: "GET", path: "/transactions/{Transaction}", summary: "get a transaction" },
  {
    method: "GET",
    path: "/transactions",
    query: {
      customerId: { kind: "Customer", forced: true },
      accountIdentifier: { kind: "InternalAccount" },
      status: { kind: "code" },
      type: { kind: "code" },
      startDate: { kind: "date" },
      endDate: { kind: "date" },
      limit: { kind: "limit" },
      cursor: { kind: "cursor" },
      sortOrder: { kind: "sortOrder" },
    },
    summary: "list the caller's transactions (a page)",
  },
  {
    method: "PATCH",
    path: "/internal-accounts/{InternalAccount}",
    body: { exactlyOneOf: ["privateEnabled"], valueType: "boolean" },
    summary: "turn the wallet's privacy on or off (signed retry)",
  },
  {
    method: "POST",
    path: "/customers/{Customer}/verify-email",
    summary: "send a code that verifies the caller's email",
  },
  {
    method: "POST",
    path: "/customers/{Customer}/verify-email/confirm",
    body: { exactlyOneOf: ["code"] },
    summary: "confirm the caller's email with its code",
  },
  {
    method: "POST",
    path: "/customers/{Customer}/verify-phone",
    summary: "send a code that verifies the caller's phone",
  },
  {
    method: "POST",
    path: "/customers/{Customer}/verify-phone/confirm",
    body: { exactlyOneOf: ["code"] },
    summary: "confirm the caller's phone with its code",
  },
  // Strong customer authentication (docs/protocol.md §9): the customer is always the caller.
  {
    method: "GET",
    path: "/sca/factors",
    query: { customerId: { kind: "Customer", forced: true } },
    summary: "list the caller's SCA factors",
  },
  {
    method: "POST",
    path: "/sca/factors",
    query: { customerId: { kind: "Customer", forced: true } },
    body: { exactlyOneOf: ["type"] },
    summary: "start enrolling an SCA factor (a passkey for SCA)",
  },
  {
    method: "POST",
    path: "/sca/factors/confirm",
    query: { customerId: { kind: "Customer", forced: true } },
    body: {},
    summary: "confirm an SCA factor enrollment",
  },
  {
    method: "DELETE",
    path: `/sca/factors/{${WEBAUTHN_CREDENTIAL}}`,
    query: { customerId: { kind: "Customer", forced: true } },
    summary: "delete the caller's SCA passkey",
  },
  {
    method: "POST",
    path: "/sca/login/start",
    query: { customerId: { kind: "Customer", forced: true } },
    body: { exactlyOneOf: ["factor"] },
    summary: "start the caller's SCA login",
  },
  {
    method: "POST",
    path: "/sca/login/complete",
    query: { customerId: { kind: "Customer", forced: true } },
    body: { endUserIpAddress: "required" },
    summary: "complete the caller's SCA login (code or passkey assertion)",
  },
  {
    method: "POST",
    path: "/sca/record-event",
    query: { customerId: { kind: "Customer", forced: true } },
    body: { exactlyOneOf: ["eventType"] },
    summary: "record a security event of the app's own login",
  },
];

/** A path parameter found while matching: its kind and value. */
export interface RelayPathId {
  readonly kind: RelayIdKind | typeof WEBAUTHN_CREDENTIAL;
  readonly value: string;
}

/** The outcome of {@link matchRoute}. */
export type RouteMatch =
  | { readonly kind: "matched"; readonly route: RelayRoute; readonly ids: readonly RelayPathId[] }
  | { readonly kind: "method"; readonly allow: readonly string[] }
  | { readonly kind: "none" };

const PLACEHOLDER = /^\{([A-Za-z]+)\}$/;

function matchPattern(pattern: string, segments: readonly string[]): RelayPathId[] | null {
  const parts = pattern.split("/").slice(1);
  if (parts.length !== segments.length) return null;
  const ids: RelayPathId[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const segment = segments[i]!;
    const placeholder = PLACEHOLDER.exec(part);
    if (placeholder?.[1] === WEBAUTHN_CREDENTIAL) {
      if (!WEBAUTHN_CREDENTIAL_ID.test(segment)) return null;
      ids.push({ kind: WEBAUTHN_CREDENTIAL, value: segment });
    } else if (placeholder) {
      const kind = placeholder[1] as RelayIdKind;
      if (!isIdOfKind(segment, kind)) return null;
      ids.push({ kind, value: segment });
    } else if (part !== segment) {
      return null;
    }
  }
  return ids;
}

/**
 * Finds the route for a method and the decoded path segments below the base path.
 * A placeholder segment only matches a well-formed id of its kind, so a malformed id is a 404.
 */
export function matchRoute(
  routes: readonly RelayRoute[],
  method: string,
  segments: readonly string[],
): RouteMatch {
  const allow: string[] = [];
  for (const route of routes) {
    const ids = matchPattern(route.path, segments);
    if (ids === null) continue;
    if (route.method === method) return { kind: "matched", route, ids };
    if (!allow.includes(route.method)) allow.push(route.method);
  }
  return allow.length > 0 ? { kind: "method", allow } : { kind: "none" };
}
