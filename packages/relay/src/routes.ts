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
  | "CardFundingSource"
  | "ExternalAccount"
  | "ContactChange";

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
  "ExternalAccount",
  "ContactChange",
]);

/** The kind of `value` when it is exactly `<kind>:<uuid>` of a checked kind, else `undefined`. */
export function idKindOf(value: string): RelayIdKind | undefined {
  const kind = ID_PATTERN.exec(value)?.[1];
  return kind !== undefined && ID_KINDS.has(kind) ? (kind as RelayIdKind) : undefined;
}

// The uuid of an id, from where `lastIndex` is set to the end: read by `test`, which (unlike
// `exec`) builds no match array, and this runs for every id of every request.
const UUID_TO_END = new RegExp(`${UUID}$`, "y");
const KIND = /^[A-Za-z]+$/;

/** Whether `value` is an identifier of `kind`: exactly `<kind>:<uuid>`. */
export function isIdOfKind(value: string, kind: RelayIdKind): boolean {
  // As `ID_PATTERN` reads it: the letters before the colon are the kind, a uuid is 36 long.
  if (value.length !== kind.length + 37 || value.charCodeAt(kind.length) !== 58) return false;
  if (!value.startsWith(kind) || !KIND.test(kind)) return false;
  UUID_TO_END.lastIndex = kind.length + 1;
  return UUID_TO_END.test(value);
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
/**
 * A path segment that is an SCA factor reset's `resetId` (the OpenAPI types it as a string). Nothing
 * to look up either: the service scopes a reset to the customer the relay forces into the query.
 */
export const SCA_RESET = "ScaReset";

/** A path segment of a kind that is no service id, and nothing the relay looks up. */
export type RelayOpaqueSegment = typeof WEBAUTHN_CREDENTIAL | typeof SCA_RESET;

/**
 * What an opaque segment may be. WebAuthn §6.1: a credential id is at least 16 bytes, so 22 or
 * more base64url characters; no literal segment of another route (`confirm`) can pass for one. A
 * reset id: a path-safe token, no `/`, `%`, `?` or space.
 */
export const OPAQUE_SEGMENTS: Readonly<Record<RelayOpaqueSegment, RegExp>> = {
  [WEBAUTHN_CREDENTIAL]: /^[A-Za-z0-9_-]{22,1366}$/,
  [SCA_RESET]: /^[A-Za-z0-9][A-Za-z0-9:._-]{0,127}$/,
};

/** Whether a placeholder names an opaque segment rather than an id kind. */
export function isOpaqueSegment(kind: string): kind is RelayOpaqueSegment {
  return Object.hasOwn(OPAQUE_SEGMENTS, kind);
}

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

// <catalog:routes>
// Generated by `node scripts/actions.mjs --write` from the action files' rows.
/** Every route of core's actions, in the table's order: the routes the relay forwards. */
export const RELAY_ROUTE_LIST = [
  { method: "POST", path: "/auth/credentials/{AuthMethod}/challenge" },
  { method: "POST", path: "/auth/credentials/{AuthMethod}/verify" },
  { method: "POST", path: "/auth/sessions/{Session}/refresh" },
  { method: "POST", path: "/auth/credentials" },
  { method: "GET", path: "/auth/credentials" },
  { method: "DELETE", path: "/auth/credentials/{AuthMethod}" },
  { method: "GET", path: "/auth/sessions" },
  { method: "DELETE", path: "/auth/sessions/{Session}" },
  { method: "POST", path: "/internal-accounts/{InternalAccount}/export" },
  { method: "GET", path: "/quotes/{Quote}" },
  { method: "POST", path: "/quotes/{Quote}/execute" },
  { method: "POST", path: "/quotes/{Quote}/authorize" },
  { method: "POST", path: "/quotes/{Quote}/authorize/resend" },
  { method: "GET", path: "/transactions/{Transaction}" },
  { method: "GET", path: "/transactions" },
  { method: "POST", path: "/sca/login/start" },
  { method: "POST", path: "/sca/login/complete" },
  { method: "GET", path: "/sca/factors" },
  { method: "POST", path: "/sca/factors" },
  { method: "POST", path: "/sca/factors/confirm" },
  { method: "DELETE", path: "/sca/factors/{WebAuthnCredential}" },
  { method: "POST", path: "/sca/record-event" },
  { method: "PATCH", path: "/internal-accounts/{InternalAccount}" },
  { method: "POST", path: "/customers/{Customer}/verify-email" },
  { method: "POST", path: "/customers/{Customer}/verify-phone" },
  { method: "POST", path: "/customers/{Customer}/verify-email/confirm" },
  { method: "POST", path: "/customers/{Customer}/verify-phone/confirm" },
  { method: "PATCH", path: "/customers/{Customer}" },
  { method: "POST", path: "/auth/delegated-keys" },
  { method: "GET", path: "/auth/delegated-keys" },
  { method: "GET", path: "/auth/delegated-keys/{DelegatedKey}" },
  { method: "DELETE", path: "/auth/delegated-keys/{DelegatedKey}" },
  { method: "GET", path: "/customers/internal-accounts" },
  { method: "GET", path: "/sca/factors/reset/{ScaReset}" },
  { method: "POST", path: "/sca/factors/reset/{ScaReset}/complete" },
  { method: "POST", path: "/sca/factors/reset" },
  { method: "POST", path: "/customers/external-accounts/{ExternalAccount}/trust" },
  { method: "POST", path: "/customers/external-accounts/{ExternalAccount}/trust/confirm" },
  { method: "POST", path: "/customers/external-accounts/{ExternalAccount}/untrust" },
  { method: "POST", path: "/customers/external-accounts/{ExternalAccount}/untrust/confirm" },
  { method: "POST", path: "/customers/{Customer}/contact-changes" },
  { method: "GET", path: "/customers/{Customer}/contact-changes/{ContactChange}" },
  { method: "POST", path: "/customers/{Customer}/contact-changes/{ContactChange}/submit" },
  { method: "DELETE", path: "/customers/{Customer}/contact-changes/{ContactChange}" },
] as const;
// </catalog:routes>

/** A route's rule: everything but its method and path, the relay's own, written for each route. */
export type RelayRouteRule = Omit<RelayRoute, "method" | "path">;

/** `METHOD /path` of one route (distributed over a union of routes). */
type KeyOf<TRoute> = TRoute extends { method: infer M extends string; path: infer P extends string }
  ? `${M} ${P}`
  : never;
/** `METHOD /path` of a route of the list. */
export type RelayRouteKey = KeyOf<(typeof RELAY_ROUTE_LIST)[number]>;

/**
 * The relay's rule of each route of the list, by `METHOD /path`: what query and body it accepts,
 * and its summary (the README's route table). The compiler asks for a rule of each route the
 * actions use and refuses one of a route none uses; `node scripts/actions.mjs` names the missing.
 */
export const RELAY_RULES: { readonly [K in RelayRouteKey]: RelayRouteRule } = {
  "POST /auth/credentials": {
    body: { required: ["accountId"] },
    summary: "add a credential (signed retry)",
  },
  "GET /auth/credentials": {
    query: { accountId: { kind: "InternalAccount", required: true } },
    summary: "list an account's credentials",
  },
  "POST /auth/credentials/{AuthMethod}/challenge": {
    body: {},
    summary: "re-issue an OTP or passkey challenge",
  },
  "POST /auth/credentials/{AuthMethod}/verify": {
    body: {},
    summary: "verify a credential, issue a session",
  },
  "DELETE /auth/credentials/{AuthMethod}": {
    body: {},
    summary: "revoke a credential (signed retry)",
  },
  "GET /auth/sessions": {
    query: { accountId: { kind: "InternalAccount", required: true } },
    summary: "list an account's active sessions",
  },
  "POST /auth/sessions/{Session}/refresh": {
    body: {},
    summary: "refresh a session (signed retry)",
  },
  "DELETE /auth/sessions/{Session}": {
    body: {},
    summary: "revoke a session (signed retry)",
  },
  "POST /auth/delegated-keys": {
    body: { required: ["cardId", "internalAccountId"] },
    summary: "create a delegated key (three legs)",
  },
  "GET /auth/delegated-keys": {
    query: {
      accountId: { kind: "InternalAccount" },
      fundingSourceId: { kind: "CardFundingSource" },
    },
    queryOneOf: ["accountId", "fundingSourceId"],
    summary: "list delegated keys",
  },
  "GET /auth/delegated-keys/{DelegatedKey}": {
    summary: "get a delegated key",
  },
  "DELETE /auth/delegated-keys/{DelegatedKey}": {
    body: {},
    summary: "revoke a delegated key",
  },
  "POST /internal-accounts/{InternalAccount}/export": {
    body: {},
    summary: "export the wallet (signed retry)",
  },
  "GET /customers/internal-accounts": {
    query: {
      customerId: { kind: "Customer", forced: true },
      type: { kind: "code" },
      currency: { kind: "code" },
      limit: { kind: "limit" },
      cursor: { kind: "cursor" },
    },
    summary: "list the caller's internal accounts",
  },
  "PATCH /customers/{Customer}": {
    // The OpenAPI's update body is a oneOf keyed on customerType (docs/protocol.md §3): the
    // device names INDIVIDUAL, the customers Embedded Wallets are for, and can change nothing else.
    body: {
      exactlyOneOf: ["email", "phoneNumber"],
      alsoAllowed: { customerType: ["INDIVIDUAL"] },
    },
    summary: "change the caller's email or phone number (signed retry)",
  },
  // Contact changes as a resource (the service's #853): the customer in the path must be the
  // caller, and a change id is looked up under it. The create names only the field and its value.
  "POST /customers/{Customer}/contact-changes": {
    body: { exactlyOneOf: ["value"], alsoAllowed: { type: ["EMAIL", "PHONE"] } },
    summary: "start a change of the caller's email or phone number",
  },
  "GET /customers/{Customer}/contact-changes/{ContactChange}": {
    summary: "read one of the caller's contact changes (resume after a lost answer)",
  },
  "DELETE /customers/{Customer}/contact-changes/{ContactChange}": {
    summary: "cancel one of the caller's contact changes still awaiting its signature (not signed)",
  },
  "POST /customers/{Customer}/contact-changes/{ContactChange}/submit": {
    summary: "submit a contact change's stamp (signature only, no body)",
  },
  "GET /quotes/{Quote}": { summary: "get a quote" },
  "POST /quotes/{Quote}/execute": {
    body: {},
    summary: "execute a quote (stamp header, Idempotency-Key)",
  },
  "POST /quotes/{Quote}/authorize": {
    body: { endUserIpAddress: "optional" },
    summary: "authorize a quote's SCA challenge (SMS code or passkey assertion)",
  },
  "POST /quotes/{Quote}/authorize/resend": {
    summary: "re-send the SMS code of a quote's SCA challenge",
  },
  "GET /transactions/{Transaction}": { summary: "get a transaction" },
  "GET /transactions": {
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
  "PATCH /internal-accounts/{InternalAccount}": {
    body: { exactlyOneOf: ["privateEnabled"], valueType: "boolean" },
    summary: "turn the wallet's privacy on or off (signed retry)",
  },
  "POST /customers/{Customer}/verify-email": {
    summary: "send a code that verifies the caller's email",
  },
  "POST /customers/{Customer}/verify-email/confirm": {
    body: { exactlyOneOf: ["code"] },
    summary: "confirm the caller's email with its code",
  },
  "POST /customers/{Customer}/verify-phone": {
    summary: "send a code that verifies the caller's phone",
  },
  "POST /customers/{Customer}/verify-phone/confirm": {
    body: { exactlyOneOf: ["code"] },
    summary: "confirm the caller's phone with its code",
  },
  // Strong customer authentication (docs/protocol.md §9): the customer is always the caller.
  "GET /sca/factors": {
    query: { customerId: { kind: "Customer", forced: true } },
    summary: "list the caller's SCA factors",
  },
  "POST /sca/factors": {
    query: { customerId: { kind: "Customer", forced: true } },
    body: { exactlyOneOf: ["type"] },
    summary: "start enrolling an SCA factor (a TOTP app or a passkey for SCA)",
  },
  "POST /sca/factors/confirm": {
    query: { customerId: { kind: "Customer", forced: true } },
    body: {},
    summary: "confirm an SCA factor enrollment",
  },
  "DELETE /sca/factors/{WebAuthnCredential}": {
    query: { customerId: { kind: "Customer", forced: true } },
    summary: "delete the caller's SCA passkey",
  },
  "POST /sca/login/start": {
    query: { customerId: { kind: "Customer", forced: true } },
    body: { exactlyOneOf: ["factor"] },
    summary: "start the caller's SCA login",
  },
  "POST /sca/login/complete": {
    query: { customerId: { kind: "Customer", forced: true } },
    body: { endUserIpAddress: "required" },
    summary: "complete the caller's SCA login (code or passkey assertion)",
  },
  "POST /sca/factors/reset": {
    query: { customerId: { kind: "Customer", forced: true } },
    body: { exactlyOneOf: ["factor"] },
    summary: "start resetting the caller's lost SCA factor (liveness-gated)",
  },
  "GET /sca/factors/reset/{ScaReset}": {
    query: { customerId: { kind: "Customer", forced: true } },
    summary: "read the status of the caller's SCA factor reset",
  },
  "POST /sca/factors/reset/{ScaReset}/complete": {
    query: { customerId: { kind: "Customer", forced: true } },
    body: {},
    summary: "complete the caller's SCA factor reset (a new mobile for SMS_OTP)",
  },
  // Trusted beneficiaries: the path's external account must be the caller's.
  "POST /customers/external-accounts/{ExternalAccount}/trust": {
    summary: "start trusting the caller's beneficiary (answers its SCA challenge)",
  },
  "POST /customers/external-accounts/{ExternalAccount}/trust/confirm": {
    body: {},
    summary: "confirm trusting the caller's beneficiary with the SCA proof",
  },
  "POST /customers/external-accounts/{ExternalAccount}/untrust": {
    summary: "start untrusting the caller's beneficiary (answers its SCA challenge)",
  },
  "POST /customers/external-accounts/{ExternalAccount}/untrust/confirm": {
    body: {},
    summary: "confirm untrusting the caller's beneficiary with the SCA proof",
  },
  "POST /sca/record-event": {
    query: { customerId: { kind: "Customer", forced: true } },
    body: { exactlyOneOf: ["eventType"] },
    summary: "record a security event of the app's own login",
  },
};

/**
 * Every route the relay forwards: the list generated from core's actions, each with its rule.
 * Everything else is refused: 404 for an unknown path, 405 (with `Allow`) for a known path with
 * another method. The README shows the same table.
 */
export const RELAY_ROUTES: readonly RelayRoute[] = RELAY_ROUTE_LIST.map((route) => ({
  ...route,
  ...RELAY_RULES[`${route.method} ${route.path}` as RelayRouteKey],
}));

/** A path parameter found while matching: its kind and value. */
export interface RelayPathId {
  readonly kind: RelayIdKind | RelayOpaqueSegment;
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
    if (placeholder && isOpaqueSegment(placeholder[1]!)) {
      const kind = placeholder[1] as RelayOpaqueSegment;
      if (!OPAQUE_SEGMENTS[kind].test(segment)) return null;
      ids.push({ kind, value: segment });
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
