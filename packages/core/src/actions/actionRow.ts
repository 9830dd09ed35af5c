// The shape of a row of the table of actions (actionTable.ts): types only, no imports.

/** A method the relay forwards. */
export type ActionMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * How one request is signed (docs/protocol.md §2): who signs, the engine's mode, how many legs at
 * most, the payload check that reads `payloadToSign` first (§11), the status of success.
 */
export type ActionSigning = {
  /**
   * The key that stamps: a held session's, or a sign-in's one-time key (the TEK of an OTP sign-in;
   * the key a passkey sign-in sent, whose one stamp proves the new session is its own).
   */
  readonly signer: "session" | "oneTimeKey";
  /** `challenge`: 202 then the stamped re-send; `direct`: one stamped request (quote execute). */
  readonly mode: "challenge" | "direct";
  /** The most legs the engine sends before success (`maxLegs`; 1 in direct mode). */
  readonly legs: 1 | 2 | 3;
  /**
   * The function the action passes as `checkPayload`: exported next to an action under `actions/`,
   * or by `transport/payloadCheck.ts`.
   */
  readonly check: string;
  /** The status of success. */
  readonly status: 200 | 201 | 204;
  /** Which key the service accepts, as docs/protocol.md §2 says it. */
  readonly signedBy: string;
};

/**
 * One request an action makes. `path` is relative to the relay's base path, a `{Kind}` segment
 * an id of that kind (`{Quote}` is `Quote:<uuid>`), as the relay's route table writes it.
 */
export type ActionRequest = {
  readonly method: ActionMethod;
  readonly path: string;
  /** Absent: the request goes without a stamp. */
  readonly signed?: ActionSigning;
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
  | { readonly kind: "query"; readonly name: `use${string}`; readonly reads: ActionResource }
  | {
      readonly kind: "mutation";
      readonly name: `use${string}`;
      /** What a success changes: the queries reading it refetch (react's `mutationChanges`). */
      readonly invalidates: readonly ActionResource[];
    }
  | { readonly kind: "none"; readonly why: string };

/** One row: an exported action of `@signet/core`. */
export type ActionRow = {
  /** What it does, for the docs tables. */
  readonly summary: string;
  /** Every request it can make, in order. Empty: it makes none. */
  readonly requests: readonly ActionRequest[];
  readonly hook: ActionHook;
};
