// The one table of actions (docs/architecture.md "Adding an action"): for each exported action, the
// requests it makes through the relay, how each is signed and checked, and its React hook with what
// a success makes stale. Nothing at run time reads it: tests and `node scripts/actions.mjs` do. The
// relay's route table, the emulator's routes, the hooks' invalidations, the argument and type tests
// and the docs tables are generated from it or checked against it, so a new action fails CI until
// every place knows it. It imports types only, so the relay's and react's tests can load it alone,
// and no entry point imports it, so it is in no bundle.

import type {
  ActionHook,
  ActionMethod,
  ActionRequest,
  ActionResource,
  ActionRow,
  ActionSigning,
} from "./actionRow.js";

export type { ActionHook, ActionMethod, ActionRequest, ActionResource, ActionRow, ActionSigning };

/** A request stamped by a held session in challenge mode: 202, then the stamped re-send. */
const bySession = <const TCheck extends string, const TStatus extends 200 | 201 | 204>(
  check: TCheck,
  status: TStatus,
  signedBy: string,
  legs: 2 | 3 = 2,
) => ({ signer: "session", mode: "challenge", legs, check, status, signedBy }) as const;

const SESSION_OF_ACCOUNT = "a session of a verified credential of the account";

/** Every exported action, by its exported name. */
export const actionTable = {
  requestOtp: {
    summary: "starts an email or SMS OTP sign-in: a fresh target bundle, a code sent",
    requests: [{ method: "POST", path: "/auth/credentials/{AuthMethod}/challenge" }],
    hook: { kind: "mutation", name: "useRequestOtp", invalidates: [] },
  },
  verifyOtp: {
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
    summary:
      "a fresh key, `oauthNonce` of its exact public key into your OIDC request, one verify; `legacy: true` for a service-made session key",
    requests: [{ method: "POST", path: "/auth/credentials/{AuthMethod}/verify" }],
    hook: { kind: "mutation", name: "useSignInWithOAuth", invalidates: ["sessions"] },
  },
  preparePasskeySignIn: {
    summary: "the passkey challenge for a fresh key, made before the tap",
    requests: [{ method: "POST", path: "/auth/credentials/{AuthMethod}/challenge" }],
    hook: { kind: "mutation", name: "usePreparePasskeySignIn", invalidates: [] },
  },
  signInWithPasskey: {
    summary:
      "a WebAuthn assertion over the challenge's UTF-8 bytes, verified with its `Request-Id`, then a refresh stamped by the device's key proves the session is its own; `autofill: true` offers the passkey in the browser's autofill",
    requests: [
      { method: "POST", path: "/auth/credentials/{AuthMethod}/challenge" },
      { method: "POST", path: "/auth/credentials/{AuthMethod}/verify" },
      {
        method: "POST",
        path: "/auth/sessions/{Session}/refresh",
        signed: {
          signer: "oneTimeKey",
          mode: "challenge",
          legs: 2,
          check: "refreshSessionPayload",
          status: 201,
          signedBy:
            "the key this device sent for the new session, which only that session's refresh accepts (the proof; the session held is the refreshed one)",
        },
      },
    ],
    hook: { kind: "mutation", name: "useSignInWithPasskey", invalidates: ["sessions"] },
  },
  addPasskey: {
    summary: "WebAuthn registration with your backend's challenge, then the signed add",
    requests: [
      {
        method: "POST",
        path: "/auth/credentials",
        signed: bySession("addPasskeyPayload", 201, SESSION_OF_ACCOUNT),
      },
    ],
    hook: { kind: "mutation", name: "useAddPasskey", invalidates: ["credentials"] },
  },
  addCredential: {
    summary: "adds an EMAIL_OTP, SMS_OTP or OAUTH credential",
    requests: [
      {
        method: "POST",
        path: "/auth/credentials",
        signed: bySession("addCredentialPayload", 201, SESSION_OF_ACCOUNT),
      },
    ],
    hook: { kind: "mutation", name: "useAddCredential", invalidates: ["credentials"] },
  },
  listCredentials: {
    summary: "the account's credentials (works before sign-in)",
    requests: [{ method: "GET", path: "/auth/credentials" }],
    hook: { kind: "query", name: "useCredentials", reads: "credentials" },
  },
  revokeCredential: {
    summary:
      "revokes a credential, stamped by a session of a *different* credential; its sessions end",
    requests: [
      {
        method: "DELETE",
        path: "/auth/credentials/{AuthMethod}",
        signed: bySession(
          "revokeCredentialPayload",
          204,
          "a session of a **different** credential of the account",
        ),
      },
    ],
    hook: {
      kind: "mutation",
      name: "useRevokeCredential",
      invalidates: ["credentials", "sessions"],
    },
  },
  getSession: {
    summary: "the session this device holds for the account, from the key store",
    requests: [],
    hook: {
      kind: "none",
      why: "`useSession` follows the client's session store instead (`useSyncExternalStore`)",
    },
  },
  listSessions: {
    summary: "every active session the service knows for the account, on any device",
    requests: [{ method: "GET", path: "/auth/sessions" }],
    hook: { kind: "query", name: "useSessions", reads: "sessions" },
  },
  refreshSession: {
    summary:
      "a new key per refresh, the old one deleted (`legacy: true` for a service-made one); revoked again if the device signed out meanwhile",
    requests: [
      {
        method: "POST",
        path: "/auth/sessions/{Session}/refresh",
        signed: bySession("refreshSessionPayload", 201, "the session itself"),
      },
      {
        method: "DELETE",
        path: "/auth/sessions/{Session}",
        signed: bySession("revokeSessionPayload", 204, "the new session itself"),
      },
    ],
    hook: { kind: "mutation", name: "useRefreshSession", invalidates: ["sessions"] },
  },
  revokeSession: {
    summary: "revokes any session of the account",
    requests: [
      {
        method: "DELETE",
        path: "/auth/sessions/{Session}",
        signed: bySession(
          "revokeSessionPayload",
          204,
          "any active session of the account, itself included",
        ),
      },
    ],
    hook: { kind: "mutation", name: "useRevokeSession", invalidates: ["sessions"] },
  },
  signOut: {
    summary:
      "revokes each session this device holds, and any a lost answer may have made; the keys are deleted even offline",
    requests: [
      {
        method: "DELETE",
        path: "/auth/sessions/{Session}",
        signed: bySession("revokeSessionPayload", 204, "the session itself"),
      },
    ],
    hook: { kind: "mutation", name: "useSignOut", invalidates: ["sessions"] },
  },
  exportWallet: {
    summary:
      "a fresh decrypt-only key per export, the verified bundle opened on the device; the mnemonic goes to the caller only",
    requests: [
      {
        method: "POST",
        path: "/internal-accounts/{InternalAccount}/export",
        signed: bySession("exportWalletPayload", 200, "any verified session of the account"),
      },
    ],
    hook: { kind: "mutation", name: "useExportWallet", invalidates: [] },
  },
  getQuote: {
    summary: "a quote, with the payload its wallet source signs",
    requests: [{ method: "GET", path: "/quotes/{Quote}" }],
    hook: { kind: "query", name: "useQuote", reads: "quotes" },
  },
  executeQuote: {
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
    summary:
      "Strong Customer Authentication of a pending quote: each challenge answered with an SMS code or a passkey assertion until the transfer is released (and the SCA login, when the service refuses the first answer with 409 SCA_SESSION_REQUIRED)",
    requests: [{ method: "POST", path: "/quotes/{Quote}/authorize" }],
    hook: {
      kind: "mutation",
      name: "useAuthorizeQuote",
      invalidates: ["quotes", "balances", "transactions"],
    },
  },
  resendQuoteAuthorization: {
    summary: "re-sends a lapsed SMS code of a quote's SCA challenge",
    requests: [{ method: "POST", path: "/quotes/{Quote}/authorize/resend" }],
    hook: { kind: "none", why: "`useAuthorizeQuote` offers it as `resend` on the challenge" },
  },
  waitForTransaction: {
    summary: "polls a transaction to a terminal status every `pollingInterval` (1 s by default)",
    requests: [{ method: "GET", path: "/transactions/{Transaction}" }],
    hook: { kind: "query", name: "useTransaction", reads: "transactions" },
  },
  listTransactions: {
    summary: "the customer's transactions, a page at a time (`nextCursor`)",
    requests: [{ method: "GET", path: "/transactions" }],
    hook: { kind: "query", name: "useTransactions", reads: "transactions" },
  },
  scaLogin: {
    summary:
      "the customer's SCA session: start with a factor, the proof through `onChallenge`, complete",
    requests: [
      { method: "POST", path: "/sca/login/start" },
      { method: "POST", path: "/sca/login/complete" },
    ],
    hook: { kind: "mutation", name: "useScaLogin", invalidates: [] },
  },
  listScaFactors: {
    summary: "the customer's SCA factors",
    requests: [{ method: "GET", path: "/sca/factors" }],
    hook: { kind: "query", name: "useScaFactors", reads: "scaFactors" },
  },
  enrollScaPasskey: {
    summary:
      "a passkey enrolled for SCA (apart from the wallet's sign-in passkeys, one at most): start, WebAuthn, confirm",
    requests: [
      { method: "POST", path: "/sca/factors" },
      { method: "POST", path: "/sca/factors/confirm" },
    ],
    hook: { kind: "mutation", name: "useEnrollScaPasskey", invalidates: ["scaFactors"] },
  },
  deleteScaFactor: {
    summary: "deletes the SCA passkey by its WebAuthn credential id",
    requests: [{ method: "DELETE", path: "/sca/factors/{WebAuthnCredential}" }],
    hook: { kind: "mutation", name: "useDeleteScaFactor", invalidates: ["scaFactors"] },
  },
  recordSecurityEvent: {
    summary: "a failed login or a password reset of the app's own login, for the service's lockout",
    requests: [{ method: "POST", path: "/sca/record-event" }],
    hook: { kind: "mutation", name: "useRecordSecurityEvent", invalidates: [] },
  },
  updateWalletPrivacy: {
    summary: "turns the wallet's privacy on or off",
    requests: [
      {
        method: "PATCH",
        path: "/internal-accounts/{InternalAccount}",
        signed: bySession("updateWalletPrivacyPayload", 200, "a session of the wallet"),
      },
    ],
    hook: { kind: "mutation", name: "useUpdateWalletPrivacy", invalidates: ["balances"] },
  },
  startContactVerification: {
    summary: "sends a code that proves the customer's email or phone (EU customers)",
    requests: [
      { method: "POST", path: "/customers/{Customer}/verify-email" },
      { method: "POST", path: "/customers/{Customer}/verify-phone" },
    ],
    hook: { kind: "mutation", name: "useStartContactVerification", invalidates: [] },
  },
  confirmContactVerification: {
    summary: "confirms the email or phone with its code",
    requests: [
      { method: "POST", path: "/customers/{Customer}/verify-email/confirm" },
      { method: "POST", path: "/customers/{Customer}/verify-phone/confirm" },
    ],
    hook: { kind: "mutation", name: "useConfirmContactVerification", invalidates: [] },
  },
  updateCustomerContact: {
    summary:
      "changes the email or the phone number (one per call); the service renames the tied OTP credential",
    requests: [
      {
        method: "PATCH",
        path: "/customers/{Customer}",
        signed: bySession(
          "updateCustomerContactPayload",
          200,
          "a session of any wallet tied to that contact",
        ),
      },
    ],
    hook: { kind: "mutation", name: "useUpdateCustomerContact", invalidates: ["credentials"] },
  },
  createDelegatedKey: {
    summary: "a delegated key for a card funding source, created in three legs",
    requests: [
      {
        method: "POST",
        path: "/auth/delegated-keys",
        signed: bySession(
          "createDelegatedKeyPayload",
          201,
          "a session of a verified credential of the wallet, twice",
          3,
        ),
      },
    ],
    hook: { kind: "mutation", name: "useCreateDelegatedKey", invalidates: ["delegatedKeys"] },
  },
  listDelegatedKeys: {
    summary: "the delegated keys of an account or a funding source, every status",
    requests: [{ method: "GET", path: "/auth/delegated-keys" }],
    hook: { kind: "query", name: "useDelegatedKeys", reads: "delegatedKeys" },
  },
  getDelegatedKey: {
    summary: "one delegated key",
    requests: [{ method: "GET", path: "/auth/delegated-keys/{DelegatedKey}" }],
    hook: { kind: "query", name: "useDelegatedKey", reads: "delegatedKeys" },
  },
  revokeDelegatedKey: {
    summary: "revokes an `ACTIVE` delegated key, in one call",
    requests: [{ method: "DELETE", path: "/auth/delegated-keys/{DelegatedKey}" }],
    hook: { kind: "mutation", name: "useRevokeDelegatedKey", invalidates: ["delegatedKeys"] },
  },
  listInternalAccounts: {
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
