// The shape of an action's row (docs/architecture.md "Adding an action"): each action file exports
// its row beside its function, and its requests take method, path, status and legs from the row's
// routes (`at`). `node scripts/catalog.mjs --write` reads every row and writes the copies the rest
// of the house reads (catalog/actionTable.ts, the relay's route list, react's invalidations, the
// docs tables). A row is never read at run time, only its routes are, so bundles keep the routes
// and drop the rest.
import type { KnownErrorCode, ServiceErrorCode } from "../errors/codes.js";
import type { ErrorCodeGroup } from "../errors/errorGroups.js";

/** A method the relay forwards. */
export type ActionMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * One request's route: a method, a path relative to the relay's base path (a `{Kind}` segment an
 * id of that kind, `{Quote}` is `Quote:<uuid>`, as the relay's route table writes it), the status
 * of success, and for a signed request how many legs at most (2 by default) and its mode. The
 * field names are the request's own, so a route spreads into `client.signed` and `client.request`.
 */
export type ActionRoute = {
  readonly method: ActionMethod;
  readonly path: string;
  readonly expectedStatus?: 200 | 201 | 204;
  /** Three for a delegated key; two (the engine's default) when absent. */
  readonly maxLegs?: 3;
  /** `direct`: one stamped request (quote execute); a 202 challenge then the re-send when absent. */
  readonly mode?: "direct";
};

/** How a signed request is stamped and checked (docs/protocol.md §2, §11): for the docs and tests. */
export type ActionSigningNote = {
  /**
   * The key that stamps: a held session's, or a sign-in's one-time key (the TEK of an OTP sign-in;
   * the key a passkey sign-in sent, whose one stamp proves the new session is its own).
   */
  readonly signer: "session" | "oneTimeKey";
  /**
   * The function the action passes as `checkPayload`: exported next to an action under `actions/`,
   * or by `transport/payloadCheck.ts`.
   */
  // biome-ignore lint/suspicious/noExplicitAny: any builder of a payload check, whatever it takes
  readonly check: (...args: any[]) => unknown;
  /** Which key the service accepts, as docs/protocol.md §2 says it. */
  readonly signedBy: string;
};

/** One request an action makes: its route, and for a stamped one how it is signed. */
export type ActionRowRequest = {
  readonly route: ActionRoute;
  readonly signed?: ActionSigningNote;
};

/** What the service keeps that a query hook reads and a mutation hook makes stale. */
export type ActionResource =
  | "credentials"
  | "sessions"
  | "delegatedKeys"
  | "balances"
  | "quotes"
  | "transactions"
  | "scaFactors";

/** The action's hook in `@signet/react`. */
export type ActionHook =
  | {
      readonly kind: "query";
      readonly name: `use${string}`;
      readonly reads: ActionResource;
      /**
       * The hook's summary when it is the plain query over the action: the generator then writes
       * it (packages/react/src/hooks.ts) with its key and options (queryOptions.ts). Absent: the
       * hook is hand-written.
       */
      readonly doc?: string;
    }
  | {
      readonly kind: "mutation";
      readonly name: `use${string}`;
      /** What a success changes: the queries reading it refetch (react's `mutationChanges`). */
      readonly invalidates: readonly ActionResource[];
      /**
       * The hook's summary when it is the plain mutation over the action: the generator then
       * writes it (packages/react/src/actionHooks.ts). Absent: the hook is hand-written.
       */
      readonly doc?: string;
    }
  | { readonly kind: "none"; readonly why: string };

/**
 * What the action can throw besides the service's codes of the operations its requests call (those
 * come from the OpenAPI, matched to the row's routes by the generator) and the relay's.
 */
export type ActionErrors = {
  /**
   * The client codes of its code paths: errorGroups.ts's groups and single codes, nested rather than
   * spread (a spread would keep the row in bundles); the generator flattens them.
   */
  readonly client: readonly ErrorCodeGroup[];
  /**
   * Service codes an operation answers although its OpenAPI schema does not list them, each with
   * its reason in docs/protocol.md ("Where the OpenAPI and these notes disagree").
   */
  readonly undocumented?: readonly ServiceErrorCode[];
  /** Runs a passkey ceremony: every `WebAuthnErrorCode` (`webauthn/errors.ts`). */
  readonly passkey?: true;
};

/**
 * A lazy chunk of actions (scripts/catalog.ts names each one's module): those that make a
 * session (the sign-ins and the refresh: a page's first render runs none), a payment's (quote,
 * execute, wait, and the SCA login and authorization that confirm it, which share their proof),
 * the SCA factors, and the rarer account and wallet actions.
 */
export type ActionChunk = "session" | "payments" | "scaFactors" | "wallet";

/** An action's row, exported beside its function as `<action>Row`. */
export type ActionSourceRow = {
  /**
   * The lazy chunk that holds its code (docs/architecture.md "Size"), absent when the entry does:
   * its public function is then a stub the generator writes into catalog/chunks/lazy.ts from this
   * function's own signature and documentation, and the chunk's module exports it.
   */
  readonly chunk?: ActionChunk;
  /** What it does, for the docs tables. */
  readonly summary: string;
  /** Its parameters in brief, Markdown, for the core README's parameters table. */
  readonly parameters: string;
  /** What it resolves to, Markdown, for the same table. */
  readonly resolvesTo: string;
  /** Every request it can make, in order, its own and those of actions it runs. Empty: none. */
  readonly requests: readonly ActionRowRequest[];
  /**
   * Other actions it runs (by name): their requests are its requests too, for its error union.
   * Named rather than imported, so that a row adds no import between chunks.
   */
  readonly runs?: readonly string[];
  readonly errors: ActionErrors;
  readonly hook: ActionHook;
  /**
   * In `createClient`'s `stepUp: { actions: "sensitive" }` (docs/security.md "Step-up"): it moves
   * the wallet out of the user's hands (export, a credential or contact change, a delegated key,
   * an SCA factor change, a trusted beneficiary), so a stale sign-in must verify again first.
   */
  readonly sensitive?: true;
};

/**
 * A signed request as the generated table holds it (docs/protocol.md §2): who signs, the engine's
 * mode, how many legs at most, the payload check's name (§11), the status of success.
 */
export type ActionSigning = {
  readonly signer: ActionSigningNote["signer"];
  readonly mode: "challenge" | "direct";
  readonly legs: 1 | 2 | 3;
  readonly check: string;
  readonly status: 200 | 201 | 204;
  readonly signedBy: string;
};

/** A request as the generated table holds it: its route, the OpenAPI operation, its signing. */
export type ActionRequest = {
  readonly method: ActionMethod;
  readonly path: string;
  /**
   * The OpenAPI's `METHOD /path` this route calls (its parameters named as the OpenAPI names them);
   * absent where the OpenAPI is silent on the route.
   */
  readonly operation?: string;
  /** Absent: the request goes without a stamp. */
  readonly signed?: ActionSigning;
};

/** A row as the generated table (catalog/actionTable.ts) holds it: plain data. */
export type ActionRow = {
  readonly summary: string;
  readonly requests: readonly ActionRequest[];
  /** Other actions it runs, by name. */
  readonly runs?: readonly string[];
  readonly hook: ActionHook;
  /** In the step-up preset `"sensitive"`. */
  readonly sensitive?: true;
};

/** What an action can throw, as the generated `actionErrors` holds it. */
export type ActionErrorRow = {
  /** The OpenAPI operations its requests and the actions it runs call. */
  readonly operations: readonly string[];
  /** It reaches the relay: the relay's codes are in its union. */
  readonly relay?: true;
  readonly client: readonly KnownErrorCode[];
  readonly undocumented?: readonly ServiceErrorCode[];
  readonly passkey?: true;
};

/**
 * `route` with its `{Kind}` segments filled by `ids` in order (each already checked as an id of its
 * kind) and `search` (a query string, `arguments.ts`'s `query`) appended.
 */
export function at<TRoute extends ActionRoute>(
  route: TRoute,
  ids: readonly string[] = [],
  search = "",
): TRoute {
  let next = 0;
  return { ...route, path: route.path.replace(/\{\w+\}/g, () => ids[next++] ?? "") + search };
}
