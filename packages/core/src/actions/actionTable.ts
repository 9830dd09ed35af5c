// The one table of actions (docs/architecture.md "Adding an action"): for each exported action, the
// requests it makes through the relay, how each is signed and checked, and its React hook with what
// a success makes stale. Nothing at run time reads it: tests and `node scripts/actions.mjs` do. The
// relay's route table, the emulator's routes, the hooks' invalidations, the argument and type tests
// and the docs tables are generated from it or checked against it, so a new action fails CI until
// every place knows it. It imports nothing, so the relay's and react's tests can load it alone, and
// no entry point imports it, so it is in no bundle.

/** A method the relay forwards. */
export type ActionMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * How one request is signed (docs/protocol.md §2): who signs, the engine's mode, how many legs at
 * most, the payload check that reads `payloadToSign` first (§11), the status of success.
 */
export type ActionSigning = {
  /** The key that stamps: a held session's, or the one-time key (TEK) of an OTP sign-in. */
  readonly signer: "session" | "oneTimeKey";
  /** `challenge`: 202 then the stamped re-send; `direct`: one stamped request (quote execute). */
  readonly mode: "challenge" | "direct";
  /** The most legs the engine sends before success (`maxLegs`; 1 in direct mode). */
  readonly legs: 1 | 2 | 3;
  /** The function the action passes as `checkPayload`, in its own file or `transport/payloadCheck.ts`. */
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
  /** The file under `packages/core/src/actions/` that holds its code. */
  readonly file: string;
  /** What it does, for the docs tables. */
  readonly summary: string;
  /** Every request it can make, in order. Empty: it makes none. */
  readonly requests: readonly ActionRequest[];
  readonly hook: ActionHook;
};

const SESSION_OF_ACCOUNT = "a session of a verified credential of the account";

/** Every exported action, by its exported name. */
export const actionTable = {
  requestOtp: {
    file: "requestOtp.ts",
    summary: "starts an email or SMS OTP sign-in: a fresh target bundle, a code sent",
    requests: [{ method: "POST", path: "/auth/credentials/{AuthMethod}/challenge" }],
    hook: { kind: "mutation", name: "useRequestOtp", invalidates: [] },
  },
  verifyOtp: {
    file: "verifyOtp.ts",
    summary:
      "the OTP sealed to the enclave with HPKE under a one-time key (TEK), the token stamped with it; the TEK becomes the session key",
    requests: [
      {
        method: "POST",
        path: "/auth/credentials/{AuthMethod}/verify",
        signed: {
          signer: "oneTimeKey",
          mode: "challenge",
          legs: 2,
          check: "expectVerificationToken",
          status: 200,
          signedBy: "the one-time key (TEK) whose public key is inside `encryptedOtpBundle`",
        },
      },
    ],
    hook: { kind: "mutation", name: "useVerifyOtp", invalidates: ["sessions", "credentials"] },
  },
  signInWithOAuth: {
    file: "signInWithOAuth.ts",
    summary:
      "a fresh key, `oauthNonce` of its exact public key into your OIDC request, one verify; `legacy: true` for a service-made session key",
    requests: [{ method: "POST", path: "/auth/credentials/{AuthMethod}/verify" }],
    hook: { kind: "mutation", name: "useSignInWithOAuth", invalidates: ["sessions"] },
  },
  preparePasskeySignIn: {
    file: "signInWithPasskey.ts",
    summary: "the passkey challenge for a fresh key, made before the tap",
    requests: [{ method: "POST", path: "/auth/credentials/{AuthMethod}/challenge" }],
    hook: { kind: "mutation", name: "usePreparePasskeySignIn", invalidates: [] },
  },
  signInWithPasskey: {
    file: "signInWithPasskey.ts",
    summary:
      "a WebAuthn assertion over the challenge's UTF-8 bytes, verified with its `Request-Id`; `autofill: true` offers the passkey in the browser's autofill",
    requests: [
      { method: "POST", path: "/auth/credentials/{AuthMethod}/challenge" },
      { method: "POST", path: "/auth/credentials/{AuthMethod}/verify" },
    ],
    hook: { kind: "mutation", name: "useSignInWithPasskey", invalidates: ["sessions"] },
  },
  addPasskey: {
    file: "addPasskey.ts",
    summary: "WebAuthn registration with your backend's challenge, then the signed add",
    requests: [
      {
        method: "POST",
        path: "/auth/credentials",
        signed: {
          signer: "session",
          mode: "challenge",
          legs: 2,
          check: "addPasskeyPayload",
          status: 201,
          signedBy: SESSION_OF_ACCOUNT,
        },
      },
    ],
    hook: { kind: "mutation", name: "useAddPasskey", invalidates: ["credentials"] },
  },
  addCredential: {
    file: "addCredential.ts",
    summary: "adds an EMAIL_OTP, SMS_OTP or OAUTH credential",
    requests: [
      {
        method: "POST",
        path: "/auth/credentials",
        signed: {
          signer: "session",
          mode: "challenge",
          legs: 2,
          check: "addCredentialPayload",
          status: 201,
          signedBy: SESSION_OF_ACCOUNT,
        },
      },
    ],
    hook: { kind: "mutation", name: "useAddCredential", invalidates: ["credentials"] },
  },
  listCredentials: {
    file: "listCredentials.ts",
    summary: "the account's credentials (works before sign-in)",
    requests: [{ method: "GET", path: "/auth/credentials" }],
    hook: { kind: "query", name: "useCredentials", reads: "credentials" },
  },
  revokeCredential: {
    file: "revokeCredential.ts",
    summary:
      "revokes a credential, stamped by a session of a *different* credential; its sessions end",
    requests: [
      {
        method: "DELETE",
        path: "/auth/credentials/{AuthMethod}",
        signed: {
          signer: "session",
          mode: "challenge",
          legs: 2,
          check: "revokeCredentialPayload",
          status: 204,
          signedBy: "a session of a **different** credential of the account",
        },
      },
    ],
    hook: {
      kind: "mutation",
      name: "useRevokeCredential",
      invalidates: ["credentials", "sessions"],
    },
  },
  getSession: {
    file: "getSession.ts",
    summary: "the session this device holds for the account, from the key store",
    requests: [],
    hook: {
      kind: "none",
      why: "`useSession` follows the client's session store instead (`useSyncExternalStore`)",
    },
  },
  listSessions: {
    file: "listSessions.ts",
    summary: "every active session the service knows for the account, on any device",
    requests: [{ method: "GET", path: "/auth/sessions" }],
    hook: { kind: "query", name: "useSessions", reads: "sessions" },
  },
  refreshSession: {
    file: "refreshSession.ts",
    summary:
      "a new key per refresh, the old one deleted (`legacy: true` for a service-made one); revoked again if the device signed out meanwhile",
    requests: [
      {
        method: "POST",
        path: "/auth/sessions/{Session}/refresh",
        signed: {
          signer: "session",
          mode: "challenge",
          legs: 2,
          check: "refreshSessionPayload",
          status: 201,
          signedBy: "the session itself",
        },
      },
      {
        method: "DELETE",
        path: "/auth/sessions/{Session}",
        signed: {
          signer: "session",
          mode: "challenge",
          legs: 2,
          check: "revokeSessionPayload",
          status: 204,
          signedBy: "the new session itself",
        },
      },
    ],
    hook: { kind: "mutation", name: "useRefreshSession", invalidates: ["sessions"] },
  },
  revokeSession: {
    file: "revokeSession.ts",
    summary: "revokes any session of the account",
    requests: [
      {
        method: "DELETE",
        path: "/auth/sessions/{Session}",
        signed: {
          signer: "session",
          mode: "challenge",
          legs: 2,
          check: "revokeSessionPayload",
          status: 204,
          signedBy: "any active session of the account, itself included",
        },
      },
    ],
    hook: { kind: "mutation", name: "useRevokeSession", invalidates: ["sessions"] },
  },
  signOut: {
    file: "signOut.ts",
    summary: "revokes each session this device holds; the keys are deleted even offline",
    requests: [
      {
        method: "DELETE",
        path: "/auth/sessions/{Session}",
        signed: {
          signer: "session",
          mode: "challenge",
          legs: 2,
          check: "revokeSessionPayload",
          status: 204,
          signedBy: "the session itself",
        },
      },
    ],
    hook: { kind: "mutation", name: "useSignOut", invalidates: ["sessions"] },
  },
  exportWallet: {
    file: "exportWallet.ts",
    summary:
      "a fresh decrypt-only key per export, the verified bundle opened on the device; the mnemonic goes to the caller only",
    requests: [
      {
        method: "POST",
        path: "/internal-accounts/{InternalAccount}/export",
        signed: {
          signer: "session",
          mode: "challenge",
          legs: 2,
          check: "exportWalletPayload",
          status: 200,
          signedBy: "any verified session of the account",
        },
      },
    ],
    hook: { kind: "mutation", name: "useExportWallet", invalidates: [] },
  },
  getQuote: {
    file: "getQuote.ts",
    summary: "a quote, with the payload its wallet source signs",
    requests: [{ method: "GET", path: "/quotes/{Quote}" }],
    hook: { kind: "query", name: "useQuote", reads: "quotes" },
  },
  executeQuote: {
    file: "executeQuote.ts",
    summary:
      "finds the `EMBEDDED_WALLET` instruction by type, stamps it, executes once with an `Idempotency-Key` reused on every retry (a quote waiting for SCA comes back `PENDING_AUTHORIZATION`, typed)",
    requests: [
      {
        method: "POST",
        path: "/quotes/{Quote}/execute",
        signed: {
          signer: "session",
          mode: "direct",
          legs: 1,
          check: "executeQuotePayload",
          status: 200,
          signedBy:
            "a session of a verified credential of the source wallet; **signature only: no 202, no `Request-Id`**, optional `Idempotency-Key`",
        },
      },
    ],
    hook: {
      kind: "mutation",
      name: "useExecuteQuote",
      invalidates: ["quotes", "balances", "transactions"],
    },
  },
  authorizeQuote: {
    file: "authorizeQuote.ts",
    summary:
      "Strong Customer Authentication of a pending quote: each challenge answered with an SMS code or a passkey assertion until the transfer is released (an SCA login first when the service asks for one)",
    requests: [{ method: "POST", path: "/quotes/{Quote}/authorize" }],
    hook: {
      kind: "mutation",
      name: "useAuthorizeQuote",
      invalidates: ["quotes", "balances", "transactions"],
    },
  },
  resendQuoteAuthorization: {
    file: "resendQuoteAuthorization.ts",
    summary: "re-sends a lapsed SMS code of a quote's SCA challenge",
    requests: [{ method: "POST", path: "/quotes/{Quote}/authorize/resend" }],
    hook: { kind: "none", why: "`useAuthorizeQuote` offers it as `resend` on the challenge" },
  },
  waitForTransaction: {
    file: "waitForTransaction.ts",
    summary: "polls a transaction to a terminal status every `pollingInterval` (1 s by default)",
    requests: [{ method: "GET", path: "/transactions/{Transaction}" }],
    hook: { kind: "query", name: "useTransaction", reads: "transactions" },
  },
  listTransactions: {
    file: "listTransactions.ts",
    summary: "the customer's transactions, a page at a time (`nextCursor`)",
    requests: [{ method: "GET", path: "/transactions" }],
    hook: { kind: "query", name: "useTransactions", reads: "transactions" },
  },
  scaLogin: {
    file: "scaLogin.ts",
    summary:
      "the customer's SCA session: start with a factor, the proof through `onChallenge`, complete",
    requests: [
      { method: "POST", path: "/sca/login/start" },
      { method: "POST", path: "/sca/login/complete" },
    ],
    hook: { kind: "mutation", name: "useScaLogin", invalidates: [] },
  },
  listScaFactors: {
    file: "scaFactors.ts",
    summary: "the customer's SCA factors",
    requests: [{ method: "GET", path: "/sca/factors" }],
    hook: { kind: "query", name: "useScaFactors", reads: "scaFactors" },
  },
  enrollScaPasskey: {
    file: "scaFactors.ts",
    summary:
      "a passkey enrolled for SCA (apart from the wallet's sign-in passkeys, one at most): start, WebAuthn, confirm",
    requests: [
      { method: "POST", path: "/sca/factors" },
      { method: "POST", path: "/sca/factors/confirm" },
    ],
    hook: { kind: "mutation", name: "useEnrollScaPasskey", invalidates: ["scaFactors"] },
  },
  deleteScaFactor: {
    file: "scaFactors.ts",
    summary: "deletes the SCA passkey by its WebAuthn credential id",
    requests: [{ method: "DELETE", path: "/sca/factors/{WebAuthnCredential}" }],
    hook: { kind: "mutation", name: "useDeleteScaFactor", invalidates: ["scaFactors"] },
  },
  recordSecurityEvent: {
    file: "scaFactors.ts",
    summary: "a failed login or a password reset of the app's own login, for the service's lockout",
    requests: [{ method: "POST", path: "/sca/record-event" }],
    hook: { kind: "mutation", name: "useRecordSecurityEvent", invalidates: [] },
  },
  updateWalletPrivacy: {
    file: "updateWalletPrivacy.ts",
    summary: "turns the wallet's privacy on or off",
    requests: [
      {
        method: "PATCH",
        path: "/internal-accounts/{InternalAccount}",
        signed: {
          signer: "session",
          mode: "challenge",
          legs: 2,
          check: "updateWalletPrivacyPayload",
          status: 200,
          signedBy: "a session of the wallet",
        },
      },
    ],
    hook: { kind: "mutation", name: "useUpdateWalletPrivacy", invalidates: ["balances"] },
  },
  startContactVerification: {
    file: "contactVerification.ts",
    summary: "sends a code that proves the customer's email or phone (EU customers)",
    requests: [
      { method: "POST", path: "/customers/{Customer}/verify-email" },
      { method: "POST", path: "/customers/{Customer}/verify-phone" },
    ],
    hook: { kind: "mutation", name: "useStartContactVerification", invalidates: [] },
  },
  confirmContactVerification: {
    file: "contactVerification.ts",
    summary: "confirms the email or phone with its code",
    requests: [
      { method: "POST", path: "/customers/{Customer}/verify-email/confirm" },
      { method: "POST", path: "/customers/{Customer}/verify-phone/confirm" },
    ],
    hook: { kind: "mutation", name: "useConfirmContactVerification", invalidates: [] },
  },
  updateCustomerContact: {
    file: "updateCustomerContact.ts",
    summary:
      "changes the email or the phone number (one per call); the service renames the tied OTP credential",
    requests: [
      {
        method: "PATCH",
        path: "/customers/{Customer}",
        signed: {
          signer: "session",
          mode: "challenge",
          legs: 2,
          check: "updateCustomerContactPayload",
          status: 200,
          signedBy: "a session of any wallet tied to that contact",
        },
      },
    ],
    hook: { kind: "mutation", name: "useUpdateCustomerContact", invalidates: ["credentials"] },
  },
  createDelegatedKey: {
    file: "createDelegatedKey.ts",
    summary: "a delegated key for a card funding source, created in three legs",
    requests: [
      {
        method: "POST",
        path: "/auth/delegated-keys",
        signed: {
          signer: "session",
          mode: "challenge",
          legs: 3,
          check: "createDelegatedKeyPayload",
          status: 201,
          signedBy: "a session of a verified credential of the wallet, twice",
        },
      },
    ],
    hook: { kind: "mutation", name: "useCreateDelegatedKey", invalidates: ["delegatedKeys"] },
  },
  listDelegatedKeys: {
    file: "listDelegatedKeys.ts",
    summary: "the delegated keys of an account or a funding source, every status",
    requests: [{ method: "GET", path: "/auth/delegated-keys" }],
    hook: { kind: "query", name: "useDelegatedKeys", reads: "delegatedKeys" },
  },
  getDelegatedKey: {
    file: "getDelegatedKey.ts",
    summary: "one delegated key",
    requests: [{ method: "GET", path: "/auth/delegated-keys/{DelegatedKey}" }],
    hook: { kind: "query", name: "useDelegatedKey", reads: "delegatedKeys" },
  },
  revokeDelegatedKey: {
    file: "revokeDelegatedKey.ts",
    summary: "revokes an `ACTIVE` delegated key, in one call",
    requests: [{ method: "DELETE", path: "/auth/delegated-keys/{DelegatedKey}" }],
    hook: { kind: "mutation", name: "useRevokeDelegatedKey", invalidates: ["delegatedKeys"] },
  },
  listInternalAccounts: {
    file: "listInternalAccounts.ts",
    summary: "the user's wallets with balances, every page",
    requests: [{ method: "GET", path: "/customers/internal-accounts" }],
    hook: { kind: "query", name: "useInternalAccounts", reads: "balances" },
  },
} as const satisfies Record<string, ActionRow>;

/** The name of an exported action: the key of its row. */
export type ActionName = keyof typeof actionTable;

/** The actions, in the table's order. */
export const actionNames = Object.keys(actionTable) as ActionName[];

/** A route of the table: a method and a path, as the relay's route table writes it. */
export type ActionRoute = { readonly method: ActionMethod; readonly path: string };

/** Every distinct route the actions use, in the table's order. */
export function actionRoutes(): ActionRoute[] {
  const seen = new Map<string, ActionRoute>();
  for (const name of actionNames) {
    for (const { method, path } of (actionTable[name] as ActionRow).requests) {
      seen.set(`${method} ${path}`, { method, path });
    }
  }
  return [...seen.values()];
}

/** The actions whose hook is a mutation, and what a success of each makes stale. */
export type MutationChangesOf = {
  readonly [K in ActionName as (typeof actionTable)[K]["hook"]["kind"] extends "mutation"
    ? K
    : never]: (typeof actionTable)[K]["hook"] extends { invalidates: infer R } ? R : never;
};

/** The actions whose hook is a query, and what each reads. */
export type QueryReadsOf = {
  readonly [K in ActionName as (typeof actionTable)[K]["hook"]["kind"] extends "query"
    ? K
    : never]: (typeof actionTable)[K]["hook"] extends { reads: infer R } ? R : never;
};
